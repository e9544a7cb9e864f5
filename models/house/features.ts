/**
 * The ONE feature module of the house models: training and serving both call `encodeHouseFeatures`.
 *
 * Houses are few (a few hundred listings, a dozen or two in some districts), so location is pooled
 * hard: the district's house price per m² is shrunk toward the city's with a large pseudo-count,
 * and beside it stands the district's flat price level (thousands of listings), which carries
 * where land is dear. Land and building enter apart: the floor area, the plot, and the plot per m²
 * of floor, so the members can price a big plot under a small house differently from the reverse.
 *
 * Time is not a feature: targets are levelled by the flats' market index (models/residential/market-index.ts).
 */
import { BUILDING_TYPES, DISTRICT_IDS, type BuildingType, type DistrictId, type Renovation } from '../vocabulary/codes';
import { accumulate, shrunkMeans } from '../ensemble/encoding';
import { RENOVATION_ORDER } from '../residential/features';

/** What a house feature row is made from: a cleaned listing or a client's request. Missing = null. */
export interface HouseFeatureSource {
  district: DistrictId;
  /** Floor area, m². */
  area: number;
  /** The plot, sotka (100 m²). */
  landAreaSotka: number | null;
  rooms: number | null;
  /** Storeys. */
  totalFloors: number | null;
  renovation: Renovation | null;
  buildingType: BuildingType | null;
  gas: boolean | null;
  water: boolean | null;
  sewerage: boolean | null;
  /** 'YYYY-MM': when the price was asked (training) or the valuation date (serving); the index reads it, the members do not. */
  period: string;
}

/** Learned tables, stored in the manifest and used unchanged at serving time. */
export interface HouseEncoding {
  cityMean: number;
  /** Each district's house log price per m², shrunk toward the city (m-estimate). */
  district: Record<string, { mean: number; n: number }>;
  smoothing: number;
  /** Each district's median log price per m² of flats (the flat training listings of the same fit). */
  flatDistrictLevel: Record<string, number>;
}

/** Order of the columns of the feature matrix: part of the ONNX contract (input 'features'). */
export const HOUSE_FEATURE_NAMES = [
  'district_prior', 'flat_district_level', 'district_code',
  'log_area', 'log_land', 'log_land_per_floor_area', 'rooms', 'area_per_room', 'storeys',
  'renovation', 'building_type', 'gas', 'water', 'sewerage',
] as const;
export const HOUSE_FEATURE_COUNT = HOUSE_FEATURE_NAMES.length;

export const HOUSE_FEATURE_GROUPS: Record<string, readonly (typeof HOUSE_FEATURE_NAMES)[number][]> = {
  district: ['district_prior', 'flat_district_level', 'district_code'],
  'floor area': ['log_area', 'area_per_room'],
  plot: ['log_land', 'log_land_per_floor_area'],
  rooms: ['rooms'],
  storeys: ['storeys'],
  renovation: ['renovation'],
  'building type': ['building_type'],
  'gas, water, sewerage': ['gas', 'water', 'sewerage'],
};

/**
 * A strong pull toward the city level: a district's own houses outweigh it only past ~30 listings.
 * Set a priori from the counts (a dozen to ~140 houses per district), not tuned.
 */
export const HOUSE_DISTRICT_SMOOTHING = 30;

export function fitHouseEncoding(rows: readonly HouseFeatureSource[], logPricePerM2: ArrayLike<number>, flatDistrictLevel: Record<string, number>): HouseEncoding {
  let total = 0;
  const sums = new Map<string, { sum: number; n: number }>();
  rows.forEach((row, i) => {
    total += logPricePerM2[i];
    accumulate(sums, row.district, logPricePerM2[i]);
  });
  const cityMean = total / rows.length;
  const smoothing = HOUSE_DISTRICT_SMOOTHING;
  return { cityMean, district: shrunkMeans(sums, smoothing, () => cityMean), smoothing, flatDistrictLevel };
}

const flag = (v: boolean | null) => (v === null ? NaN : v ? 1 : 0);

/** Encodes rows into a row-major float matrix (NaN = missing), the models' input. */
export function encodeHouseFeatures<T extends Float32Array | Float64Array>(rows: readonly HouseFeatureSource[], encoding: HouseEncoding, out: T): T {
  const width = HOUSE_FEATURE_COUNT;
  if (out.length < rows.length * width) throw new Error('feature buffer too small');
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const o = i * width;
    out[o] = encoding.district[r.district]?.mean ?? encoding.cityMean;
    out[o + 1] = encoding.flatDistrictLevel[r.district] ?? NaN;
    out[o + 2] = DISTRICT_IDS.indexOf(r.district);
    out[o + 3] = Math.log(r.area);
    out[o + 4] = r.landAreaSotka === null ? NaN : Math.log(r.landAreaSotka);
    out[o + 5] = r.landAreaSotka === null ? NaN : Math.log((r.landAreaSotka * 100) / r.area);
    out[o + 6] = r.rooms ?? NaN;
    out[o + 7] = r.rooms ? r.area / r.rooms : NaN;
    out[o + 8] = r.totalFloors ?? NaN;
    out[o + 9] = r.renovation === null ? NaN : RENOVATION_ORDER[r.renovation];
    out[o + 10] = r.buildingType === null ? NaN : BUILDING_TYPES.indexOf(r.buildingType);
    out[o + 11] = flag(r.gas);
    out[o + 12] = flag(r.water);
    out[o + 13] = flag(r.sewerage);
  }
  return out;
}
