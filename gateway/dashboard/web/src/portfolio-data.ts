/**
 * A job's portfolio, aggregated one result line at a time as the NDJSON streams in (./ndjson.ts):
 * counts, confidence levels, totals by district, the items the anomaly checks flagged, the values
 * for the histograms and medians, and the points the items were placed at, each with its count,
 * for the map. Memory grows by two numbers per valued home (typed arrays, for exact medians and
 * histograms) and by one record per distinct point, not by the lines themselves: a 1,000,000-item
 * job holds about 16 MB here, and its points (gazetteer points: a few thousand) little more.
 */
import type { ResultLine } from './api';

/** The most points the map draws; past it, those holding the most items. */
export const MAP_POINT_CAP = 20_000;
/** The most distinct points the page keeps count of (memory); an item at a further new point is placed but not mapped. */
export const SITE_LIMIT = 10 * MAP_POINT_CAP;
/** The most flagged items the page keeps for its table (all are counted). */
export const FLAGGED_ROW_CAP = 1_000;
/** Confidence levels, best first, as the valuation names them. */
export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;
/** What a geocoded point stands for (result.geocode.precision), most precise first. */
export const PRECISIONS = ['street', 'quarter', 'mahalla', 'district'] as const;
/** Item numbers a point's description lists before "and N more". */
const LISTED_ITEMS = 5;

/**
 * A point the results placed items at, and what they are: geocoding places an address at a
 * street's point or a quarter's, mahalla's or district's centre, so many items share one.
 */
export interface MapSite {
  lon: number;
  lat: number;
  /** street, quarter, mahalla, district (or whatever else the results say). */
  precision: string;
  district: string;
  mahalla: string | null;
  /** Items placed here. */
  count: number;
  /** The first few items' indexes (the API's, from 0). */
  indexes: number[];
  /** Mean price per m² of the valued homes here (null: none), and how many. */
  ppm2: number | null;
  valuedHomes: number;
  /** Mean location index composite here (null: none). */
  composite: number | null;
}

/** Items and points per precision. */
export interface PrecisionCount {
  precision: string;
  items: number;
  points: number;
}

/** A site as it fills: sums in place of the means. */
interface SiteAccumulator extends Omit<MapSite, 'ppm2' | 'composite'> {
  ppm2Sum: number;
  compositeSum: number;
  composites: number;
  /** Order first met: ties keep it. */
  order: number;
}

export interface FlaggedItem {
  index: number;
  address: string;
  district: string;
  flags: string[];
  estimate: number | null;
  currency: string;
  valuationId: string | null;
}

export interface DistrictTotals {
  district: string;
  /** Items placed in the district. */
  items: number;
  valuedHomes: number;
  /** Sum of the estimates by currency (one entry unless the job's valuations differ in currency). */
  totalEstimate: Map<string, number>;
  medianPricePerM2: number | null;
  meanLocationIndex: number | null;
}

/** What the results say of a valued home (the batch line's result.home). */
interface HomeResult {
  estimate?: unknown;
  currency?: unknown;
  price_per_m2?: unknown;
  confidence?: { level?: unknown } | null;
  anomaly?: { flags?: unknown } | null;
  valuation_id?: unknown;
}

