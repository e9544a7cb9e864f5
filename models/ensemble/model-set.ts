/**
 * What every kind's loaded model version (models/residential/runtime.ts, models/house/runtime.ts,
 * models/vehicle/runtime.ts) shares in answering: its manifest, ensemble and clock, and the market
 * level its answers state.
 */
import type { MarketLevel } from '../../schema/home-contract';
import type { LoadedEnsemble } from './artifact';
import { round3 } from './estimate';
import { daysPast, lastDayOfPeriod } from './level-series';

/** The runtime's clock: what "today" is for a request without a valuation date (tests inject one). */
export type Clock = () => Date;

/** One loaded version of a kind's model; the kind's class adds how it values. */
export abstract class ModelSet<Manifest extends { version: string }> {
  protected constructor(
    readonly manifest: Manifest,
    protected readonly ensemble: LoadedEnsemble,
    protected readonly clock: Clock,
  ) {}

  get version(): string {
    return this.manifest.version;
  }

  async close(): Promise<void> {
    await this.ensemble.release();
  }
}

/**
 * Where the market stood at the valuation date, as an answer states it: the index's newest month,
 * how far past it the date is, and the level there. The interval's widening for that age is added
 * by the caller, once the interval is known.
 */
export function statedMarketLevel(valuationDate: string, newestPeriod: string, dataAgeMonths: number, logLevel: number): Omit<MarketLevel, 'intervalWidening'> {
  return {
    valuationDate,
    newestDataPeriod: newestPeriod,
    dataAgeMonths,
    dataAgeDays: dataAgeDays(newestPeriod, valuationDate),
    indexRatio: round3(Math.exp(logLevel)),
  };
}

/** Days from the newest data to a valuation date, remembered: a day's valuations share a few dates, and the dates' arithmetic cost more than the rest of the market level. */
const dataAges = new Map<string, number>();
const MAX_DATA_AGES = 256;

function dataAgeDays(newestPeriod: string, valuationDate: string): number {
  const key = `${newestPeriod} ${valuationDate}`;
  let days = dataAges.get(key);
  if (days === undefined) {
    if (dataAges.size >= MAX_DATA_AGES) dataAges.clear();
    dataAges.set(key, (days = daysPast(lastDayOfPeriod(newestPeriod), valuationDate)));
  }
  return days;
}
