/**
 * What the residential and vehicle subgraphs share of observations (issue 18): the items they
 * receive from the observations subgraph, scoring and storing them through the organisation's book,
 * and the adjustment as a valuation shows it.
 */
import { pooledRandomBytes } from './random-pool';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Directive, Field, Float, Int, ObjectType } from 'type-graphql';
import { restated, roundTo, type StatedConfidence } from '../../models/ensemble';
import { adjustValuation, MAX_MARKET_FACTOR, type AdjustedValuation, type BaseValuation, type ObservationModel } from '../../models/observations';
import { valueEach } from '../../schema/bulk';
import { ApiError } from '../../schema/errors';
import { itemError, type ItemError } from './bulk';
import type { ObservationBook } from './observation-book';
import type { PriceType, StoredObservation } from './observation-store';

/** One observation as the observations subgraph forwards it: the kind's valuation fields (GraphQL names) and the price seen. */
export interface ObservationItem {
  fields: Record<string, unknown>;
  priceUsd: number;
  /** YYYY-MM-DD, checked by the observations subgraph. */
  observedAt: string;
  priceType: PriceType;
  reference: string | null;
}

/** What became of one item: its id once stored, or why it was not. */
export interface ObservationOutcome {
  index: number;
  id: string | null;
  error: ItemError | null;
}

/** A valuation of an observed item at its date: the base it is scored against and its place in the kind's hierarchy. */
export interface ScoredItem {
  base: BaseValuation & { modelVersion: string };
  /** Level name → label, e.g. { city: 'Tashkent', district: 'Chilanzar', segment: 'resale' }. */
  groups: Record<string, string>;
  /** The request as normalised: what the organisation's export gives back. */
  input: Record<string, unknown>;
}

/**
 * An observed price more than this many times the model's estimate of the same home or vehicle at
 * the same date, or less than its reciprocal, is refused (issue 33, finding 6): five times is far
 * past any model error (the intervals are ±30–80%), and what lies there is a price in thousands,
 * per m², in the wrong currency or of another property, which would move the organisation's
 * valuations by its own error. Set on that principle, before measuring anything with it.
 */
export const MAX_PRICE_RATIO = 5;

/**
 * Items scored in one turn of the event loop: 100 (about 20 ms of the model at the 0.2 ms an item
 * measured in issue 33). Between slices other requests are served, so that one bank's 100,000-row
 * upload does not hold another's valuations for its whole 20 s (finding 2).
 */
export const SCORE_SLICE = 100;

/**
 * A kind's scorer: each item's fields normalised as a valuation request dated `observedAt`, the
 * valid ones valued in one model call (no adjustment: the base a residual is taken against), and
 * `describe` giving the groups and the request as kept. A price implausibly far from the model's
 * estimate (MAX_PRICE_RATIO) is refused in its place.
 */
export function scorer<N, V extends { estimate: number; interval: { low: number; high: number; coverage: number }; modelVersion: string; marketLevel?: { intervalWidening: number } | null }>(
  normalise: (fields: Record<string, unknown>) => N,
  value: (valid: N[]) => Promise<(V | ApiError)[]>,
  describe: (input: N) => { groups: Record<string, string>; input: Record<string, unknown> },
) {
  const scoreSlice = async (items: readonly ObservationItem[]): Promise<(ScoredItem | ApiError)[]> => {
    const normalised: N[] = new Array(items.length);
    const valued = await valueEach(items, (item, index) => (normalised[index] = normalise({ ...item.fields, valuationDate: item.observedAt })), value);
    return valued.map((result, index) => {
      if (result instanceof ApiError) return result;
      const { interval, estimate, modelVersion } = result;
      const implausible = implausiblePrice(items[index], estimate);
      if (implausible) return implausible;
      const widening = result.marketLevel?.intervalWidening ?? 0;
      return { base: { estimate, low: interval.low, high: interval.high, coverage: interval.coverage, ...(widening > 0 && { widening }), modelVersion }, ...describe(normalised[index]) };
    });
  };
  return async (items: readonly ObservationItem[]): Promise<(ScoredItem | ApiError)[]> => {
    const scored: (ScoredItem | ApiError)[] = [];
    for (let start = 0; start < items.length; start += SCORE_SLICE) {
      if (start > 0) await nextTurn(); // let other requests in between slices
      scored.push(...await scoreSlice(items.slice(start, start + SCORE_SLICE)));
    }
    return scored;
  };
}

/** The refusal of a price more than MAX_PRICE_RATIO times from the model's estimate, or null. */
function implausiblePrice(item: ObservationItem, estimate: number): ApiError | null {
  const ratio = item.priceUsd / estimate;
  if (ratio <= MAX_PRICE_RATIO && ratio >= 1 / MAX_PRICE_RATIO) return null;
  const times = ratio > 1 ? `${ratio.toFixed(1)} times` : `1/${(1 / ratio).toFixed(0)} of`;
  return new ApiError('INVALID_PARAMETER', `price_usd ${item.priceUsd} is ${times} the model's estimate of ${Math.round(estimate)} USD for the same item at ${item.observedAt}, more than ${MAX_PRICE_RATIO} times either way: a price in thousands, per m², in soʻm, or of another property? Refused, so that it cannot move your valuations`, 'price_usd');
}

