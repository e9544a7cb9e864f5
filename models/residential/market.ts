/**
 * Market reference figures from the training listings, kept in the manifest for anomaly checks:
 * medians of price per m² by district and mahalla, and the range of what the district's data covers.
 * The listings span 2021–2026, so their prices are first brought to one level (the market index's
 * newest month): a median over raw prices of five years would sit far below today's market.
 */
import { quantile } from '../ensemble/metrics';

export interface DistrictMarket {
  n: number;
  medianPricePerM2: number;
  areaP01: number;
  areaP99: number;
  maxTotalFloors: number;
}

export interface MarketReference {
  /** 'YYYY-MM': the month whose price level the medians are at (from 2026.11.19; absent: prices as listed). */
  levelledTo?: string;
  district: Record<string, DistrictMarket>;
  /** Only mahallas with at least MIN_MAHALLA_ROWS listings: fewer make no median worth quoting. */
  mahalla: Record<string, { n: number; medianPricePerM2: number }>;
}

export const MIN_MAHALLA_ROWS = 5;

export interface MarketRow {
  district: string;
  mahallaId: string | null;
  area: number;
  totalFloors: number | null;
  /** The price at the level of `levelledTo`, when given. */
  priceUsd: number;
}

export function marketReference(rows: readonly MarketRow[], levelledTo?: string): MarketReference {
  const byDistrict = groupBy(rows, (r) => r.district);
  const byMahalla = groupBy(rows.filter((r) => r.mahallaId), (r) => r.mahallaId!);
  const district: MarketReference['district'] = {};
  for (const [id, group] of byDistrict) {
    const areas = group.map((r) => r.area);
    district[id] = {
      n: group.length,
      medianPricePerM2: round(quantile(group.map((r) => r.priceUsd / r.area), 0.5)),
      areaP01: quantile(areas, 0.01),
      areaP99: quantile(areas, 0.99),
      maxTotalFloors: Math.max(...group.map((r) => r.totalFloors ?? 0)),
    };
  }
  const mahalla: MarketReference['mahalla'] = {};
  for (const [id, group] of byMahalla) {
    if (group.length < MIN_MAHALLA_ROWS) continue;
    mahalla[id] = { n: group.length, medianPricePerM2: round(quantile(group.map((r) => r.priceUsd / r.area), 0.5)) };
  }
  return { ...(levelledTo && { levelledTo }), district, mahalla };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

function round(x: number): number {
  return Math.round(x);
}
