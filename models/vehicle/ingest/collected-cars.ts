/**
 * The collected cars export (`npm run collect -- --export`, platform/collect/training-export.ts) as a
 * training source: `<collect folder>/exports/collected-cars-<day>.ndjson`, one canonical vehicle
 * record a line (models/ingest/collectors/training-records.ts `carTrainingRecordsOf`), source
 * `avtoelon_collected`, each avtoelon listing once at its last asking price and dated by the month it
 * was last seen. `npm run train` reads the newest export of the collect folder when there is one
 * (tools/models/train-cli.ts, the same folder and flags as the homes' export: ../../ingest/collected-homes.ts);
 * without one, the vehicle trainer reads the listing files alone, exactly as before.
 *
 * Each line is checked against the record's shape (a file edited by hand, or cut short, stops the
 * run before any training, naming its line), then cleaned as a listing file's row is: the row checks
 * of ./clean.ts (model year against the month seen, price bounds, placeholder mileage, engine of an
 * electric car), engine sizes judged against the listing files' medians of the model (./engine.ts), and
 * price fences (./outliers.ts) drawn among the collected cars themselves, as each listing file is
 * fenced among its own rows. Every line is kept or counted under one drop reason.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { countByPeriod } from '../../ingest/period-counts';
import { collectDirectoryOf, isCollectedExport, newestCollectedExport, newestCollectedHomesExport } from '../../ingest/collected-homes';
import { BODY_TYPES, COLOURS, DRIVES, FUELS, isResolved, REGION_IDS, resolveMake, resolveModel, TRANSMISSIONS } from '../vocabulary';
import { isDropped, type VehicleCandidate } from './candidate';
import { cleanVehicle } from './clean';
import { checkEngineSizes, engineMedians } from './engine';
import { applyVehiclePriceFences } from './outliers';
import type { VehicleDropReason } from './reasons';
import type { VehicleRecord } from './record';

export const COLLECTED_CAR_SOURCE = 'avtoelon_collected' as const;

/** What `npm run train` took from a cars export: the manifest's record of the source (`training.collected`). */
export interface CollectedCarsReport {
  file: string;
  sha256: string;
  lines: number;
  kept: number;
  dropped: Partial<Record<VehicleDropReason, number>>;
  /** 'YYYY-MM' of the oldest and newest kept, and the cars kept per month. */
  periods: { from: string; to: string } | null;
  byPeriod: Record<string, number>;
}

export interface CollectedCars {
  records: VehicleRecord[];
  report: CollectedCarsReport;
}

/** The newest collected-cars export of a collect folder; null when there is none. */
export const newestCollectedCarsExport = (collectDirectory: string): string | null => newestCollectedExport(collectDirectory, 'cars');

/** Whether a file is a cars export by its name (`collected-cars-<day>.ndjson`). */
export const isCollectedCarsFile = (file: string): boolean => isCollectedExport(file, 'cars');

/**
 * Which exports `npm run train` reads, homes and cars: with `given` a file, that file for its kind
 * (a `collected-cars-<day>.ndjson` is the cars', any other the homes'); with `given` a collect folder,
 * the newest export of each kind in it (an error when it holds neither); without it, the newest of
 * each in the default collect folder (COLLECT_DIR, else <VALUATION_HOME>/collect), each null when absent.
 */
export function collectedExportFiles(given: string | undefined, env: NodeJS.ProcessEnv = process.env): { homes: string | null; cars: string | null } {
  if (given !== undefined && statSync(given).isFile()) return isCollectedCarsFile(given) ? { homes: null, cars: given } : { homes: given, cars: null };
  const folder = given ?? collectDirectoryOf(env);
  const found = { homes: newestCollectedHomesExport(folder), cars: newestCollectedCarsExport(folder) };
  if (given !== undefined && found.homes === null && found.cars === null) {
    throw new Error(`--collected ${given}: no exports/collected-homes-<day>.ndjson or collected-cars-<day>.ndjson in it (npm run collect -- --export writes them)`);
  }
  return found;
}

const nullable = (value: unknown, ok: (v: unknown) => boolean) => value === null || ok(value);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const among = (codes: readonly string[]) => (v: unknown) => typeof v === 'string' && codes.includes(v);

