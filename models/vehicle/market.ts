/**
 * Vehicle market reference from the training listings, kept in the manifest: how much market
 * data backs each make and model (the honesty rule for thin models), the model years it covers,
 * and median asking prices per model year for the anomaly check.
 */
import { quantile } from '../ensemble/metrics';
import { groupBy } from '../ingest/outliers';
import { vehicleGroup } from './features';
import { badgeFamily } from './vocabulary';

export interface VehicleGroupMarket {
  /** Training listings of this make and model, all years and periods. */
  listings: number;
  years: { from: number; to: number };
  /** Median asking price by model year, from the newest period that has at least MIN_YEAR_ROWS listings of that year. */
  medianPriceByYear: Record<string, { median: number; n: number; period: string }>;
}

export interface VehicleMarketReference {
  /** By vehicleGroup (badge family make + model). */
  group: Record<string, VehicleGroupMarket>;
  /** Training listings per badge family (Chevrolet counts Daewoo and Ravon): whether a make can stand for its unlisted models. */
  make: Record<string, number>;
  /** The makes and models as listed (makes as the sellers named them); the runtime adds how each is valued. */
  catalog: VehicleCatalogRow[];
}

export interface VehicleCatalogRow {
  make: string;
  listings: number;
  models: { model: string; listings: number; years: { from: number; to: number } }[];
}

export const MIN_YEAR_ROWS = 3;

export interface VehicleMarketRow {
  make: string;
  model: string;
  year: number;
  period: string;
  priceUsd: number;
}

export function vehicleMarketReference(rows: readonly VehicleMarketRow[]): VehicleMarketReference {
  const group: VehicleMarketReference['group'] = {};
  for (const [id, listings] of groupBy(rows, vehicleGroup)) {
    const years = listings.map((r) => r.year);
    const medianPriceByYear: VehicleGroupMarket['medianPriceByYear'] = {};
    for (const [year, ofYear] of groupBy(listings, (r) => String(r.year))) {
      const periods = [...new Set(ofYear.map((r) => r.period))].sort().reverse();
      const period = periods.find((p) => ofYear.filter((r) => r.period === p).length >= MIN_YEAR_ROWS);
      if (!period) continue;
      const prices = ofYear.filter((r) => r.period === period).map((r) => r.priceUsd);
      medianPriceByYear[year] = { median: Math.round(quantile(prices, 0.5)), n: prices.length, period };
    }
    group[id] = { listings: listings.length, years: { from: Math.min(...years), to: Math.max(...years) }, medianPriceByYear };
  }
  const catalog: VehicleCatalogRow[] = [...groupBy(rows, (r) => r.make)].map(([make, listings]) => ({
    make,
    listings: listings.length,
    models: [...groupBy(listings, (r) => r.model)].map(([model, ofModel]) => {
      const years = ofModel.map((r) => r.year);
      return { model, listings: ofModel.length, years: { from: Math.min(...years), to: Math.max(...years) } };
    }).sort((a, b) => b.listings - a.listings),
  })).sort((a, b) => b.listings - a.listings);
  const make = Object.fromEntries([...groupBy(rows, (r) => badgeFamily(r.make))].map(([family, listings]) => [family, listings.length]));
  return { group, make, catalog };
}