interface ItemResult {
  address?: unknown;
  geocode?: { lat?: unknown; lon?: unknown; precision?: unknown; district?: unknown; mahalla?: unknown } | null;
  location_index?: { composite?: unknown } | null;
  home?: HomeResult | null;
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A valuation's id when the results carry one (`val_…`): the record and report links need it. */
export function valuationIdOf(home: unknown): string | null {
  const id = (home as HomeResult | null | undefined)?.valuation_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** Numbers appended one at a time into a typed array that doubles as it fills. */
export class NumberList {
  private values = new Float64Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** A sorted copy (ascending). */
  sorted(): Float64Array {
    return this.values.slice(0, this.length).sort();
  }
}

/** The middle value of sorted numbers (the mean of the two middle ones for an even count); null for none. */
export function median(sorted: Float64Array): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Bin {
  start: number;
  end: number;
  count: number;
}

/** A step of 1, 2 or 5 × 10^k giving about `target` bins over the range. */
function niceStep(range: number, target: number): number {
  const rough = range / target;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / magnitude;
  return magnitude * (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10);
}

/** Counts of sorted values in equal bins with round edges (about `target` of them); a bin holds [start, end). */
export function histogram(sorted: Float64Array, target = 24): Bin[] {
  if (sorted.length === 0) return [];
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const step = max > min ? niceStep(max - min, target) : niceStep(Math.max(Math.abs(min), 1), 10);
  const first = Math.floor(min / step);
  const count = Math.max(1, Math.floor(max / step) - first + 1);
  const bins: Bin[] = Array.from({ length: count }, (_, i) => ({ start: (first + i) * step, end: (first + i + 1) * step, count: 0 }));
  for (const value of sorted) bins[Math.min(count - 1, Math.floor(value / step) - first)].count++;
  return bins;
}

interface DistrictAccumulator {
  items: number;
  valuedHomes: number;
  totalEstimate: Map<string, number>;
  pricesPerM2: NumberList;
  compositeSum: number;
  composites: number;
}

export interface PortfolioSummary {
  items: number;
  succeeded: number;
  failed: number;
  placed: number;
  valuedHomes: number;
  currencies: string[];
  /** Homes per confidence level (high, medium, low first, then any other the results name). */
  confidence: { level: string; count: number }[];
  estimates: Float64Array;
  pricesPerM2: Float64Array;
  districts: DistrictTotals[];
  /** Every district together. */
  overall: DistrictTotals;
  flagged: FlaggedItem[];
  flaggedCount: number;
  /** The points the map draws (at most MAP_POINT_CAP: those holding the most items), most items first. */
  sites: MapSite[];
  /** Every point the items were placed at (up to SITE_LIMIT). */
  siteCount: number;
  /** Items at the drawn points. */
  mappedItems: number;
  /** Items and points per precision, precise first, over every point. */
  precisions: PrecisionCount[];
  /** Placed items at points past SITE_LIMIT: counted, not mapped. */
  unmapped: number;
  /** Flags met and how many items carry each, in the order first met. */
  flagCounts: Map<string, number>;
}

/**
 * Adds result lines one by one. Items placed at the same point with the same precision are one
 * site with a count: the map draws each site once (memory grows with the distinct points, not the
 * items, up to SITE_LIMIT).
 */
export class PortfolioAggregate {
  private items = 0;
  private succeeded = 0;
  private failed = 0;
  private placed = 0;
  private valuedHomes = 0;
  private readonly currencies = new Set<string>();
  private readonly confidence = new Map<string, number>(CONFIDENCE_LEVELS.map((level) => [level, 0]));
  private readonly estimates = new NumberList();
  private readonly pricesPerM2 = new NumberList();
  private readonly districts = new Map<string, DistrictAccumulator>();
  private readonly flagged: FlaggedItem[] = [];
  private flaggedCount = 0;
  private readonly flagCounts = new Map<string, number>();
  private readonly sites = new Map<string, SiteAccumulator>();
  private unmapped = 0;

  constructor(private readonly cap = MAP_POINT_CAP, private readonly siteLimit = SITE_LIMIT) {}

  get count(): number {
    return this.items;
  }

  add(line: ResultLine): void {
    this.items++;
    if (!line.ok) {
      this.failed++;
      return;
    }
    this.succeeded++;
    const result = (line.result ?? {}) as ItemResult;
    const lat = finite(result.geocode?.lat);
    const lon = finite(result.geocode?.lon);
    const district = text(result.geocode?.district, '(no district)');
    const composite = finite(result.location_index?.composite);
    const home = result.home ?? null;
    const estimate = finite(home?.estimate);
    const ppm2 = finite(home?.price_per_m2);

    const totals = this.districtOf(district);
    totals.items++;
    if (composite !== null) {
      totals.compositeSum += composite;
      totals.composites++;
    }
    if (home && estimate !== null) {
      const currency = text(home.currency, '?');
      this.valuedHomes++;
      this.currencies.add(currency);
      this.estimates.push(estimate);
      totals.valuedHomes++;
      totals.totalEstimate.set(currency, (totals.totalEstimate.get(currency) ?? 0) + estimate);
      if (ppm2 !== null) {
        this.pricesPerM2.push(ppm2);
        totals.pricesPerM2.push(ppm2);
      }
      const level = text(home.confidence?.level, 'unknown');
      this.confidence.set(level, (this.confidence.get(level) ?? 0) + 1);
    }
    const flags = Array.isArray(home?.anomaly?.flags) ? home.anomaly.flags.filter((flag): flag is string => typeof flag === 'string') : [];
    if (flags.length > 0) {
      this.flaggedCount++;
      for (const flag of new Set(flags)) this.flagCounts.set(flag, (this.flagCounts.get(flag) ?? 0) + 1);
      if (this.flagged.length < FLAGGED_ROW_CAP) {
        this.flagged.push({ index: line.index, address: text(result.address), district, flags, estimate, currency: text(home?.currency), valuationId: valuationIdOf(home) });
      }
    }

    if (lat === null || lon === null) return;
    this.placed++;
    const precision = text(result.geocode?.precision, 'unknown');
    const key = `${precision}|${lon}|${lat}`;
    let site = this.sites.get(key);
    if (!site) {
      if (this.sites.size >= this.siteLimit) {
        this.unmapped++;
        return;
      }
      const mahalla = text(result.geocode?.mahalla);
      site = { lon, lat, precision, district, mahalla: mahalla || null, count: 0, indexes: [], ppm2Sum: 0, valuedHomes: 0, compositeSum: 0, composites: 0, order: this.sites.size };
      this.sites.set(key, site);
    }
    site.count++;
    if (site.indexes.length < LISTED_ITEMS) site.indexes.push(line.index);
    if (home && estimate !== null && ppm2 !== null) {
      site.ppm2Sum += ppm2;
      site.valuedHomes++;
    }
    if (composite !== null) {
      site.compositeSum += composite;
      site.composites++;
    }
  }

  private districtOf(name: string): DistrictAccumulator {
    let totals = this.districts.get(name);
    if (!totals) {
      totals = { items: 0, valuedHomes: 0, totalEstimate: new Map(), pricesPerM2: new NumberList(), compositeSum: 0, composites: 0 };
      this.districts.set(name, totals);
    }
    return totals;
  }

  summary(): PortfolioSummary {
    const totalsOf = (district: string, accumulated: DistrictAccumulator): DistrictTotals => ({
      district,
      items: accumulated.items,
      valuedHomes: accumulated.valuedHomes,
      totalEstimate: accumulated.totalEstimate,
      medianPricePerM2: median(accumulated.pricesPerM2.sorted()),
      meanLocationIndex: accumulated.composites > 0 ? accumulated.compositeSum / accumulated.composites : null,
    });
    const districts = [...this.districts]
      .map(([name, accumulated]) => totalsOf(name, accumulated))
      .sort((a, b) => b.items - a.items || a.district.localeCompare(b.district));
    const all: DistrictAccumulator = { items: 0, valuedHomes: 0, totalEstimate: new Map(), pricesPerM2: new NumberList(), compositeSum: 0, composites: 0 };
    for (const d of this.districts.values()) {
      all.items += d.items;
      all.valuedHomes += d.valuedHomes;
      for (const [currency, sum] of d.totalEstimate) all.totalEstimate.set(currency, (all.totalEstimate.get(currency) ?? 0) + sum);
      all.compositeSum += d.compositeSum;
      all.composites += d.composites;
    }
    const pricesPerM2 = this.pricesPerM2.sorted();
    const overall = { ...totalsOf('All districts', all), medianPricePerM2: median(pricesPerM2) };
    return {
      items: this.items,
      succeeded: this.succeeded,
      failed: this.failed,
      placed: this.placed,
      valuedHomes: this.valuedHomes,
      currencies: [...this.currencies].sort(),
      confidence: [...this.confidence].map(([level, count]) => ({ level, count })),
      estimates: this.estimates.sorted(),
      pricesPerM2,
      districts,
      overall,
      flagged: this.flagged,
      flaggedCount: this.flaggedCount,
      ...this.siteSummary(),
      unmapped: this.unmapped,
      flagCounts: this.flagCounts,
    };
  }

  private siteSummary(): Pick<PortfolioSummary, 'sites' | 'siteCount' | 'mappedItems' | 'precisions'> {
    const all = [...this.sites.values()];
    const byPrecision = new Map<string, PrecisionCount>(PRECISIONS.map((precision) => [precision, { precision, items: 0, points: 0 }]));
    for (const site of all) {
      const counted = byPrecision.get(site.precision) ?? { precision: site.precision, items: 0, points: 0 };
      counted.items += site.count;
      counted.points++;
      byPrecision.set(site.precision, counted);
    }
    // Most items first (bigger markers drawn first, under the smaller), ties in the order met.
    const drawn = all.sort((a, b) => b.count - a.count || a.order - b.order).slice(0, this.cap);
    return {
      sites: drawn.map((site) => ({
        lon: site.lon,
        lat: site.lat,
        precision: site.precision,
        district: site.district,
        mahalla: site.mahalla,
        count: site.count,
        indexes: site.indexes,
        ppm2: site.valuedHomes > 0 ? site.ppm2Sum / site.valuedHomes : null,
        valuedHomes: site.valuedHomes,
        composite: site.composites > 0 ? site.compositeSum / site.composites : null,
      })),
      siteCount: all.length,
      mappedItems: drawn.reduce((sum, site) => sum + site.count, 0),
      precisions: [...byPrecision.values()].filter((p) => p.points > 0),
    };
  }
}
