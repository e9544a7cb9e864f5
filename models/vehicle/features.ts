/**
 * The ONE feature module of the vehicle models: training and serving both call `encodeVehicles`,
 * so a model never sees features built differently from how it was trained.
 *
 * Make and model enter as smoothed target encodings of log price: a model is shrunk towards its
 * make and a make towards the whole market (m-estimate), so a model with three listings barely
 * moves the estimate and an unseen one falls back to its make. Daewoo, Ravon and Chevrolet build
 * the same cars in Asaka, so a make's prior is its badge family's.
 */
import { accumulate, periodIndex, shrunkMeans } from '../ensemble/encoding';
import { BODY_TYPES, DRIVES, FUELS, REGION_IDS, TRANSMISSIONS, badgeFamily } from './vocabulary';
import type { VehicleRequest } from './valuation';

/** What a feature row is made from: a cleaned listing or a client's request. Missing = null. */
export interface VehicleFeatureSource extends Omit<VehicleRequest, 'askingPrice' | 'valuationDate' | 'paint' | 'colour'> {
  /** 'YYYY-MM': when the price was asked. Serving uses the newest period seen in training. */
  period: string;
}

/** Learned encoding tables: stored in the model manifest and used unchanged at serving time. */
export interface VehicleEncoding {
  marketMean: number;
  /** By badge family (Chevrolet also stands for Daewoo and Ravon). */
  make: Record<string, { mean: number; n: number }>;
  /** By `make model` (the badge family's make). */
  model: Record<string, { mean: number; n: number }>;
  smoothing: number;
  newestPeriod: string;
}

/** Order of the columns of the feature matrix: part of the ONNX contract (input 'features'). */
export const VEHICLE_FEATURE_NAMES = [
  'make_prior', 'model_prior', 'model_log_count', 'year', 'age_at_listing', 'log_mileage', 'engine_litres', 'fuel', 'transmission', 'body', 'drive', 'trim', 'defects', 'region', 'is_tashkent_city', 'period_index',
] as const;
export const VEHICLE_FEATURE_COUNT = VEHICLE_FEATURE_NAMES.length;

/**
 * Sane ageing, as constraints on the tree members: all else equal, a newer model year (younger at
 * listing) never lowers the price and more kilometres never raise it. The data's one exception, a
 * brand-new car listed at the dealer's controlled price below a one-year-old one (2023 Chevrolets,
 * see the model card), is a queue premium of that market, not something to value collateral by.
 * (Mileage per year of age is no feature: it rises with the model year at a fixed mileage, which
 * would fight the year's constraint.)
 */
const MONOTONE: Partial<Record<(typeof VEHICLE_FEATURE_NAMES)[number], 1 | -1>> = { year: 1, age_at_listing: -1, log_mileage: -1 };
export const VEHICLE_MONOTONIC_CONSTRAINTS: readonly number[] = VEHICLE_FEATURE_NAMES.map((name) => MONOTONE[name] ?? 0);

/** Feature groups as the importance report names them. */
export const VEHICLE_FEATURE_GROUPS: Record<string, readonly (typeof VEHICLE_FEATURE_NAMES)[number][]> = {
  'make and model': ['make_prior', 'model_prior', 'model_log_count'],
  'model year': ['year', 'age_at_listing'],
  mileage: ['log_mileage'],
  engine: ['engine_litres'],
  fuel: ['fuel'],
  transmission: ['transmission'],
  body: ['body'],
  drive: ['drive'],
  'trim level': ['trim'],
  condition: ['defects'],
  region: ['region', 'is_tashkent_city'],
  'listing period': ['period_index'],
};

/** The calibration and reporting group of a vehicle: its (badge family) make and model. */
export function vehicleGroup(row: Pick<VehicleFeatureSource, 'make' | 'model'>): string {
  return `${badgeFamily(row.make)} ${row.model ?? OTHER_MODEL}`;
}

/** The group name of a model the catalogue does not list: no training row has it. */
export const OTHER_MODEL = '(other model)';

export function fitVehicleEncoding(rows: readonly VehicleFeatureSource[], logPrice: ArrayLike<number>, smoothing = 10): VehicleEncoding {
  let total = 0;
  const makeSums = new Map<string, { sum: number; n: number }>();
  const modelSums = new Map<string, { sum: number; n: number }>();
  let newestPeriod = '0000-00';
  rows.forEach((row, i) => {
    const y = logPrice[i];
    total += y;
    accumulate(makeSums, badgeFamily(row.make), y);
    accumulate(modelSums, vehicleGroup(row), y);
    if (row.period > newestPeriod) newestPeriod = row.period;
  });
  const marketMean = total / rows.length;
  const make = shrunkMeans(makeSums, smoothing, () => marketMean);
  const model = shrunkMeans(modelSums, smoothing, (id) => make[id.slice(0, id.indexOf(' '))]?.mean ?? marketMean);
  return { marketMean, make, model, smoothing, newestPeriod };
}

/** Encodes rows into a row-major float matrix (NaN = missing), the models' input. */
export function encodeVehicles<T extends Float32Array | Float64Array>(rows: readonly VehicleFeatureSource[], encoding: VehicleEncoding, out: T): T {
  const width = VEHICLE_FEATURE_COUNT;
  if (out.length < rows.length * width) throw new Error('feature buffer too small');
  const newest = periodIndex(encoding.newestPeriod);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const o = i * width;
    const makePrior = encoding.make[badgeFamily(r.make)]?.mean ?? encoding.marketMean;
    const model = encoding.model[vehicleGroup(r)];
    // Trees cannot extrapolate in time: a later period is valued as of the newest one trained on.
    const period = Math.min(periodIndex(r.period), newest);
    const age = Math.max(0, 2020 + period / 12 - r.year);
    out[o] = makePrior;
    out[o + 1] = model?.mean ?? makePrior;
    out[o + 2] = Math.log1p(model?.n ?? 0);
    out[o + 3] = r.year;
    out[o + 4] = age;
    out[o + 5] = r.mileageKm === null ? NaN : Math.log1p(r.mileageKm);
    out[o + 6] = r.engineLitres ?? NaN;
    out[o + 7] = r.fuel === null ? NaN : FUELS.indexOf(r.fuel);
    out[o + 8] = r.transmission === null ? NaN : TRANSMISSIONS.indexOf(r.transmission);
    out[o + 9] = r.body === null ? NaN : BODY_TYPES.indexOf(r.body);
    out[o + 10] = r.drive === null ? NaN : DRIVES.indexOf(r.drive);
    out[o + 11] = r.trim ?? NaN;
    out[o + 12] = r.defects === null ? NaN : r.defects ? 1 : 0;
    out[o + 13] = r.region === null ? NaN : REGION_IDS.indexOf(r.region);
    out[o + 14] = r.region === null ? NaN : r.region === 'tashkent_city' ? 1 : 0;
    out[o + 15] = period;
  }
  return out;
}
