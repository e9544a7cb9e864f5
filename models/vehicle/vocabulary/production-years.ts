/**
 * When each model was made: a request for a model year before production began is refused (a 1985
 * Cobalt is a typo, not collateral). Years are the first and last model years built for sale in
 * Uzbekistan's market (UzAuto for the Asaka cars); null `to` = still made. A model not listed here
 * is checked only against the field's own range.
 */
import { badgeFamily } from './resolve';

export interface ProductionYears {
  from: number;
  to: number | null;
}

/** By canonical make (badge family for Daewoo/Ravon cars sold under several badges) and model. */
const PRODUCTION_YEARS: Readonly<Record<string, Readonly<Record<string, ProductionYears>>>> = {
  Chevrolet: {
    Cobalt: { from: 2011, to: null },
  },
};

/** The model years the make's model was made in, or null when the catalogue does not know. */
export function productionYears(make: string, model: string): ProductionYears | null {
  return PRODUCTION_YEARS[make]?.[model] ?? PRODUCTION_YEARS[badgeFamily(make)]?.[model] ?? null;
}
