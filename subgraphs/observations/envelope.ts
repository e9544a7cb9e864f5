/**
 * The fields every observation carries beside its valuation request, checked here before any item
 * is forwarded: a bad one refuses its item alone (the catalogue's code, the field as REST names it).
 */
import { ApiError } from '../../schema/errors';
import { isCalendarDate } from '../../schema/valuation-date';
import { DEFAULT_OBSERVATION_RETENTION_DAYS } from '../common/observation-store';
import { ObservationKindEnum, PriceTypeEnum, type ObservationInput } from './types';

/** The highest price taken: above it, a typo (a price in UZS, say) rather than collateral. */
export const MAX_PRICE_USD = 100_000_000;
export const MAX_REFERENCE_LENGTH = 128;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One checked item, as the valuation subgraph's record field takes it. */
export interface ForwardedItem {
  fields: Record<string, unknown>;
  priceUsd: number;
  observedAt: string;
  priceType: PriceTypeEnum;
  reference: string | null;
}

/** A day of the calendar, YYYY-MM-DD, or INVALID_PARAMETER naming `field`. */
export function checkDate(value: string, field: string): string {
  if (!ISO_DATE.test(value) || !isCalendarDate(value)) throw new ApiError('INVALID_PARAMETER', `${field} must be a date, YYYY-MM-DD`, field);
  return value;
}

/** `today` is YYYY-MM-DD; observations older than `retentionDays` before it would be dropped at once, so they are refused. */
export function checkObservation(input: ObservationInput, today: string, retentionDays = DEFAULT_OBSERVATION_RETENTION_DAYS): ForwardedItem {
  const fields = input.kind === ObservationKindEnum.HOME ? input.home : input.vehicle;
  const name = input.kind === ObservationKindEnum.HOME ? 'home' : 'vehicle';
  if (!fields) throw new ApiError('MISSING_PARAMETER', `an observation of kind ${name} needs its ${name} fields`, name);
  const other = input.kind === ObservationKindEnum.HOME ? input.vehicle : input.home;
  if (other) throw new ApiError('INVALID_PARAMETER', `an observation of kind ${name} takes ${name} fields only`, input.kind === ObservationKindEnum.HOME ? 'vehicle' : 'home');
  if (!Number.isFinite(input.priceUsd) || input.priceUsd <= 0 || input.priceUsd > MAX_PRICE_USD) {
    throw new ApiError('INVALID_PARAMETER', `price_usd must be above 0 and at most ${MAX_PRICE_USD.toLocaleString('en')}`, 'price_usd');
  }
  const observedAt = checkDate(input.observedAt, 'observed_at');
  if (observedAt > today) throw new ApiError('INVALID_PARAMETER', `observed_at ${observedAt} is in the future`, 'observed_at');
  const oldest = new Date(Date.parse(`${today}T00:00:00Z`) - retentionDays * 86_400_000).toISOString().slice(0, 10);
  if (observedAt < oldest) throw new ApiError('INVALID_PARAMETER', `observed_at ${observedAt} is older than the ${retentionDays} days observations are kept (from ${oldest})`, 'observed_at');
  const reference = input.reference ?? null;
  if (reference !== null && reference.length > MAX_REFERENCE_LENGTH) throw new ApiError('INVALID_PARAMETER', `reference is longer than ${MAX_REFERENCE_LENGTH} characters`, 'reference');
  return { fields, priceUsd: input.priceUsd, observedAt, priceType: input.priceType ?? PriceTypeEnum.LISTING, reference };
}
