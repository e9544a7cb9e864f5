/**
 * An organisation's exported vehicle observations (`npm run train -- --with-observations FILE`, the
 * NDJSON of GET /api/observations?kind=vehicle, read and checked by models/ingest/observation-export.ts)
 * as vehicle records of a dated source of their own, `observations`: each line's period is the
 * month it was observed, its row the file's line. Lines of another kind are another trainer's and
 * are only counted.
 *
 * A line's `input` is the vehicle as the service understood it (ValuedVehicle: catalogue names and
 * codes), so nothing is re-read from free text: a line whose make or model is not the catalogue's
 * (a model the service valued on the make's level has none) or whose input is not such a vehicle at
 * all is dropped with its reason; an optional code the vocabulary does not hold is set to unknown and
 * counted. The mileage is `mileageKm` beside the vehicle's fields (the service stores it with them);
 * a line without it (exported before it was stored) trains with the mileage unknown, as the 2023
 * listing file does.
 *
 * Then the listings' cleaning: the row checks of ./clean.ts (model year against the month observed,
 * price bounds, placeholder mileage, engine of an electric car), engine sizes judged against the
 * listings' medians of the model (./engine.ts; the observations do not move the listings' medians),
 * a repeated observation id dropped, and price fences (./outliers.ts) drawn among the observations
 * themselves, per model around its model year, as each listing file is fenced among its own rows:
 * no listing row, and so no forward test row, draws a fence for an observation or is fenced by one.
 * Every price type is taken (a sale, an appraisal, a listing); the report counts them.
 * Every vehicle line is either kept or counted under exactly one drop reason.
 */
import { observedPeriod, type ExportedObservation, type ObservationExport, type ObservedPriceType } from '../../ingest/observation-export';
import { SourceLedger } from '../../ingest/report';
import { VEHICLE_FIELDS } from '../../../schema/vehicle-contract';
import type { ValuedVehicle } from '../../../schema/vehicle-rest';
import { BODY_TYPES, COLOURS, DRIVES, FUELS, isResolved, REGION_IDS, resolveMake, resolveModel, TRANSMISSIONS } from '../vocabulary';
import { isDropped, type VehicleCandidate } from './candidate';
import { cleanVehicle } from './clean';
import { checkEngineSizes, engineMedians } from './engine';
import { applyVehiclePriceFences } from './outliers';
import { VEHICLE_DROP_REASONS, type VehicleCorrection, type VehicleDropReason } from './reasons';
import type { VehicleRecord } from './record';
import { countByPeriod } from '../../ingest/period-counts';

export const OBSERVATION_SOURCE = 'observations' as const;

/** Why a vehicle line of an export was dropped: the listings' reasons, as they read for an observation, and one of its own. */
export const OBSERVATION_DROP_REASONS = {
  ...VEHICLE_DROP_REASONS,
  invalid_input: 'input is not a vehicle as the service writes it: make, model or year missing or of the wrong type',
  unknown_model: 'make or model not the catalogue’s: an observation valued on the make’s level names no model the catalogue holds',
  year_out_of_range: 'model year before 1930 or after the year following the month observed',
  duplicate_in_file: 'an observation id earlier in the file',
} as const satisfies Record<VehicleDropReason | 'invalid_input', string>;
export type ObservationDropReason = keyof typeof OBSERVATION_DROP_REASONS;

/** What was changed in a kept line: the listings' corrections, and an optional code the vocabulary does not hold set to unknown. */
export type ObservationCorrection = VehicleCorrection | 'code_cleared';

export interface VehicleObservationReport {
  /** The export's file name and SHA-256 (models/ingest/observation-export.ts). */
  file: string;
  sha256: string;
  /** Vehicle lines of the file: each kept or dropped under one reason. */
  lines: number;
  /** Lines of another kind (homes): not this trainer's, not read. */
  otherKinds: number;
  kept: number;
  dropped: Partial<Record<ObservationDropReason, number>>;
  /** In the lines kept. */
  corrections: Partial<Record<ObservationCorrection, number>>;
  /** Vehicle lines and lines kept by price type: every type is trained on. */
  byPriceType: Record<ObservedPriceType, { lines: number; kept: number }>;
  /** The months observed of the lines kept ('YYYY-MM'), null when none was kept; and the lines kept per month. */
  periods: { first: string; last: string } | null;
  byPeriod: Record<string, number>;
  /** Price fences drawn among the observations, and observations in no group large enough for one (kept). */
  priceFences: number;
  unfenced: number;
}

export interface VehicleObservationIngest {
  records: VehicleRecord[];
  report: VehicleObservationReport;
}

const TRIM = VEHICLE_FIELDS.find((f) => f.graphql === 'trim')!;

/** A field of a line's input: the service's ValuedVehicle, and the odometer where an export carries it. */
type InputField = keyof ValuedVehicle | 'mileageKm';

/** A code of `codes`, null when absent; a code not among them is null and named in `cleared`. */
function codeOf<T extends string>(input: Record<string, unknown>, key: InputField, codes: readonly T[], cleared: string[]): T | null {
  const value = input[key];
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && (codes as readonly string[]).includes(value)) return value as T;
  cleared.push(key);
  return null;
}

