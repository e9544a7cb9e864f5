/**
 * The ONE feature module of the residential models: training and serving both call
 * `encodeFeatures`, so a model never sees features built differently from how it was trained.
 *
 * Location enters as smoothed target encodings of log price per m²: mahalla shrunk towards its
 * district, district shrunk towards the city (m-estimate), so a mahalla with three listings
 * barely moves the estimate and an unseen one falls back to its district. During training the
 * encodings of each row come from the other folds (out-of-fold), so they leak no target.
 *
 * Place beyond the encodings: the flat's point (its coordinates, else its mahalla's centre) as
 * latitude and longitude, so the trees can draw price across mahalla and district borders.
 *
 * Time is not a feature: targets reach the members levelled to the newest data by the market index
 * (./market-index.ts), and the index, not a tree, carries a valuation to its date.
 */
import {
  BATHROOMS, BUILDING_TYPES, DISTRICT_IDS,
  type Bathroom, type BuildingType, type DistrictId, type Market, type Renovation, type SellerType,
} from '../vocabulary/codes';
import { accumulate, shrunkMeans } from '../ensemble/encoding';

/** What a feature row is made from: a cleaned listing or a client's request. Missing = null. */
export interface FeatureSource {
  district: DistrictId;
  mahallaId: string | null;
  area: number;
  rooms: number | null;
  floor: number | null;
  totalFloors: number | null;
  renovation: Renovation | null;
  buildingType: BuildingType | null;
  furniture: boolean | null;
  bathroom: Bathroom | null;
  market: Market | null;
  seller: SellerType | null;
  /**
   * The flat's point (WGS84) where it is known: a listing's coordinates or the client's. Without
   * one, the features take the mahalla's centre (FeatureEncoding.mahallaCentres), else none.
   */
  lat: number | null;
  lon: number | null;
  /** 'YYYY-MM': when the price was asked (training) or the valuation date (serving); the market index reads it, the members do not. */
  period: string;
}

/** Learned encoding tables: stored in the model manifest and used unchanged at serving time. */
export interface FeatureEncoding {
  cityMean: number;
  district: Record<string, { mean: number; n: number }>;
  mahalla: Record<string, { mean: number; n: number }>;
  /** Pseudo-count of the m-estimate. */
  smoothing: number;
  newestPeriod: string;
  /** Centre [lat, lon] of each mahalla the gazetteer places: a request naming its mahalla gets this point. */
  mahallaCentres: Record<string, [number, number]>;
}

/** Order of the columns of the feature matrix: part of the ONNX contract (input 'features'). */
export const FEATURE_NAMES = [
  'district_prior', 'mahalla_prior', 'mahalla_log_count', 'district_code',
  'log_area', 'rooms', 'area_per_room', 'floor', 'total_floors', 'floor_ratio', 'is_first_floor', 'is_last_floor',
  'renovation', 'building_type', 'furniture', 'bathroom', 'is_new_build', 'is_owner', 'lat', 'lon',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;

/** Human names of feature groups, for importance reports (grouped as the reference service reports them). */
export const FEATURE_GROUPS: Record<string, readonly (typeof FEATURE_NAMES)[number][]> = {
  mahalla: ['mahalla_prior', 'mahalla_log_count'],
  district: ['district_prior', 'district_code'],
  'total area': ['log_area', 'area_per_room'],
  rooms: ['rooms'],
  floor: ['floor', 'floor_ratio', 'is_first_floor', 'is_last_floor'],
  'building floors': ['total_floors'],
  renovation: ['renovation'],
  'building type': ['building_type'],
  furniture: ['furniture'],
  bathroom: ['bathroom'],
  'new or resale': ['is_new_build'],
  'owner type': ['is_owner'],
  'point (coordinates or mahalla centre)': ['lat', 'lon'],
};

/** Renovation ordered by how much it usually adds; trees split on the order. */
export const RENOVATION_ORDER: Record<Renovation, number> = { rough: 0, pre_finish: 1, needs_repair: 2, average: 3, good: 4, euro: 5, designer: 6 };

/** Fits the location encodings on rows with known log price per m²; `mahallaCentres` is kept as given. */
export function fitEncoding(rows: readonly FeatureSource[], logPricePerM2: ArrayLike<number>, smoothing = 10, mahallaCentres: Record<string, [number, number]> = {}): FeatureEncoding {
  let total = 0;
  const districtSums = new Map<string, { sum: number; n: number }>();
  const mahallaSums = new Map<string, { sum: number; n: number }>();
  let newestPeriod = '0000-00';
  rows.forEach((row, i) => {
    const y = logPricePerM2[i];
    total += y;
    accumulate(districtSums, row.district, y);
    if (row.mahallaId) accumulate(mahallaSums, row.mahallaId, y);
    if (row.period > newestPeriod) newestPeriod = row.period;
  });
  const cityMean = total / rows.length;
  const district = shrunkMeans(districtSums, smoothing, () => cityMean);
  const mahalla = shrunkMeans(mahallaSums, smoothing, (id) => district[id.split('/')[0]]?.mean ?? cityMean);
  return { cityMean, district, mahalla, smoothing, newestPeriod, mahallaCentres };
}

/** Encodes rows into a row-major float matrix (NaN = missing), the models' input. */
export function encodeFeatures<T extends Float32Array | Float64Array>(rows: readonly FeatureSource[], encoding: FeatureEncoding, out: T): T {
  const width = FEATURE_COUNT;
  if (out.length < rows.length * width) throw new Error('feature buffer too small');
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const o = i * width;
    const district = encoding.district[r.district];
    const districtPrior = district?.mean ?? encoding.cityMean;
    const mahalla = r.mahallaId ? encoding.mahalla[r.mahallaId] : undefined;
    out[o] = districtPrior;
    out[o + 1] = mahalla?.mean ?? districtPrior;
    out[o + 2] = Math.log1p(mahalla?.n ?? 0);
    out[o + 3] = DISTRICT_IDS.indexOf(r.district);
    out[o + 4] = Math.log(r.area);
    out[o + 5] = r.rooms ?? NaN;
    out[o + 6] = r.rooms ? r.area / r.rooms : NaN;
    out[o + 7] = r.floor ?? NaN;
    out[o + 8] = r.totalFloors ?? NaN;
    const known = r.floor !== null && r.totalFloors !== null && r.totalFloors > 0;
    out[o + 9] = known ? r.floor! / r.totalFloors! : NaN;
    out[o + 10] = r.floor === null ? NaN : r.floor === 1 ? 1 : 0;
    out[o + 11] = known ? (r.floor === r.totalFloors && r.totalFloors! > 1 ? 1 : 0) : NaN;
    out[o + 12] = r.renovation === null ? NaN : RENOVATION_ORDER[r.renovation];
    out[o + 13] = r.buildingType === null ? NaN : BUILDING_TYPES.indexOf(r.buildingType);
    out[o + 14] = r.furniture === null ? NaN : r.furniture ? 1 : 0;
    out[o + 15] = r.bathroom === null ? NaN : BATHROOMS.indexOf(r.bathroom);
    out[o + 16] = r.market === null ? NaN : r.market === 'new' ? 1 : 0;
    out[o + 17] = r.seller === null ? NaN : r.seller === 'owner' ? 1 : 0;
    const point = r.lat !== null && r.lon !== null ? [r.lat, r.lon] : r.mahallaId ? encoding.mahallaCentres[r.mahallaId] : undefined;
    out[o + 18] = point?.[0] ?? NaN;
    out[o + 19] = point?.[1] ?? NaN;
  }
  return out;
}
