/**
 * The base models of the observations benchmark: a flat model trained without uybor's July 2026
 * file and a vehicle model trained without the 2023 Chevrolet file, each by the kind's own trainer
 * (TrainOptions.excludeSources: the full training run, whose served fit is then the forward split's
 * "everything before the newest snapshot") and published into a cache folder outside the repository,
 * so re-runs load them in seconds. The cache is keyed on the data files' checksums, the left-out
 * file and the compiled model code (every .js file under dist/models): a change to any of them
 * trains again, and so does `--retrain`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishVersion } from '../../models/ensemble/publish';
import { listVersions } from '../../models/ensemble/versions';
import { dataSnapshot, type ListingSource } from '../../models/ingest';
import { SCALE_COLUMN, type ResidentialManifest } from '../../models/residential/manifest';
import { trainResidential } from '../../models/residential/train';
import { vehicleDataSnapshot, type VehicleSource } from '../../models/vehicle/ingest';
import { VEHICLE_SCALE_COLUMN, type VehicleManifest } from '../../models/vehicle/manifest';
import { trainVehicles } from '../../models/vehicle/train';

/** Where the base models are kept between runs (OBSERVATIONS_BENCH_CACHE overrides). */
export const CACHE_DIR = process.env.OBSERVATIONS_BENCH_CACHE ?? join(tmpdir(), 'tashkent-valuation-observations-bench');

export interface BaseModel {
  /** The version store the model was published into, and its version. */
  root: string;
  version: string;
  /** Seconds its training took when it was trained (read back from the cache on later runs). */
  trainingSeconds: number;
  /** Whether this run trained it (false: loaded from the cache). */
  trainedNow: boolean;
}

interface CacheKey {
  kind: string;
  excluded: string;
  data: { path: string; sha256: string }[];
}

/** A digest of the compiled model code the trainers run, models/observations apart (this file is dist/bench/observations/base-models.js). */
function modelCodeDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'observations') walk(path);
      else if (entry.name.endsWith('.js')) hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(join(__dirname, '..', '..', 'models'));
  return hash.digest('hex');
}

/** The flat model without `excluded` (uybor_2026 for the benchmark). */
export function residentialBase(excluded: ListingSource, retrain: boolean): BaseModel {
  return cached({ kind: 'residential', excluded, data: dataSnapshot().files }, retrain, (root) => {
    const started = Date.now();
    const trained = trainResidential({ excludeSources: [excluded] });
    return publishVersion<ResidentialManifest>(root, trained, SCALE_COLUMN, started).manifest;
  });
}

/** The vehicle model without `excluded` (avtoelon_chevrolet_2023 for the benchmark). */
export function vehicleBase(excluded: VehicleSource, retrain: boolean): BaseModel {
  return cached({ kind: 'vehicle', excluded, data: vehicleDataSnapshot().files }, retrain, (root) => {
    const started = Date.now();
    const trained = trainVehicles({ excludeSources: [excluded] });
    return publishVersion<VehicleManifest>(root, trained, VEHICLE_SCALE_COLUMN, started).manifest;
  });
}

function cached(key: CacheKey, retrain: boolean, train: (root: string) => { version: string; training: { seconds: number } }): BaseModel {
  const digest = createHash('sha256').update(JSON.stringify({ ...key, data: key.data.map((f) => [f.path, f.sha256]), code: modelCodeDigest() })).digest('hex').slice(0, 16);
  const prefix = `${key.kind}-without-${key.excluded}-`;
  const root = join(CACHE_DIR, prefix + digest);
  const stamp = join(root, 'bench-cache.json');
  if (!retrain && existsSync(stamp)) {
    const { version, trainingSeconds } = JSON.parse(readFileSync(stamp, 'utf8')) as { version: string; trainingSeconds: number };
    if (listVersions(root).includes(version)) return { root, version, trainingSeconds, trainedNow: false };
  }
  // Older models of the same recipe are stale now.
  if (existsSync(CACHE_DIR)) for (const name of readdirSync(CACHE_DIR)) if (name.startsWith(prefix)) rmSync(join(CACHE_DIR, name), { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const manifest = train(root);
  writeFileSync(stamp, `${JSON.stringify({ version: manifest.version, trainingSeconds: manifest.training.seconds, key }, null, 1)}\n`);
  return { root, version: manifest.version, trainingSeconds: manifest.training.seconds, trainedNow: true };
}
