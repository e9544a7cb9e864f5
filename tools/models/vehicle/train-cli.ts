/**
 * Vehicle training for `npm run train` (../train-cli.ts): ingest, clean, train, evaluate, write
 * models/artifacts/vehicle/<version>/, and promote it if it is not worse than the version in
 * service on the same evaluation. `--no-promote` only writes.
 */
import { decidePromotion } from '../../../models/ensemble/promotion';
import { publishVersion } from '../../../models/ensemble/publish';
import type { ObservationExport } from '../../../models/ingest/observation-export';
import { describeCollectedCars, type CollectedCars } from '../../../models/vehicle/ingest/collected-cars';
import { progressBar } from '../../../models/train-progress';
import { currentVersion, readManifest, setCurrentVersion, VEHICLE_DIR, VEHICLE_SCALE_COLUMN, type VehicleManifest } from '../../../models/vehicle/manifest';
import type { VehicleObservationReport } from '../../../models/vehicle/ingest';
import { writeVehicleModelCard } from '../../cards/vehicle';
import { trainVehicles } from '../../../models/vehicle/train';

/** One line on the observation source: what was kept, of which price types and months, and what was dropped why. */
export function observationLine(o: VehicleObservationReport): string {
  const types = (Object.entries(o.byPriceType) as [string, { lines: number; kept: number }][]).filter(([, n]) => n.lines > 0).map(([type, n]) => `${type} ${n.kept}/${n.lines}`);
  const dropped = Object.entries(o.dropped).map(([reason, n]) => `${reason} ${n}`);
  return `observations ${o.file} (sha256 ${o.sha256.slice(0, 12)}…): ${o.kept} of ${o.lines} vehicle lines kept${types.length ? ` (${types.join(', ')})` : ''}`
    + `${o.periods ? `, observed ${o.periods.first} to ${o.periods.last}` : ''}; dropped ${dropped.length ? dropped.join(', ') : 'none'}${o.otherKinds ? `; ${o.otherKinds} line${o.otherKinds === 1 ? '' : 's'} of another kind left to its trainer` : ''}`;
}

/** @returns the process exit code: 0, or 3 when the new version was not promoted */
export async function trainVehicleVersion(argv: readonly string[], observations: ObservationExport | null = null, collected: CollectedCars | null = null): Promise<number> {
  const started = Date.now();
  const bar = progressBar('vehicle');
  const trained = trainVehicles({ onProgress: bar.update, ...(observations && { observations }), collected });
  bar.stop();

  const { manifest, dir } = publishVersion<VehicleManifest>(VEHICLE_DIR, trained, VEHICLE_SCALE_COLUMN, started);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, m: VehicleManifest['evaluation']['kfold']['overall']) =>
    console.log(`${label} (${m.n}): R² ${m.r2.toFixed(3)}, MAPE ${pct(m.mape)}, median APE ${pct(m.medianApe)}, PPE10 ${pct(m.ppe10)}, 90% coverage ${pct(m.intervalCoverage)}, median width ${pct(m.medianIntervalWidth)}`);
  console.log(`wrote ${dir} in ${manifest.training.seconds} s`);
  if (manifest.observations) console.log(observationLine(manifest.observations));
  if (manifest.training.collected) console.log(describeCollectedCars(manifest.training.collected));
  for (const f of manifest.evaluation.forward) {
    line(`forward ${f.drift.newestTrained} → ${f.drift.test} (${f.drift.months} months; this split alone needs ${(f.drift.perMonth * 100).toFixed(2)}%/month)`, f.overall);
    if (f.outOfSample) console.log(`  with the other split's allowance alone (${(f.outOfSample.allowancePerMonth * 100).toFixed(2)}%/month): coverage ${pct(f.outOfSample.intervalCoverage)}, median width ${pct(f.outOfSample.medianIntervalWidth)}`);
  }
  line('unseen model (in period)', manifest.evaluation.unseenModel.overall);
  line('unseen make (in period)', manifest.evaluation.unseenMake.overall);
  line('k-fold (in period)', manifest.evaluation.kfold.overall);
  console.log(`drift allowance served: ${(manifest.drift.perMonth * 100).toFixed(2)}% a month; confidence ${manifest.evaluation.byConfidence.map((c) => `${c.level} n=${c.n} median APE ${pct(c.medianApe)} coverage ${pct(c.coverage)}`).join('; ')}`);

  if (argv.includes('--no-promote')) return 0;
  const current = currentVersion();
  const same = current ? readManifest(current) : null;
  // A new data snapshot changes the test rows; the gate then only checks the coverage band of the
  // forward headline (scored with the served interval method, drift allowance included). Another
  // collected cars export (or one where there was none) is new data too: the headline may be its month.
  const comparable = same && same.dataSnapshot.id === manifest.dataSnapshot.id && same.evaluation.headline.protocol === manifest.evaluation.headline.protocol
    && same.training.collected?.sha256 === manifest.training.collected?.sha256;
  const decision = decidePromotion(manifest, comparable ? { version: current!, mapeOnSameEvaluation: same.evaluation.headline.overall.mape } : null, 'headline', manifest.evaluation.byConfidence);
  if (decision.promote) {
    setCurrentVersion(manifest.version);
    console.log(`promoted vehicle ${manifest.version}: ${decision.reason}`);
    // The card describes the version in service.
    const written = await writeVehicleModelCard(manifest.version);
    console.log(`vehicle model card: ${written.markdown}`);
    return 0;
  }
  console.log(`vehicle ${manifest.version} NOT promoted (${decision.reason}); the service keeps ${current}.`);
  return 3;
}
