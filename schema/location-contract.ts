/**
 * The location index request and reply: one field table for every surface.
 * REST (POST /api/location/index) takes `{ lat, lon }` or `{ address }`; the GraphQL queries
 * (`locationIndex(lat, lon)`, `locationIndexes(points)`, `geocode(address)`) take the same fields
 * with the same ranges. The REST JSON Schemas (validated by ajv, serialised by fastify, published
 * in OpenAPI) and the subgraph's range checks are derived from this table.
 */
import { ApiError } from './errors';
import type { FieldSpec } from './home-contract';

/** Longest address accepted (characters): the longest uybor addresses are about 150. */
export const MAX_ADDRESS_LENGTH = 300;
/** Points per `locationIndexes` call. */
export const MAX_POINTS_PER_CALL = 10_000;

export type LocationFieldSpec = FieldSpec & { kind: 'number' | 'string'; maxLength?: number };

export const LOCATION_FIELDS = {
  lat: { rest: 'lat', graphql: 'lat', kind: 'number', required: false, min: -90, max: 90, description: 'Latitude in degrees (WGS 84), with lon; Tashkent is at about 41.2 to 41.4', example: 41.311151 },
  lon: { rest: 'lon', graphql: 'lon', kind: 'number', required: false, min: -180, max: 180, description: 'Longitude in degrees (WGS 84), with lat; Tashkent is at about 69.1 to 69.4', example: 69.279737 },
  address: {
    rest: 'address', graphql: 'address', kind: 'string', required: false, maxLength: MAX_ADDRESS_LENGTH,
    description: 'Instead of lat/lon: a Tashkent address in Russian, Uzbek (Latin or Cyrillic) or English; it is geocoded first and the reply says how precisely (geocoded)',
    example: 'Yunusobod 8 kvartal',
  },
} as const satisfies Record<string, LocationFieldSpec>;

/** What a REST body asks for, once the either/or rule has been applied. */
export type LocationRequest = { kind: 'point'; lat: number; lon: number } | { kind: 'address'; address: string };

function fieldJsonSchema(f: LocationFieldSpec): Record<string, unknown> {
  const base = { description: f.description, examples: [f.example] };
  return f.kind === 'number'
    ? { ...base, type: 'number', minimum: f.min, maximum: f.max }
    : { ...base, type: 'string', minLength: 1, maxLength: f.maxLength };
}

/** Types and ranges of each field: what ajv checks before the either/or rule. */
export function locationFieldsJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.values(LOCATION_FIELDS).map((f) => [f.rest, fieldJsonSchema(f)])),
    additionalProperties: true,
  };
}

/** The published request schema (draft 2020-12): the fields, and lat with lon or an address. */
export function locationRequestJsonSchema(): Record<string, unknown> {
  return {
    ...locationFieldsJsonSchema(),
    description: 'A coordinate ({ "lat", "lon" }) or an address ({ "address" }), not both',
    oneOf: [{ required: ['lat', 'lon'] }, { required: ['address'] }],
  };
}

/**
 * The either/or rule, phrased for the client (ajv would say "must match exactly one schema in oneOf"):
 * lat and lon together, or an address, never both. Types and ranges are checked before.
 */
export function chooseLocationRequest(body: Readonly<Record<string, unknown>>): LocationRequest {
  const has = (field: string) => body[field] !== undefined && body[field] !== null;
  const coordinate = has('lat') || has('lon');
  if (coordinate && has('address')) throw new ApiError('INVALID_PARAMETER', 'Send either lat and lon or an address, not both', 'address');
  if (has('address')) return { kind: 'address', address: body.address as string };
  if (!coordinate) throw new ApiError('MISSING_PARAMETER', 'Send lat and lon, or an address', 'lat');
  if (!has('lat')) throw new ApiError('MISSING_PARAMETER', 'lat is required with lon', 'lat');
  if (!has('lon')) throw new ApiError('MISSING_PARAMETER', 'lon is required with lat', 'lon');
  return { kind: 'point', lat: body.lat as number, lon: body.lon as number };
}

/** Out of its range (or not finite): the message; in range: null. The subgraph checks GraphQL arguments with it. */
export function outOfRange(field: 'lat' | 'lon', value: number): string | null {
  const { min, max } = LOCATION_FIELDS[field];
  return Number.isFinite(value) && value >= min && value <= max ? null : `${field} must be between ${min} and ${max}`;
}

const number = { type: 'number' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const boolean = { type: 'boolean' } as const;
const strings = { type: 'array', items: string } as const;
const coverage = { type: 'string', enum: ['full', 'partial', 'none'], description: 'full: every layer the score needs covers this place; partial: some are samples or missing; none: no data (score null)' } as const;

function object(properties: Record<string, unknown>, description?: string): Record<string, unknown> {
  return { type: 'object', ...(description && { description }), required: Object.keys(properties), properties };
}

/** One subindex of the REST reply. */
function subindexJsonSchema(): Record<string, unknown> {
  return object({
    name: string,
    score: { ...nullableNumber, description: '0–100 on an absolute scale; null when no data backs it here' },
    weight: { ...number, description: 'Its weight in the composite here (renormalised when a subindex has no data)' },
    coverage,
    complete: { ...boolean, description: 'true only when every layer behind the score is complete here' },
    components: {
      type: 'array',
      items: object({
        feature: { ...string, description: 'What is measured: metro_station, school, city_centre, listings, …' },
        required: boolean,
        used: { ...boolean, description: 'false: an optional component no layer covers, left out' },
        coverage,
        layers: { ...strings, description: 'Ids of the layers behind it (see data_used)' },
      }),
    },
  });
}

/** The 200 reply of POST /api/location/index (snake_case). */
export function locationResponseJsonSchema(subindexIds: readonly string[]): Record<string, unknown> {
  const subindex = subindexJsonSchema();
  const reply = object({
    lat: number,
    lon: number,
    district: object({ id: { ...string, description: 'District code, e.g. yunusabad' }, name: { ...string, description: 'English name, e.g. Yunusabad' } }, 'The district whose polygon holds the point'),
    composite: object({
      score: { ...nullableNumber, description: 'Weighted mean of the subindexes with data, 0–100' },
      complete: { ...boolean, description: 'true only when all nine subindexes are complete' },
      renormalised: { ...boolean, description: 'true when some subindex had no data and the weights were renormalised over the rest' },
      missing: { ...strings, description: 'Subindexes without data here' },
    }),
    subindexes: object(Object.fromEntries(subindexIds.map((id) => [id, subindex])), 'The nine subindexes, by id'),
    data_used: {
      type: 'array',
      description: 'Every data layer behind the scores at this point, once',
      items: object({
        layer: string,
        features: { type: 'integer' },
        coverage: { type: 'string', enum: ['city', 'partial'], description: 'city: every such feature in the city; partial: a sample' },
        complete_in: { type: ['array', 'null'], items: string, description: 'Districts where a partial layer is nevertheless complete' },
        licence: nullableString,
        note: string,
      }),
    },
    warnings: strings,
  });
  const geocoded = object({
    address: string,
    lat: number,
    lon: number,
    precision: { type: 'string', enum: ['street', 'quarter', 'mahalla', 'district'], description: 'What the point stands for, most precise first' },
    confidence: { ...number, description: '0–1: how often answers like this land near the truth (not a calibrated probability)' },
    matched: object({ district: string, quarter: nullableString, street: nullableString, mahalla: nullableString, mahalla_id: nullableString }),
  }, 'Present when the request gave an address: where it was placed');
  (reply.properties as Record<string, unknown>).geocoded = geocoded;
  return reply;
}
