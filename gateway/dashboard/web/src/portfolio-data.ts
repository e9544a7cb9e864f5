/**
 * A job's portfolio, aggregated one result line at a time as the NDJSON streams in (./ndjson.ts):
 * counts, confidence levels, totals by district, the items the anomaly checks flagged, the values
 * for the histograms and medians, and an even sample of the placed points for the map. Memory
 * grows by two numbers per valued home (typed arrays, for exact medians and histograms), not by
 * the lines themselves: a 1,000,000-item job holds about 16 MB here.
 */
import type { ResultLine } from './api';

/** The most points the map draws; a larger job's placed items are sampled evenly, in item order. */
export const MAP_POINT_CAP = 20_000;
/** The most flagged items the page keeps for its table (all are counted). */
export const FLAGGED_ROW_CAP = 1_000;
/** Confidence levels, best first, as the valuation names them. */
export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;

/** One placed item on the map. */
export interface MapPoint {
  index: number;
  lon: number;
  lat: number;
  district: string;
  /** Price per m² where a home was valued, else null. */
  ppm2: number | null;
  /** The location index's composite (0–100), null where no data backs it. */
  composite: number | null;
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
  pricePerM2?: unknown;
  confidence?: { level?: unknown } | null;
  anomaly?: { flags?: unknown } | null;
  valuationId?: unknown;
}

interface ItemResult {
  address?: unknown;
  geocode?: { lat?: unknown; lon?: unknown; district?: unknown } | null;
  locationIndex?: { composite?: unknown } | null;
  home?: HomeResult | null;
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A valuation's id when the results carry one (`val_…`): the record and report links need it. */
export function valuationIdOf(home: unknown): string | null {
  const id = (home as HomeResult | null | undefined)?.valuationId;
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
  points: MapPoint[];
  /** The map shows every `stride`-th placed item (1: all of them). */
  stride: number;
}

/**
 * Adds result lines one by one. `expected` (the job's item count, when known) sets the map's
 * sampling stride at once; without it, or when more come, the sample is halved (every other point
 * kept, the stride doubled) each time it passes the cap, so it stays even whatever the count.
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
  private points: MapPoint[] = [];
  private stride: number;

  constructor(expected = 0, private readonly cap = MAP_POINT_CAP) {
    this.stride = Math.max(1, Math.ceil(expected / cap));
  }

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
    const composite = finite(result.locationIndex?.composite);
    const home = result.home ?? null;
    const estimate = finite(home?.estimate);
    const ppm2 = finite(home?.pricePerM2);

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
      if (this.flagged.length < FLAGGED_ROW_CAP) {
        this.flagged.push({ index: line.index, address: text(result.address), district, flags, estimate, currency: text(home?.currency), valuationId: valuationIdOf(home) });
      }
    }

    if (lat === null || lon === null) return;
    if (this.placed++ % this.stride !== 0) return;
    this.points.push({ index: line.index, lon, lat, district, ppm2: home && estimate !== null ? ppm2 : null, composite });
    if (this.points.length > this.cap) {
      this.points = this.points.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
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
      points: this.points,
      stride: this.stride,
    };
  }
}
