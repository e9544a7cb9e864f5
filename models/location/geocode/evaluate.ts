/**
 * Held-out accuracy: 20% of the geocoded addresses (chosen by a seeded hash of the normalised
 * address, so every listing of a held-out address is held out and none of them is in the
 * gazetteer) are geocoded with a gazetteer built on the other 80%, and compared with the points
 * the source geocoder gave them. Listings whose point is not trusted (./geocoded-listings.ts) have
 * no truth and are skipped.
 * Each held-out address is geocoded twice: as written ("город Ташкент, Yunusobod район, Юнусабад
 * 8-й квартал"), and as its place text alone ("Юнусабад 8-й квартал"), where the district must be
 * worked out from the place.
 */
import { createHash } from 'node:crypto';
import type { DistrictId } from '../../vocabulary';
import { buildGazetteer } from './build-gazetteer';
import { coNamedPoints, loadCoNamedAddresses } from './co-named';
import { loadDistrictBoundaries } from '../districts';
import { UnresolvableAddressError, type UnresolvableReason } from './errors';
import { gazetteerSources } from './gazetteer-file';
import { distanceM, median, robustCentre, type LatLon } from './geo';
import { loadGeocodedListings, type GeocodedListing } from './geocoded-listings';
import { createGeocoder, type Geocoder } from './geocoder';
import { OUTLIER_DISTANCE_M } from './outliers';
import { PRECISIONS, type GazetteerFile, type Precision } from './types';

const HOLD_OUT_SHARE = 0.2;
export const DEFAULT_SEED = 'geocode-2026';
/** "Within 500 m": about a quarter's size, the distance a location score can still tell apart. */
const CLOSE_M = 500;

/** Deterministic and independent of row order: a hash of the seed and the address, read as a number in [0, 1). */
function isHeldOut(seed: string, addressKey: string, share: number): boolean {
  return createHash('sha256').update(`${seed}\n${addressKey}`).digest().readUInt32BE(0) / 2 ** 32 < share;
}

function splitByAddress(listings: readonly GeocodedListing[], seed: string, share = HOLD_OUT_SHARE) {
  const train: GeocodedListing[] = [];
  const test: GeocodedListing[] = [];
  for (const listing of listings) (isHeldOut(seed, listing.addressKey, share) ? test : train).push(listing);
  return { train, test };
}

/** The address without "город Ташкент, <district> район, ": what a client who omits the district sends. */
export const placeTextOf = (address: string): string => address.split(',').slice(2).join(',').trim();

export interface AccuracyRow {
  precision: Precision | 'all';
  listings: number;
  medianErrorM: number;
  within500m: number; // share, 0–1
}

/** Answers whose confidence lies in [from, from + 0.1), and how many of them land within 500 m. */
export interface ConfidenceBand {
  from: number;
  listings: number;
  within500m: number;
}

export interface VariantReport {
  listings: number; // held-out listings with a trusted point (and, for place text, some place text)
  resolvedShare: number;
  /** Of the resolved, the share whose district is the listing's. */
  rightDistrictShare: number;
  unresolved: Partial<Record<UnresolvableReason, number>>;
  accuracy: AccuracyRow[];
  calibration: ConfidenceBand[];
}

/** Mahallas placed both ways: how far the co-named centre lies from the geocoded listings' one. */
export interface MahallaAgreement {
  mahallas: number;
  medianDistanceM: number;
  within500m: number;
}

/** The uybor addresses (the format clients send; no coordinates, so no error): how precisely each is placed, or why not. */
export type UyborCoverage = { addresses: number } & Partial<Record<Precision | UnresolvableReason, number>>;

export interface EvaluationReport {
  seed: string;
  heldOutAddresses: number;
  fullAddress: VariantReport;
  placeTextOnly: VariantReport;
  coNamedMahallas: MahallaAgreement;
  uyborCoverage: UyborCoverage;
}

function row(precision: AccuracyRow['precision'], errors: readonly number[]): AccuracyRow {
  return {
    precision,
    listings: errors.length,
    medianErrorM: errors.length === 0 ? NaN : Math.round(median(errors)),
    within500m: errors.length === 0 ? NaN : errors.filter((e) => e <= CLOSE_M).length / errors.length,
  };
}

