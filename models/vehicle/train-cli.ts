/**
 * Vehicle training for `npm run train` (models/train-cli.ts): ingest, clean, train, evaluate, write
 * models/artifacts/vehicle/<version>/, and promote it if it is not worse than the version in
 * service on the same evaluation. `--no-promote` only writes.
 */
import { decidePromotion } from '../ensemble/promotion';
import { publishVersion } from '../ensemble/publish';
import { progressBar } from '../train-progress';
import { currentVersion, readManifest, setCurrentVersion, VEHICLE_DIR, VEHICLE_SCALE_COLUMN, type VehicleManifest } from './manifest';
import { writeVehicleModelCard } from './model-card';
import { trainVehicles } from './train';

/** @returns the process exit code: 0, or 3 when the new version was not promoted */
export async function trainVehicleVersion(argv: readonly string[]): Promise<number> {
  const started = Date.now();
  const bar = progressBar('vehicle');
  const trained = trainVehicles({ onProgress: bar.update });
  bar.stop();

  const { manifest, dir } = publishVersion<VehicleManifest>(VEHICLE_DIR, trained, VEHICLE_SCALE_COLUMN, started);
  const h = manifest.evaluation.headline.overall;
  const k = manifest.evaluation.kfold.overall;
  console.log(`wrote ${dir} in ${manifest.training.seconds} s`);
  console.log(`headline (${h.n} held-out listings, 14 months later): R² ${h.r2.toFixed(3)}, MAPE ${(h.mape * 100).toFixed(1)}%, median APE ${(h.medianApe * 100).toFixed(1)}%, PPE10 ${(h.ppe10 * 100).toFixed(0)}%, 90% interval coverage ${(h.intervalCoverage * 100).toFixed(1)}% (before the drift allowance)`);
  const served = manifest.evaluation.kfoldWithDriftAllowance;
  console.log(`k-fold (${k.n}): MAPE ${(k.mape * 100).toFixed(1)}%, median APE ${(k.medianApe * 100).toFixed(1)}%, coverage ${(k.intervalCoverage * 100).toFixed(1)}%; served intervals with the drift allowance ${(served.intervalCoverage * 100).toFixed(1)}% (median width ${(served.medianIntervalWidth * 100).toFixed(0)}%)`);

  if (argv.includes('--no-promote')) return 0;
  const current = currentVersion();
  const same = current ? readManifest(current) : null;
  // A new data snapshot changes the test rows; the gate then only checks the sanity band, on the
  // in-period (k-fold) coverage: the headline's is drift, which the served intervals allow for.
  const comparable = same && same.dataSnapshot.id === manifest.dataSnapshot.id && same.evaluation.headline.protocol === manifest.evaluation.headline.protocol;
  const decision = decidePromotion(manifest, comparable ? { version: current!, mapeOnSameEvaluation: same.evaluation.headline.overall.mape } : null, 'kfold');
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
