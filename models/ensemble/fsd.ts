/**
 * The confidence a client is told, as the industry defines it (issue 32; HouseCanary, Clear Capital,
 * CoreLogic and Veros read the same way): the forecast standard deviation (FSD) of the log error that
 * the valuation's own calibrated interval implies, a score of 1 − FSD, and a level by fixed bands.
 *
 *   FSD = (ln high − ln low) / (2·z),  z = Φ⁻¹((1 + coverage) / 2)  (1.645 for a 90% interval)
 *
 * read as a normal log error: about 68% of prices should fall within ±FSD of the estimate (in log
 * terms), whatever the level. Levels: high FSD ≤ 0.15, medium ≤ 0.30, low above. The level follows
 * the interval alone, so it means the same for every kind and every door; `drivers` say in words
 * what made the interval as wide as it is (the data's age, the group's held-out accuracy, the
 * ensemble's disagreement, anomaly flags, a re-anchoring on the organisation's own prices).
 */
import type { AccuracyClass } from './metrics';
import { normalQuantile } from './normal';

// The levels and what a valuation says of its confidence are contracts of every door: schema/ensemble-contract.ts.
import type { ConfidenceLevel, StatedConfidence } from '../../schema/ensemble-contract';
export { CONFIDENCE_LEVELS, type ConfidenceLevel, type StatedConfidence } from '../../schema/ensemble-contract';

/** The FSD bands of the levels: high at most 0.15, medium at most 0.30, low above. */
export const FSD_BANDS = { high: 0.15, medium: 0.3 } as const;

/** The FSD its interval implies: ln(high / low) / (2·z), three decimals. */
export function forecastStandardDeviation(interval: { low: number; high: number; coverage: number }): number {
  if (!(interval.low > 0 && interval.high >= interval.low)) return Infinity;
  const z = normalQuantile((1 + interval.coverage) / 2);
  return Math.round((Math.log(interval.high / interval.low) / (2 * z)) * 1000) / 1000;
}

export function levelOfFsd(fsd: number): ConfidenceLevel {
  return fsd <= FSD_BANDS.high ? 'high' : fsd <= FSD_BANDS.medium ? 'medium' : 'low';
}

/** What besides the calibration made a valuation's interval wide: the context its drivers are told from. */
export interface ConfidenceContext {
  /** Months from the newest data to the valuation date, and how much wider the interval is for them (0.5 = 50%). */
  dataAgeMonths: number;
  widening: number;
  /** The valuation's group (district, make and model) and its held-out accuracy class. */
  group: string;
  groupClass: AccuracyClass;
  /** The ensemble members' relative spread. */
  modelSpread: number;
  flags: readonly string[];
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The first driver: the FSD and the interval it comes from. */
function intervalDriver(fsd: number, estimate: number, interval: { low: number; high: number; coverage: number }): string {
  return `FSD ${fsd.toFixed(3)}: the calibrated ${pct(interval.coverage)} interval runs from −${pct(1 - interval.low / estimate)} to +${pct(interval.high / estimate - 1)} of the estimate (high: FSD ≤ ${FSD_BANDS.high}, medium: ≤ ${FSD_BANDS.medium})`;
}

/** The drivers of the context, in the order a reader weighs them. */
export function contextDrivers(context: ConfidenceContext): string[] {
  const drivers: string[] = [];
  if (context.widening > 0) drivers.push(`market data ${context.dataAgeMonths} months older than the valuation date: the interval is ${(context.widening * 100).toFixed(1)}% wider for how far the market may have moved since`);
  if (context.groupClass === 'low' || context.groupClass === 'fair') drivers.push(`${context.group}: held-out accuracy class ${context.groupClass}`);
  if (context.modelSpread > 0.1) drivers.push(`the ensemble's members disagree by ${pct(context.modelSpread)}`);
  if (context.flags.length > 0) drivers.push(`anomaly flags: ${context.flags.join(', ')}`);
  return drivers;
}

/** The confidence a valuation states: FSD, level and score from its interval, and why. */
export function statedConfidence(estimate: number, interval: { low: number; high: number; coverage: number }, context: ConfidenceContext): { fsd: number; confidence: StatedConfidence } {
  return restated(estimate, interval, contextDrivers(context));
}

/** The same for a moved interval (a re-anchoring), keeping the drivers of the context and adding `extra`. */
export function restated(estimate: number, interval: { low: number; high: number; coverage: number }, drivers: readonly string[]): { fsd: number; confidence: StatedConfidence } {
  const fsd = forecastStandardDeviation(interval);
  return {
    fsd,
    confidence: { level: levelOfFsd(fsd), score: Math.max(0, Math.round((1 - fsd) * 100) / 100), drivers: [intervalDriver(fsd, estimate, interval), ...drivers] },
  };
}