/**
 * Scores `items` with `score` (one model call for the valid ones; an ApiError in place of each bad
 * one), stores the scored ones for `org` in one append, and answers an outcome per item in order.
 */
export async function recordObservations(
  book: ObservationBook,
  org: string,
  items: readonly ObservationItem[],
  score: (items: readonly ObservationItem[]) => Promise<(ScoredItem | ApiError)[]>,
  now: Date = new Date(),
): Promise<ObservationOutcome[]> {
  const scored = await score(items);
  const records: StoredObservation[] = [];
  const outcomes = scored.map((result, index): ObservationOutcome => {
    if (result instanceof ApiError) return { index, id: null, error: itemError(result) };
    const item = items[index];
    const id = observationId(now);
    records.push({
      id, kind: book.kind, observedAt: item.observedAt, recordedAt: now.toISOString(), priceUsd: item.priceUsd, priceType: item.priceType,
      reference: item.reference, input: result.input, groups: result.groups, base: result.base,
    });
    return { index, id, error: null };
  });
  await book.record(org, records);
  return outcomes;
}

/** Time-ordered and unique: the time in base 36, then 64 random bits. */
function observationId(now: Date): string {
  return `obs_${now.getTime().toString(36).padStart(9, '0')}${pooledRandomBytes(8).toString('hex')}`;
}

/** The group path of a stored item, top level first, as the book's hierarchy orders it. */
function groupPath(book: ObservationBook, groups: Record<string, string>): string[] {
  return book.hierarchy.levels.map((level) => groups[level]);
}

// A value type of both valuation subgraphs: federation wants it declared shareable in each.
@Directive('@shareable')
@ObjectType({ description: "What the organisation's own observed prices did to this valuation (POST /api/observations, recordObservations)" })
export class MarketAdjustment {
  @Field(() => Float, { description: "The model's estimate before the adjustment" }) baseEstimate!: number;
  @Field(() => Float, { description: "The model's interval before the adjustment: low" }) baseLow!: number;
  @Field(() => Float, { description: "The model's interval before the adjustment: high" }) baseHigh!: number;
  @Field(() => Float, { description: 'estimate = baseEstimate × factor (1 when no group on the path has observations)' }) factor!: number;
  @Field(() => String, { nullable: true, description: 'The group whose factor applies, e.g. "Tashkent › Chilanzar › resale" (null: none)' }) group!: string | null;
  @Field(() => String, { nullable: true, description: 'Its level: city, district or segment (homes); all, make or model (vehicles)' }) level!: string | null;
  @Field(() => Int, { description: 'Observations in that group' }) observations!: number;
  @Field(() => Float, { description: "Their worth as equally weighted observations (Kish's effective count of their recency weights)" }) effectiveObservations!: number;
  @Field(() => Float, { description: "Share of the factor from the group's own observations; the rest comes from the level above" }) shrinkage!: number;
  @Field({ description: "recalibrated: the interval is calibrated on the organisation's own residuals; model: the model's interval moved by the factor" }) intervalMethod!: string;
  @Field(() => String, { nullable: true, description: 'The group the interval was calibrated on' }) intervalGroup!: string | null;
  @Field(() => Int, { description: 'Observations behind the interval (0 for the model’s own)' }) intervalObservations!: number;
  @Field({ description: "YYYY-MM-DD: the day the adjustment was fitted as of, the valuation's own date (point in time: only observations observed on or before it count)" }) asOf!: string;
  @Field(() => Int, { description: 'Every observation the adjustment was fitted on (observed on or before asOf)' }) observationsUsed!: number;
  @Field(() => Float, { description: 'What they are worth as equally weighted observations (Kish: newer ones weigh more in the means, older ones do not thin the evidence)' }) effectiveObservationsUsed!: number;
}

function marketAdjustmentOf(adjusted: AdjustedValuation, model: ObservationModel): MarketAdjustment {
  const a = adjusted.adjustment;
  return {
    baseEstimate: adjusted.base.estimate, baseLow: adjusted.base.low, baseHigh: adjusted.base.high,
    factor: a?.factor ?? 1, group: a?.group ?? null, level: a?.level ?? null, observations: a?.observations ?? 0,
    effectiveObservations: a?.effectiveN ?? 0, shrinkage: a?.shrinkageWeight ?? 0,
    intervalMethod: adjusted.interval.method, intervalGroup: adjusted.interval.group, intervalObservations: adjusted.interval.observations, asOf: model.asOf,
    observationsUsed: model.observations, effectiveObservationsUsed: Math.round(topEffectiveN(model) * 10) / 10,
  };
}

/** The Kish effective count of every observation the model stands on: its top group's. */
function topEffectiveN(model: ObservationModel): number {
  const top = Object.values(model.adjustments.groups).find((group) => group.level === 0);
  return top?.effectiveN ?? 0;
}