/** A number meeting `ok`, null when absent; anything else is null and named in `cleared`. */
function numberOf(input: Record<string, unknown>, key: InputField, ok: (x: number) => boolean, cleared: string[]): number | null {
  const value = input[key];
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value) && ok(value)) return value;
  cleared.push(key);
  return null;
}

/** One exported vehicle observation → its record, or why it cannot be one. `cleared` receives the optional fields set to unknown. */
export function observationRecord(observation: ExportedObservation, cleared: string[] = []): VehicleRecord | { drop: ObservationDropReason } {
  const input = observation.input;
  const { make, model, year } = input;
  if (typeof make !== 'string' || (typeof model !== 'string' && model !== null) || typeof year !== 'number' || !Number.isInteger(year)) return { drop: 'invalid_input' };
  // Canonical names only: the service wrote the catalogue's; anything else is not this catalogue's car.
  const canonicalMake = resolveMake(make);
  if (!isResolved(canonicalMake) || canonicalMake !== make || model === null) return { drop: 'unknown_model' };
  const canonicalModel = resolveModel(make, model);
  if (!isResolved(canonicalModel) || canonicalModel !== model) return { drop: 'unknown_model' };
  const condition = codeOf(input, 'condition', ['good', 'needs_repair'] as const, cleared);
  return {
    source: OBSERVATION_SOURCE,
    sourceRow: observation.line,
    period: observedPeriod(observation),
    make,
    model,
    year,
    mileageKm: numberOf(input, 'mileageKm', (km) => km >= 0, cleared),
    engineLitres: numberOf(input, 'engine', (litres) => litres >= 0, cleared),
    fuel: codeOf(input, 'fuel', FUELS, cleared),
    transmission: codeOf(input, 'transmission', TRANSMISSIONS, cleared),
    body: codeOf(input, 'bodyType', BODY_TYPES, cleared),
    drive: codeOf(input, 'drive', DRIVES, cleared),
    colour: codeOf(input, 'colour', COLOURS, cleared),
    trim: numberOf(input, 'trim', (t) => Number.isInteger(t) && t >= TRIM.min! && t <= TRIM.max!, cleared),
    defects: condition === null ? null : condition === 'needs_repair',
    region: codeOf(input, 'region', REGION_IDS, cleared),
    priceUsd: observation.priceUsd,
  };
}

const asCandidate = (record: VehicleRecord): VehicleCandidate => ({ record, corrections: [], locality: '' });

/**
 * The vehicle lines of an export as cleaned records (file order) with the report. `listings` are the
 * cleaned listing records whose models' engine sizes judge the observations' (none: absolute bounds only).
 */
export function ingestVehicleObservations(exported: ObservationExport, listings: readonly VehicleRecord[] = []): VehicleObservationIngest {
  const vehicles = exported.observations.filter((o) => o.kind === 'vehicle');
  const ledger = new SourceLedger<ObservationDropReason, ObservationCorrection>();
  const seen = new Set<string>();
  const clearedByLine = new Map<number, string[]>();
  const candidates: VehicleCandidate[] = [];
  for (const observation of vehicles) {
    if (seen.has(observation.id)) {
      ledger.drop('duplicate_in_file');
      continue;
    }
    seen.add(observation.id);
    const cleared: string[] = [];
    const record = observationRecord(observation, cleared);
    if ('drop' in record) {
      ledger.drop(record.drop);
      continue;
    }
    const cleaned = cleanVehicle(asCandidate(record));
    if (isDropped(cleaned)) {
      ledger.drop(cleaned.drop);
      continue;
    }
    clearedByLine.set(observation.line, cleared);
    candidates.push(cleaned);
  }
  checkEngineSizes(candidates, engineMedians(listings.map(asCandidate)));
  const fenced = applyVehiclePriceFences(candidates);
  ledger.drop('price_outlier', fenced.dropped.length);
  const kept = [...fenced.kept].sort((a, b) => a.record.sourceRow - b.record.sourceRow);
  for (const candidate of kept) {
    for (const correction of candidate.corrections) ledger.correct(correction);
    for (let k = clearedByLine.get(candidate.record.sourceRow)!.length; k > 0; k--) ledger.correct('code_cleared');
  }
  const records = kept.map((c) => c.record);

  const keptLines = new Set(records.map((r) => r.sourceRow));
  const byPriceType: VehicleObservationReport['byPriceType'] = { sale: { lines: 0, kept: 0 }, appraisal: { lines: 0, kept: 0 }, listing: { lines: 0, kept: 0 } };
  for (const o of vehicles) {
    byPriceType[o.priceType].lines++;
    if (keptLines.has(o.line)) byPriceType[o.priceType].kept++;
  }
  const { byPeriod, first, last } = countByPeriod(records);
  return {
    records,
    report: {
      file: exported.file,
      sha256: exported.sha256,
      lines: vehicles.length,
      otherKinds: exported.observations.length - vehicles.length,
      kept: records.length,
      dropped: ledger.dropped,
      corrections: ledger.corrections,
      byPriceType,
      periods: first && last ? { first, last } : null,
      byPeriod,
      priceFences: fenced.fences.length,
      unfenced: fenced.unfenced,
    },
  };
}
