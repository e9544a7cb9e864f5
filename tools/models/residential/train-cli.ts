/**
 * Residential training for `npm run train` (../train-cli.ts): ingest, clean, train, evaluate,
 * write models/artifacts/residential/<version>/, and promote it if it is not worse than the version
 * in service. `--no-promote` only writes. The comparable listings table
 * (models/artifacts/residential/comparables.json, version-independent) is rewritten either way.
 */
import { accuracyMetrics } from '../../../models/ensemble/metrics';
import { publishVersion } from '../../../models/ensemble/publish';
import type { ObservationExport } from '../../../models/ingest/observation-export';
import type { CollectedHomes } from '../../../models/ingest/collected-homes';
import { progressBar } from '../../../models/train-progress';
import { currentVersion, readManifest, setCurrentVersion, RESIDENTIAL_DIR, SCALE_COLUMN, type ResidentialManifest } from '../../../models/residential/manifest';
import { writeModelCard } from '../../cards/residential';
import { decidePromotion } from '../../../models/ensemble/promotion';
import { ResidentialModelSet } from '../../../models/residential/runtime';
import { writeComparables } from '../../../models/residential/comparables-writer';
import { trainResidential } from '../../../models/residential/train';

/** @returns the process exit code: 0, or 3 when the new version was not promoted */
export async function trainResidentialVersion(argv: readonly string[], observations: ObservationExport | null = null, collected: CollectedHomes | null = null): Promise<number> {
  const started = Date.now();
  const bar = progressBar('residential');
  const trained = trainResidential({ onProgress: bar.update, observations, collected });
  bar.stop();
  const observed = trained.manifest.training.observations;
  if (observed) console.log(`observations ${observed.file}: ${observed.kept} of ${observed.lines} home lines kept (${Object.entries(observed.byPriceType).map(([type, n]) => `${n} ${type}`).join(', ')}), ${trained.manifest.training.bySource.observations ?? 0} of them $flats, observed ${observed.periods?.from ?? '-'} to ${observed.periods?.to ?? '-'}`);

  const { manifest, dir } = publishVersion<ResidentialManifest>(RESIDENTIAL_DIR, trained, SCALE_COLUMN, started);

  const h = manifest.evaluation.headline.overall;
  console.log(`wrote ${dir} in ${manifest.training.seconds} s`);
  console.log(`headline (${manifest.evaluation.headline.overall.n} held-out listings): R² ${h.r2.toFixed(3)}, MAPE ${(h.mape * 100).toFixed(1)}%, median APE ${(h.medianApe * 100).toFixed(1)}%, PPE10 ${(h.ppe10 * 100).toFixed(0)}%, 90% interval coverage ${(h.intervalCoverage * 100).toFixed(1)}%`);
  // The comparables are the data snapshot's flats, whichever version serves: written promoted or not.
  const comparables = writeComparables();
  console.log(`comparables: ${comparables.path} (${comparables.rows} flats, ${(comparables.bytes / 1024).toFixed(0)} KiB, data snapshot ${comparables.dataSnapshot})`);

  if (argv.includes('--no-promote')) return 0;
  const decision = decidePromotion(manifest, await currentOnSameEvaluation(manifest, trained.headlineTest), 'headline', manifest.confidence?.leaveOneSourceOut);
  if (decision.promote) {
    setCurrentVersion(manifest.version);
    console.log(`promoted ${manifest.version}: ${decision.reason}`);
    // The card describes the version in service.
    const written = await writeModelCard(manifest.version);
    console.log(`model card: ${written.markdown}`);
    return 0;
  }
  console.log(`NOT promoted (${decision.reason}); the service keeps ${currentVersion()}. Promote by hand with \`npm run model -- promote ${manifest.version}\`.`);
  return 3;
}

async function currentOnSameEvaluation(candidate: ResidentialManifest, test: ReturnType<typeof trainResidential>['headlineTest']) {
  const version = currentVersion();
  if (!version) return null;
  const current = readManifest(version);
  if (current.dataSnapshot.id === candidate.dataSnapshot.id && current.evaluation.headline.protocol === candidate.evaluation.headline.protocol) {
    return { version, mapeOnSameEvaluation: current.evaluation.headline.overall.mape };
  }
  const runtime = await ResidentialModelSet.load(version, RESIDENTIAL_DIR);
  const values = await runtime.value(test.rows.map((r) => ({ ...r, seller: r.seller, askingPrice: null, rooms: r.rooms ?? 1, floor: r.floor ?? 1, totalFloors: r.totalFloors ?? 1, valuationDate: `${r.period}-15` })));
  await runtime.close();
  return { version, mapeOnSameEvaluation: accuracyMetrics(test.priceUsd, values.map((v) => v.estimate)).mape };
}
