/**
 * The fields every observation carries beside its valuation request, checked before any item is
 * forwarded to the subgraph that values its kind: a bad one refuses its item alone (the
 * catalogue's code, the field as REST names it). The observations subgraph checks what it
 * records, the batch subgraph what a backtest replays.
 */
import { MIN_PRICE_USD as HOME_MIN_PRICE_USD } from '../../models/ingest/limits';
import { ApiError } from '../../schema/errors';
import { isCalendarDate } from '../../schema/valuation-date';
import { DEFAULT_OBSERVATION_RETENTION_DAYS, type PriceType } from './observation-store';

/** The highest price taken: above it, a typo (a price in UZS, say) rather than collateral. */
export const MAX_PRICE_USD = 100_000_000;

/**
 * The lowest price taken of each kind: a fifth of the cheapest the models were trained on (homes
 * 5,000 USD, models/ingest/limits.ts; vehicles 500, PRICE_USD of models/vehicle/ingest/limits.ts,
 * an internal of the vehicle library stated here, a test holding it to the file), the same margin as
 * MAX_PRICE_RATIO. Below it lie 1e-300, prices in thousands and per m² (issue 33, finding 6).
 */
export const MIN_PRICE_USD = { home: HOME_MIN_PRICE_USD / 5, vehicle: 500 / 5 } as const;

export const MAX_REFERENCE_LENGTH = 128;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const PRICE_TYPES: readonly PriceType[] = ['sale', 'appraisal', 'listing'];

/** An observation as GraphQL's ObservationInput carries it (kind and price type by their values: home, sale, …). */
export interface ObservationEnvelope {
  kind: string;
  home?: Record<string, unknown> | null;
  vehicle?: Record<string, unknown> | null;
  priceUsd: number;
  observedAt: string;
  priceType?: string | null;
  reference?: string | null;
}

/** One checked item, as the valuation subgraph's record and score fields take it. */
export interface ForwardedItem {
  fields: Record<string, unknown>;
  priceUsd: number;
  observedAt: string;
  priceType: PriceType;
  reference: string | null;
}

/** A day of the calendar, YYYY-MM-DD, or INVALID_PARAMETER naming `field`. */
export function checkDate(value: string, field: string): string {
  if (!ISO_DATE.test(value) || !isCalendarDate(value)) throw new ApiError('INVALID_PARAMETER', `${field} must be a date, YYYY-MM-DD`, field);
  return value;
}

/**
 * `today` is YYYY-MM-DD; observations older than `retentionDays` before it would be dropped at once,
 * so they are refused (null: no such bound, for a backtest, which keeps nothing).
 */
export function checkObservation(input: ObservationEnvelope, today: string, retentionDays: number | null = DEFAULT_OBSERVATION_RETENTION_DAYS): ForwardedItem {
  const name = input.kind === 'home' ? 'home' : 'vehicle';
  if (input.kind !== 'home' && input.kind !== 'vehicle') throw new ApiError('INVALID_PARAMETER', 'kind must be home or vehicle', 'kind');
  const fields = input[name];
  if (!fields) throw new ApiError('MISSING_PARAMETER', `an observation of kind ${name} needs its ${name} fields`, name);
  const otherName = name === 'home' ? 'vehicle' : 'home';
  if (input[otherName]) throw new ApiError('INVALID_PARAMETER', `an observation of kind ${name} takes ${name} fields only`, otherName);
  if (typeof input.priceUsd !== 'number' || !Number.isFinite(input.priceUsd) || input.priceUsd <= 0 || input.priceUsd > MAX_PRICE_USD) {
    throw new ApiError('INVALID_PARAMETER', `price_usd must be above 0 and at most ${MAX_PRICE_USD.toLocaleString('en')}`, 'price_usd');
  }
  if (input.priceUsd < MIN_PRICE_USD[name]) {
    throw new ApiError('INVALID_PARAMETER', `price_usd ${input.priceUsd} is under ${MIN_PRICE_USD[name].toLocaleString('en')} USD, a fifth of the cheapest ${name} the model was trained on: a price in thousands or per m²? Refused, so that it cannot move your valuations`, 'price_usd');
  }
  if (typeof input.observedAt !== 'string') throw new ApiError('MISSING_PARAMETER', 'observed_at is required (YYYY-MM-DD)', 'observed_at');
  const observedAt = checkDate(input.observedAt, 'observed_at');
  if (observedAt > today) throw new ApiError('INVALID_PARAMETER', `observed_at ${observedAt} is in the future`, 'observed_at');
  if (retentionDays !== null) {
    const oldest = new Date(Date.parse(`${today}T00:00:00Z`) - retentionDays * 86_400_000).toISOString().slice(0, 10);
    if (observedAt < oldest) throw new ApiError('INVALID_PARAMETER', `observed_at ${observedAt} is older than the ${retentionDays} days observations are kept (from ${oldest})`, 'observed_at');
  }
  const priceType = input.priceType ?? 'listing';
  if (!PRICE_TYPES.includes(priceType as PriceType)) throw new ApiError('INVALID_PARAMETER', `price_type must be one of ${PRICE_TYPES.join(', ')}`, 'price_type');
  const reference = input.reference ?? null;
  if (reference !== null && typeof reference !== 'string') throw new ApiError('INVALID_PARAMETER', 'reference must be a string', 'reference');
  if (reference !== null && reference.length > MAX_REFERENCE_LENGTH) throw new ApiError('INVALID_PARAMETER', `reference is longer than ${MAX_REFERENCE_LENGTH} characters`, 'reference');
  return { fields, priceUsd: input.priceUsd, observedAt, priceType: priceType as PriceType, reference };
}