function evaluateVariant(geocoder: Geocoder, cases: readonly { address: string; district: DistrictId; point: LatLon }[]): VariantReport {
  const errors = new Map<Precision, number[]>(PRECISIONS.map((p) => [p, []]));
  const bands = new Map<number, number[]>();
  const unresolved: VariantReport['unresolved'] = {};
  let rightDistrict = 0;
  for (const { address, district, point } of cases) {
    try {
      const result = geocoder.geocode(address);
      const error = distanceM(result, point);
      errors.get(result.precision)!.push(error);
      const band = Math.min(9, Math.floor(result.confidence * 10));
      const bandErrors = bands.get(band);
      if (bandErrors === undefined) bands.set(band, [error]);
      else bandErrors.push(error);
      if (result.matched.district === district) rightDistrict++;
    } catch (error) {
      if (!(error instanceof UnresolvableAddressError)) throw error;
      unresolved[error.reason] = (unresolved[error.reason] ?? 0) + 1;
    }
  }
  const all = [...errors.values()].flat();
  return {
    listings: cases.length,
    resolvedShare: all.length / cases.length,
    rightDistrictShare: rightDistrict / all.length,
    unresolved,
    accuracy: [...PRECISIONS.map((p) => row(p, errors.get(p)!)), row('all', all)],
    calibration: [...bands].sort(([a], [b]) => a - b)
      .map(([band, bandErrors]) => ({ from: band / 10, listings: bandErrors.length, within500m: row('all', bandErrors).within500m })),
  };
}

function mahallaAgreement(gazetteer: GazetteerFile, coNamedAddresses: readonly string[]): MahallaAgreement {
  const coNamed = coNamedPoints(coNamedAddresses, gazetteer.places);
  const distances = gazetteer.mahallas.flatMap((m) => {
    const centre = m.source === 'geocoded' ? robustCentre(coNamed.get(m.id) ?? [], OUTLIER_DISTANCE_M.mahalla) : null;
    return centre === null ? [] : [distanceM(centre, { lat: m.lat!, lon: m.lon! })];
  });
  const { medianErrorM, within500m } = row('all', distances);
  return { mahallas: distances.length, medianDistanceM: medianErrorM, within500m };
}

function uyborCoverage(geocoder: Geocoder, addresses: readonly string[]): UyborCoverage {
  const coverage: UyborCoverage = { addresses: addresses.length };
  for (const address of addresses) {
    let outcome: Precision | UnresolvableReason;
    try {
      outcome = geocoder.geocode(address).precision;
    } catch (error) {
      if (!(error instanceof UnresolvableAddressError)) throw error;
      outcome = error.reason;
    }
    coverage[outcome] = (coverage[outcome] ?? 0) + 1;
  }
  return coverage;
}

export function evaluateHoldOut(seed = DEFAULT_SEED): EvaluationReport {
  const polygons = loadDistrictBoundaries();
  const geocoded = loadGeocodedListings(polygons);
  const coNamed = loadCoNamedAddresses();
  const { train, test } = splitByAddress(geocoded.listings, seed);
  const gazetteer = buildGazetteer({ listings: train, coNamedAddresses: coNamed.addresses, polygons, sources: gazetteerSources(geocoded, coNamed) });
  const geocoder = createGeocoder(gazetteer, polygons);
  const scored = test.flatMap(({ address, district, point }) => (point === null ? [] : [{ address, district, point }]));
  return {
    seed,
    heldOutAddresses: new Set(test.map((l) => l.addressKey)).size,
    fullAddress: evaluateVariant(geocoder, scored),
    placeTextOnly: evaluateVariant(geocoder, scored.map((c) => ({ ...c, address: placeTextOf(c.address) })).filter((c) => c.address !== '')),
    coNamedMahallas: mahallaAgreement(gazetteer, coNamed.addresses),
    uyborCoverage: uyborCoverage(geocoder, coNamed.addresses),
  };
}
