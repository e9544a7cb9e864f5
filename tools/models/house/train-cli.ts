/**
 * House training for `npm run train` (../train-cli.ts): train, evaluate, write
 * models/artifacts/house/<version>/, and promote it if its interval holds leaving one source out
 * and it is not worse than the version in service on the same forward test. `--no-promote` only writes.
 */
import { decidePromotion } from '../../../models/ensemble/promotion';
import { publishVersion } from '../../../models/ensemble/publish';
import { currentVersion as currentResidentialVersion } from '../../../models/residential/manifest';
import { writeModelCard } from '../../cards/residential';
import type { ObservationExport } from '../../../models/ingest/observation-export';
import type { CollectedHomes } from '../../../models/ingest/collected-homes';
import { progressBar } from '../../../models/train-progress';
import { currentHouseVersion, readHouseManifest, setCurrentHouseVersion, HOUSE_DIR, HOUSE_SCALE_COLUMN, type HouseManifest } from '../../../models/house/manifest';
import { trainHouses } from '../../../models/house/train';

/** @returns the process exit code: 0, or 3 when the new version was not promoted */
export async function trainHouseVersion(argv: readonly string[], observations: ObservationExport | null = null, collected: CollectedHomes | null = null): Promise<number> {
  const started = Date.now();
  const bar = progressBar('house');
  const trained = trainHouses({ onProgress: bar.update, observations, collected });
  bar.stop();
  const observed = trained.manifest.training.observations;
  if (observed) console.log(`observations ${observed.file}: ${observed.kept} of ${observed.lines} home lines kept (${Object.entries(observed.byPriceType).map(([type, n]) => `${n} ${type}`).join(', ')}), ${trained.manifest.training.bySource.observations ?? 0} of them $houses, observed ${observed.periods?.from ?? '-'} to ${observed.periods?.to ?? '-'}`);

  const { manifest, dir } = publishVersion<HouseManifest>(HOUSE_DIR, trained, HOUSE_SCALE_COLUMN, started);
  const h = manifest.evaluation.headline.overall;
  const l = manifest.evaluation.leaveOneSourceOut.overall;
  console.log(`wrote ${dir} in ${manifest.training.seconds} s`);
  console.log(`forward (${h.n} houses): median APE ${(h.medianApe * 100).toFixed(1)}%, coverage ${(h.intervalCoverage * 100).toFixed(1)}%; leave one source out (${l.n}): median APE ${(l.medianApe * 100).toFixed(1)}%, coverage ${(l.intervalCoverage * 100).toFixed(1)}%`);

  if (argv.includes('--no-promote')) return 0;
  const current = currentHouseVersion();
  const same = current ? readHouseManifest(current) : null;
  const comparable = same && same.dataSnapshot.id === manifest.dataSnapshot.id && same.evaluation.headline.protocol === manifest.evaluation.headline.protocol;
  // The forward test holds a few dozen houses: coverage is checked leaving one source out (every house).
  const candidate = { evaluation: { headline: manifest.evaluation.headline, kfold: manifest.evaluation.leaveOneSourceOut } };
  const decision = decidePromotion(candidate, comparable ? { version: current!, mapeOnSameEvaluation: same.evaluation.headline.overall.mape } : null, 'kfold');
  if (!decision.promote) {
    console.log(`house ${manifest.version} NOT promoted (${decision.reason}); the service keeps ${current}.`);
    return 3;
  }
  setCurrentHouseVersion(manifest.version);
  console.log(`promoted house ${manifest.version}: ${decision.reason}`);
  // The houses section lives in the residential card, which describes the versions in service.
  const residential = currentResidentialVersion();
  if (residential) console.log(`model card: ${(await writeModelCard(residential)).markdown}`);
  return 0;
}
