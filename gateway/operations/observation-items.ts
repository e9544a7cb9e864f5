/**
 * Observation items as every door and the backtest CLI receive them: a JSON item in REST names
 * (the valuation request's fields with kind, price_usd, observed_at, price_type, reference), or a
 * line of the export GET /api/observations gives (the request as understood, under `input`); a row
 * of a CSV or NDJSON file arrives as one of these (gateway/rest/observation-uploads.ts). Each becomes
 * the GraphQL ObservationInput, or the ApiError that refuses it in its place. One reader for POST
 * /api/observations, POST /api/backtest, MCP's record_observations and submit_backtest, and
 * `npm run backtest`.
 */
import { ApiError } from '../../schema/errors';
import { parseHomeRestBody } from '../../schema/home-rest';
import { parseVehicleRestBody } from '../../schema/vehicle-rest';

/** The item fields that are not the valuation request's. */
export const ENVELOPE = ['kind', 'price_usd', 'observed_at', 'price_type', 'reference'] as const;
const KINDS = { home: { kind: 'HOME', fields: 'home', parse: parseHomeRestBody }, vehicle: { kind: 'VEHICLE', fields: 'vehicle', parse: parseVehicleRestBody } } as const;
export const PRICE_TYPES = ['sale', 'appraisal', 'listing'];

export interface ItemError {
  code: string;
  message: string;
  field: string | null;
}

export const itemError = (error: ApiError): ItemError => ({ code: error.code, message: error.message, field: error.field ?? null });

/** An export line's fields the request does not take back: what the service added when it kept the observation. */
const EXPORT_ONLY = ['id', 'recorded_at', 'groups', 'base_estimate', 'base_low', 'base_high', 'model_version'];

/**
 * An export line's `input` (the request as the service understood it, canonical codes) as a
 * valuation request's GraphQL fields: nulls left out, and the vehicle's mileage under the name the
 * request takes (the export keeps the normalised `mileageKm`).
 */
function requestOfExport(input: Record<string, unknown>): Record<string, unknown> {
  const { mileageKm, ...fields } = input;
  const request = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
  return mileageKm === null || mileageKm === undefined ? request : { ...request, mileage: mileageKm };
}

/** One item of a body or file → the GraphQL ObservationInput, or the reason it is refused (ApiError; a file's unreadable line arrives as its error). */
export function toObservationInput(item: unknown): Record<string, unknown> {
  if (item instanceof ApiError) throw item;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ApiError('INVALID_PARAMETER', 'an observation must be a JSON object');
  const { kind, price_usd: priceUsd, observed_at: observedAt, price_type: priceType, reference, ...fields } = item as Record<string, unknown>;
  const spec = typeof kind === 'string' ? KINDS[kind as keyof typeof KINDS] : undefined;
  if (!spec) throw new ApiError(kind === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', 'kind must be home or vehicle', 'kind');
  if (priceUsd === undefined) throw new ApiError('MISSING_PARAMETER', 'price_usd is required', 'price_usd');
  if (typeof priceUsd !== 'number') throw new ApiError('INVALID_PARAMETER', 'price_usd must be a number', 'price_usd');
  if (observedAt === undefined) throw new ApiError('MISSING_PARAMETER', 'observed_at is required (YYYY-MM-DD)', 'observed_at');
  if (typeof observedAt !== 'string') throw new ApiError('INVALID_PARAMETER', 'observed_at must be a date, YYYY-MM-DD', 'observed_at');
  if (priceType !== undefined && priceType !== null && !PRICE_TYPES.includes(priceType as string)) throw new ApiError('INVALID_PARAMETER', `price_type must be one of ${PRICE_TYPES.join(', ')}`, 'price_type');
  if (reference !== undefined && reference !== null && typeof reference !== 'string') throw new ApiError('INVALID_PARAMETER', 'reference must be a string', 'reference');
  // A valuation request's currency is the reply's; an observation has no reply in a currency, and its price is price_usd.
  if (fields.currency !== undefined && fields.currency !== null) throw new ApiError('INVALID_PARAMETER', 'currency does not apply to an observation: its price is price_usd, in USD', 'currency');
  const exported = fields.input;
  let input: Record<string, unknown>;
  if (typeof exported === 'object' && exported !== null && !Array.isArray(exported)) {
    // A line of GET /api/observations: the request is already in GraphQL names and canonical codes.
    const extra = Object.keys(fields).find((name) => name !== 'input' && !EXPORT_ONLY.includes(name));
    if (extra !== undefined) throw new ApiError('INVALID_PARAMETER', `${extra.slice(0, 40)} is not a field of an exported observation: the request is its input`, extra.slice(0, 40));
    input = requestOfExport(exported as Record<string, unknown>);
  } else {
    input = spec.parse(fields).input;
  }
  return {
    kind: spec.kind,
    [spec.fields]: input,
    priceUsd,
    observedAt,
    ...(typeof priceType === 'string' && { priceType: priceType.toUpperCase() }),
    ...(typeof reference === 'string' && { reference }),
  };
}