export interface ValuationAdjustment {
  /** Set when an earlier day's fit stood in for the valuation's own (not ready in time), or the factor was bounded (MAX_MARKET_FACTOR): says so. */
  warning?: string;
  /** Rounded as the models round theirs (to 100 USD). */
  estimate: number;
  interval: { low: number; high: number; coverage: number };
  /** The adjusted estimate over the base one, unrounded: what per-m² figures and deviations move by. */
  factor: number;
  marketAdjustment: MarketAdjustment;
}

/**
 * The confidence of a re-anchored valuation: its FSD, level and score from the interval it is now
 * given, its drivers kept, and one more saying what the re-anchoring stood on.
 */
export function reanchoredConfidence(stated: StatedConfidence, estimate: number, interval: { low: number; high: number; coverage: number }, adjustment: MarketAdjustment): { fsd: number; confidence: StatedConfidence } {
  const how = adjustment.intervalMethod === 'recalibrated'
    ? `its interval calibrated on ${adjustment.intervalObservations} of them (${adjustment.intervalGroup})`
    : "the model's interval moved with it";
  return restated(estimate, interval, [...stated.drivers.slice(1), `re-anchored on ${adjustment.observationsUsed} of your organisation's observed prices up to ${adjustment.asOf}: × ${adjustment.factor.toFixed(3)} (${adjustment.group ?? 'no group'}), ${how}`]);
}

/**
 * The anomaly flags after the adjustment moved the interval: the asking-price flags are the model's
 * comparison of the asking price with the interval, so they are made again against the interval
 * the organisation is given (the other flags describe the input or the model and stand).
 */
export function flagsAfterAdjustment(flags: readonly string[], askingPrice: number | null, interval: { low: number; high: number }): string[] {
  const kept = flags.filter((flag) => flag !== 'ASKING_PRICE_BELOW_INTERVAL' && flag !== 'ASKING_PRICE_ABOVE_INTERVAL');
  if (askingPrice !== null && askingPrice < interval.low) kept.push('ASKING_PRICE_BELOW_INTERVAL');
  if (askingPrice !== null && askingPrice > interval.high) kept.push('ASKING_PRICE_ABOVE_INTERVAL');
  return kept;
}

/**
 * How the organisation's book moves a valuation at `groups` (level name → label): null while it has
 * no observations of the kind observed on or before the valuation's date. Point in time (issue 31):
 * the model is fitted as of the valuation's date on what was observed by then, so a valuation dated
 * in the past says what the service would have said that day. `skipped` when that day's first fit
 * did not finish in time: the valuation goes on with the model alone and says so.
 */
export async function adjustmentFor(
  book: ObservationBook,
  org: string | null,
  groups: Record<string, string>,
  valuation: { estimate: number; interval: { low: number; high: number; coverage: number }; marketLevel?: { valuationDate: string; intervalWidening?: number } | null },
): Promise<ValuationAdjustment | { skipped: string } | null> {
  if (org === null) return null;
  const found = await book.modelAsOf(org, valuation.marketLevel?.valuationDate);
  const { model } = found;
  if (!model) {
    if (found.reason === 'none') return null;
    return { skipped: `your observations' adjustments as of ${found.asOf} were still being fitted (the first valuation at that date): valued with the model alone; the next valuation at that date uses them` };
  }
  const base = { estimate: valuation.estimate, low: valuation.interval.low, high: valuation.interval.high, coverage: valuation.interval.coverage, widening: valuation.marketLevel?.intervalWidening };
  const adjusted = adjustValuation(base, groupPath(book, groups), model);
  const warnings = [
    ...('stopGap' in found && found.stopGap ? [`your observations' adjustments as of ${found.stopGap} were still being fitted (the first valuation at that date): this one used those fitted as of ${model.asOf} (${model.observations} observations); the next valuation at that date uses its own`] : []),
    ...(adjusted.adjustment?.unboundedFactor !== undefined ? [boundedFactorWarning(adjusted.adjustment.unboundedFactor, adjusted.adjustment.factor, adjusted.adjustment.group)] : []),
  ];
  return {
    estimate: roundTo(adjusted.estimate, 100),
    interval: { low: roundTo(adjusted.low, 100), high: roundTo(adjusted.high, 100), coverage: adjusted.coverage },
    factor: adjusted.estimate / valuation.estimate,
    marketAdjustment: marketAdjustmentOf(adjusted, model),
    ...(warnings.length > 0 && { warning: warnings.join('; ') }),
  };
}

/** What a valuation says when its group's factor lay past MAX_MARKET_FACTOR and was cut to it. */
function boundedFactorWarning(unbounded: number, applied: number, group: string): string {
  return `your observations in ${group} put this valuation at × ${unbounded.toPrecision(3)} the model's; market factors are bounded to × ${(1 / MAX_MARKET_FACTOR).toFixed(1)}–${MAX_MARKET_FACTOR}, so × ${applied.toFixed(2)} was applied. Prices that far from the model are more likely in thousands, per m² or of other properties than a market move: check them (GET /api/observations) and retract the wrong ones (DELETE /api/observations/{id})`;
}
