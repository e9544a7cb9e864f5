/**
 * The published accuracy of the service this one replaces (docs/ARCHITECTURE.md, "Reference figures"), as printed.
 * Pure data: the model card compares our held-out numbers with these. How they were measured
 * was not published, so they are figures to set beside ours, not a test we can rerun.
 */
import type { DistrictId } from '../../models/vocabulary/codes';
import type { AccuracyClass } from '../../models/ensemble/confidence';

export interface ReferenceDistrictFigures {
  r2: number;
  /** Mean absolute percentage error as a fraction (0.071 = 7.1%). */
  mape: number;
  maeUsd: number;
  accuracyClass: AccuracyClass;
}

export interface ReferenceFeature {
  /** The name the reference service published. */
  feature: string;
  /** Share of importance as a fraction (0.219 = 21.9%). */
  importance: number;
  /** The feature group of ours (FEATURE_GROUPS in ./features) that measures the same thing, or null. */
  comparable: string | null;
}

export const REFERENCE_SOURCE = 'docs/ARCHITECTURE.md, "Reference figures": the published accuracy of the service this one replaces';

/** Overall figures; the protocol behind them was not published. */
export const REFERENCE_OVERALL = { r2: 0.94, mape: 0.07, protocol: null as string | null } as const;

/** Per district, in the order the reference table prints them (best R² first). */
export const REFERENCE_DISTRICTS: Readonly<Record<DistrictId, ReferenceDistrictFigures>> = {
  chilanzar: { r2: 0.902, mape: 0.071, maeUsd: 5208, accuracyClass: 'high' },
  mirabad: { r2: 0.894, mape: 0.092, maeUsd: 8986, accuracyClass: 'high' },
  yunusabad: { r2: 0.892, mape: 0.076, maeUsd: 6505, accuracyClass: 'high' },
  mirzo_ulugbek: { r2: 0.889, mape: 0.093, maeUsd: 9004, accuracyClass: 'high' },
  uchtepa: { r2: 0.87, mape: 0.068, maeUsd: 4755, accuracyClass: 'high' },
  yashnabad: { r2: 0.863, mape: 0.094, maeUsd: 8237, accuracyClass: 'good' },
  sergeli: { r2: 0.821, mape: 0.088, maeUsd: 6784, accuracyClass: 'good' },
  almazar: { r2: 0.809, mape: 0.108, maeUsd: 8678, accuracyClass: 'good' },
  shaykhantakhur: { r2: 0.798, mape: 0.118, maeUsd: 12693, accuracyClass: 'fair' },
  yakkasaray: { r2: 0.787, mape: 0.112, maeUsd: 12127, accuracyClass: 'fair' },
  yangihayot: { r2: 0.612, mape: 0.105, maeUsd: 6710, accuracyClass: 'low' },
  bektemir: { r2: 0.41, mape: 0.141, maeUsd: 7883, accuracyClass: 'low' },
};

/** Its top features by importance, as published (they sum to 100.1% through rounding). */
export const REFERENCE_FEATURE_IMPORTANCE: readonly ReferenceFeature[] = [
  { feature: 'mahalla', importance: 0.219, comparable: 'mahalla' },
  { feature: 'total area', importance: 0.171, comparable: 'total area' },
  { feature: 'district', importance: 0.164, comparable: 'district' },
  { feature: 'renovation type', importance: 0.102, comparable: 'renovation' },
  { feature: 'building floors', importance: 0.084, comparable: 'building floors' },
  { feature: 'floor', importance: 0.084, comparable: 'floor' },
  { feature: 'rooms', importance: 0.048, comparable: 'rooms' },
  { feature: 'building type', importance: 0.033, comparable: 'building type' },
  { feature: 'month of listing', importance: 0.033, comparable: 'listing period' },
  { feature: 'year of listing', importance: 0.028, comparable: 'listing period' },
  { feature: 'owner type', importance: 0.02, comparable: 'owner type' },
  { feature: 'appliances', importance: 0.015, comparable: null },
];
