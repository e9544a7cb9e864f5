/** Why a vehicle row was dropped, and what was changed in a row that was kept. Pure data: code → explanation. */

export const VEHICLE_DROP_REASONS = {
  no_model: 'no make or model name',
  unknown_model: 'make or model not in the catalogue',
  no_year: 'no parseable model year',
  year_out_of_range: 'model year before 1930 or after the year following the scrape',
  no_price: 'no parseable price',
  price_out_of_range: 'price under $500 (a deposit, an instalment or a typo) or over $1,000,000',
  duplicate_in_file: 'repeat of a listing earlier in the same file: the same listing id, or equal on every listing field (dealer price lists, re-posts)',
  price_outlier: 'log price outside the median ± k·MAD fence of its model around its model year',
} as const;
export type VehicleDropReason = keyof typeof VEHICLE_DROP_REASONS;

export const VEHICLE_CORRECTIONS = {
  fuel_split_from_model: 'fuel glued to the model name ("GentraGaz-benzin") split off',
  model_name_fixed: 'model name the site garbled, mapped to the catalogue ("Tracker4")',
  mileage_placeholder_cleared: 'repeated-digit mileage (777 777 km, 999 999 km, 7 777 km) set to unknown',
  mileage_implausible_cleared: 'mileage under 1,000 km on a car two or more years old, or over 1,000,000 km, set to unknown',
  engine_zero_cleared: 'engine size 0 (not filled in) set to unknown',
  engine_out_of_range_cleared: 'engine size under 0.6 or over 8.5 litres (model with too few known sizes to judge by) set to unknown',
  engine_decimal_restored: 'engine size ten times the model’s ("8" for a 0.8 l Damas) divided by ten',
  engine_implausible_cleared: 'engine size under half or over twice the model’s median, or outside 0.6–8.5 l, set to unknown',
  engine_cleared_for_electric: 'engine size of an electric car (battery or motor figure) set to unknown',
} as const;
export type VehicleCorrection = keyof typeof VEHICLE_CORRECTIONS;