function checkedRecord(value: unknown, where: string): VehicleRecord {
  const r = value as Partial<VehicleRecord> | null;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return fail('not a record');
  if (r.source !== COLLECTED_CAR_SOURCE) fail(`source must be ${COLLECTED_CAR_SOURCE}`);
  if (typeof r.period !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(r.period)) fail('period must be YYYY-MM');
  if (typeof r.make !== 'string' || resolveMake(r.make) !== r.make || !isResolved(resolveMake(r.make))) fail('make must be a catalogue make');
  if (typeof r.model !== 'string' || resolveModel(r.make!, r.model) !== r.model) fail('model must be a catalogue model of its make');
  if (!Number.isInteger(r.year)) fail('year must be an integer');
  if (!isNumber(r.priceUsd) || r.priceUsd <= 0) fail('priceUsd must be a positive number');
  if (!nullable(r.mileageKm, (v) => isNumber(v) && v >= 0)) fail('mileageKm must be a number ≥ 0 or null');
  if (!nullable(r.engineLitres, (v) => isNumber(v) && v >= 0)) fail('engineLitres must be a number ≥ 0 or null');
  if (!nullable(r.trim, (v) => Number.isInteger(v))) fail('trim must be an integer or null');
  if (!nullable(r.defects, (v) => typeof v === 'boolean')) fail('defects must be true, false or null');
  const codes = { fuel: FUELS, transmission: TRANSMISSIONS, body: BODY_TYPES, drive: DRIVES, colour: COLOURS, region: REGION_IDS } as const;
  for (const [field, values] of Object.entries(codes)) if (!nullable(r[field as keyof typeof codes], among(values))) fail(`${field} must be one of the vocabulary's codes or null`);
  return r as VehicleRecord;
}

const asCandidate = (record: VehicleRecord): VehicleCandidate => ({ record, corrections: [], locality: '' });

/**
 * Reads a cars export: its records (renumbered by line, file order), checked and cleaned; a
 * malformed line throws with its line number. `listings` are the listing files' cleaned records,
 * whose models' engine sizes judge the collected ones (none: absolute bounds only).
 */
export function readCollectedCars(file: string, listings: readonly VehicleRecord[] = []): CollectedCars {
  const bytes = readFileSync(file);
  const lines = bytes.toString('utf8').split('\n').filter((line) => line.trim() !== '');
  const dropped: Partial<Record<VehicleDropReason, number>> = {};
  const drop = (reason: VehicleDropReason, n = 1) => {
    if (n > 0) dropped[reason] = (dropped[reason] ?? 0) + n;
  };
  const candidates: VehicleCandidate[] = [];
  lines.forEach((line, i) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`${file} line ${i + 1}: not JSON`);
    }
    const cleaned = cleanVehicle(asCandidate({ ...checkedRecord(parsed, `${file} line ${i + 1}`), sourceRow: i + 1 }));
    if (isDropped(cleaned)) return drop(cleaned.drop);
    candidates.push(cleaned);
  });
  checkEngineSizes(candidates, engineMedians(listings.map(asCandidate)));
  const fenced = applyVehiclePriceFences(candidates);
  drop('price_outlier', fenced.dropped.length);
  const records = [...fenced.kept].sort((a, b) => a.record.sourceRow - b.record.sourceRow).map((c) => c.record);
  const { byPeriod, first, last } = countByPeriod(records);
  return {
    records,
    report: {
      file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      lines: lines.length,
      kept: records.length,
      dropped,
      periods: first && last ? { from: first, to: last } : null,
      byPeriod,
    },
  };
}

/** One line for the training log. */
export function describeCollectedCars(report: CollectedCarsReport): string {
  const dropped = Object.entries(report.dropped).map(([reason, n]) => `${reason} ${n}`);
  return `collected ${report.file}: ${report.kept} of ${report.lines} cars kept (avtoelon_collected), last seen ${report.periods?.from ?? '-'} to ${report.periods?.to ?? '-'}; dropped ${dropped.length ? dropped.join(', ') : 'none'}`;
}
