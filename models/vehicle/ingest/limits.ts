/** Bounds a real used-car listing stays within, fixed before looking at the fences' effect. Pure data. */

/** Model years: nothing older is sold as a car; a model year may run one ahead of the calendar. */
export const YEAR = { min: 1930, aheadOfPeriod: 1 };

/** Under $500 is a deposit, a monthly instalment or a typo, not a car; over $1M is a typo. */
export const PRICE_USD = { min: 500, max: 1_000_000 };

export const MILEAGE_KM = {
  max: 1_000_000,
  /** Fewer km than this on a car this many model years old is a placeholder ("1 km", "100 km"). */
  usedCarMin: 1_000,
  usedCarAgeYears: 2,
  /** All-same-digit values with at least this many digits (777, 7 777, 777 777) are placeholders. */
  placeholderMinDigits: 3,
};

export const ENGINE_LITRES = {
  min: 0.6,
  max: 8.5,
  /** A model's median displacement needs this many known values before it judges a record. */
  minModelRecords: 10,
  /** Plausible: within [median / band, median × band]. */
  band: 2,
};

/**
 * Price fences on log price (./outliers.ts): median ± k·MAD with MAD × 1.4826 estimating a standard
 * deviation and k = 3.5, the modified z-score cut-off (Iglewicz & Hoaglin), as for the residential
 * fences. The MAD floor is wider than the residential one (0.05): one model year of one model still
 * spans several trims and conditions, so a group with a tight MAD (dealer price lists) must not fence
 * out an ordinary ±50% spread.
 */
export const VEHICLE_FENCE = { k: 3.5, madToSigma: 1.4826, minGroup: 20, minMad: 0.1 };
