/**
 * An organisation's exported home observations (./observation-export.ts) as listing records of their
 * own source, `observations`, dated by the month each price was observed: the flat and house
 * trainers take them beside the listing files (`npm run train -- --with-observations FILE`).
 *
 * Each line's `input` is the request as the service normalised it (canonical codes), so nothing is
 * re-read from free text; a record then gets the listing files' row checks (cleanRecord). No price
 * fence: the prices are the bank's own, entered one by one, not a scrape's typos.
 */
import { matchDistrict, type PropertyType } from '../vocabulary';
import { cleanRecord } from './clean';
import { observedPeriod, type ExportedObservation, type ObservationExport, type ObservedPriceType } from './observation-export';
import type { DropReason } from './reasons';
import type { ListingRecord } from './record';

/** What became of a file's home lines: the manifest's record of the source. */
export interface ObservationSourceReport {
  file: string;
  sha256: string;
  /** Lines of kind home. */
  lines: number;
  kept: number;
  dropped: Partial<Record<DropReason | 'not_a_home_request', number>>;
  byPriceType: Partial<Record<ObservedPriceType, number>>;
  /** 'YYYY-MM' of the oldest and newest kept. */
  periods: { from: string; to: string } | null;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = <T extends string>(value: unknown): T | null => (typeof value === 'string' && value !== '' ? (value as T) : null);
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** The canonical request of one line as a listing record, or null when it is not one (edited by hand, or another kind). */
function toRecord(observation: ExportedObservation): ListingRecord | null {
  const input = observation.input;
  // The export names the district (the service's display name): the vocabulary's exact match.
  const match = typeof input.district === 'string' ? matchDistrict(input.district) : null;
  const district = match?.via === 'exact' ? match.id : undefined;
  const area = num(input.area);
  if (district === undefined || area === null) return null;
  const propertyType: PropertyType = input.propertyType === 'house' ? 'house' : 'apartment';
  return {
    source: 'observations',
    sourceRow: observation.line,
    period: observedPeriod(observation),
    propertyType,
    priceUsd: observation.priceUsd,
    district,
    mahallaId: text(input.mahallaId),
    area,
    rooms: num(input.rooms),
    floor: propertyType === 'house' ? null : num(input.floor),
    totalFloors: num(input.totalFloors),
    landAreaSotka: propertyType === 'house' ? num(input.landAreaSotka) : null,
    renovation: text(input.renovation),
    buildingType: text(input.buildingType),
    furniture: bool(input.furniture),
    bathroom: text(input.bathroom),
    market: text(input.market),
    seller: text(input.seller),
    amenities: null,
    lat: num(input.lat),
    lon: num(input.lon),
  };
}

/** The file's home observations as records (flats and houses), with what became of every home line. */
export function observationListings(exported: ObservationExport): { records: ListingRecord[]; report: ObservationSourceReport } {
  const records: ListingRecord[] = [];
  const report: ObservationSourceReport = { file: exported.file, sha256: exported.sha256, lines: 0, kept: 0, dropped: {}, byPriceType: {}, periods: null };
  const drop = (reason: DropReason | 'not_a_home_request') => {
    report.dropped[reason] = (report.dropped[reason] ?? 0) + 1;
  };
  for (const observation of exported.observations) {
    if (observation.kind !== 'home') continue;
    report.lines++;
    const record = toRecord(observation);
    if (!record) {
      drop('not_a_home_request');
      continue;
    }
    const cleaned = cleanRecord(record);
    if ('drop' in cleaned) {
      drop(cleaned.drop);
      continue;
    }
    records.push(cleaned.record);
    report.byPriceType[observation.priceType] = (report.byPriceType[observation.priceType] ?? 0) + 1;
  }
  report.kept = records.length;
  if (records.length > 0) {
    const periods = records.map((r) => r.period).sort();
    report.periods = { from: periods[0], to: periods[periods.length - 1] };
  }
  return { records, report };
}
