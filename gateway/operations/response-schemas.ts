/**
 * JSON Schemas of the replies REST and MCP both give (the snake_case views of gateway/operations/):
 * fastify serialises with them, OpenAPI publishes them, and the MCP tools publish them as their
 * output schemas. The error body is every door's.
 */
import { CURRENCIES } from '../../models/currency';
import { VEHICLE_BASES } from '../../models/vehicle/valuation';
import { BODY_TYPES, COLOURS, DRIVES, FUELS, PAINTS, REGION_IDS, TRANSMISSIONS } from '../../models/vehicle/vocabulary';
import { CURRENCY_DESCRIPTION, EXCHANGE_RATE_DESCRIPTION, EXCHANGE_RATE_DESCRIPTIONS } from '../../schema/currency-contract';
import { MEMBER_WEIGHT_DESCRIPTION, MODEL_SPREAD_DESCRIPTION } from '../../schema/ensemble-contract';
import { ERROR_CATALOGUE } from '../../schema/errors';
import { MARKET_LEVEL_DESCRIPTION, MARKET_LEVEL_DESCRIPTIONS, MARKET_MIXTURE_DESCRIPTION, MARKET_MIXTURE_DESCRIPTIONS, MARKET_MIXTURE_VALUE_DESCRIPTIONS } from '../../schema/home-contract';
import { VALUED_VEHICLE_DESCRIPTIONS, VALUED_VEHICLE_DESCRIPTION, VEHICLE_BASIS_DESCRIPTION } from '../../schema/vehicle-contract';

const number = { type: 'number' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const strings = { type: 'array', items: string } as const;

/** Fields every valuation reply has (home, vehicle), in the order the replies list them around their own. */
const VALUATION_FIELDS = {
  estimate: { ...number, description: 'Estimated market value, in currency' },
  currency: { type: 'string', enum: [...CURRENCIES], description: CURRENCY_DESCRIPTION },
  interval: {
    type: 'object', required: ['low', 'high', 'coverage'],
    properties: { low: number, high: number, coverage: { ...number, description: 'Share of true prices the interval contains on held-out data' } },
  },
  fsd: { type: ['number', 'null'], description: 'Forecast standard deviation: the sd of the log error that the calibrated interval implies, ln(high / low) / (2 × 1.645) for a 90% interval; about 68% of prices fall within ±fsd of the estimate. Null in records made before it was answered' },
  confidence: {
    type: 'object', required: ['level', 'score'],
    description: 'From the fsd: level high (fsd ≤ 0.15), medium (≤ 0.30) or low; score 1 − fsd; drivers, why the interval is as wide as it is',
    properties: { level: { type: 'string', enum: ['high', 'medium', 'low'] }, score: number, drivers: { type: 'array', items: string } },
  },
  models: {
    type: 'array', description: "The ensemble's members: each one's own estimate and its weight in the estimate served",
    items: { type: 'object', required: ['name', 'estimate', 'weight'], properties: { name: string, estimate: number, weight: { ...number, description: MEMBER_WEIGHT_DESCRIPTION } } },
  },
} as const;

const VALUATION_TRAILER = {
  valuation_id: { type: ['string', 'null'], description: "This valuation's record, kept for your organisation: GET /api/valuations/{valuation_id} (and /report). Null when it could not be recorded (a warning says so)" },
  model_version: string,
  valued_at: { type: 'string', format: 'date-time' },
  warnings: strings,
} as const;

/** The reply's market_level (homes and vehicles). */
/** How the organisation's own observed prices moved the valuation (POST /api/observations); null while it has recorded none of the kind. */
const MARKET_ADJUSTMENT = {
  type: ['object', 'null'],
  description: "How your organisation's observed prices (POST /api/observations) moved this valuation: estimate and interval above are after it; null while you have recorded none of this kind",
  required: ['base_estimate', 'base_interval', 'factor', 'group', 'level', 'observations', 'effective_observations', 'shrinkage', 'interval_method', 'interval_group', 'interval_observations', 'as_of'],
  properties: {
    base_estimate: { ...number, description: "The model's estimate before the adjustment" },
    base_interval: { type: 'object', required: ['low', 'high'], properties: { low: number, high: number } },
    factor: { ...number, description: 'estimate = base_estimate × factor' },
    group: { ...nullableString, description: 'The group whose factor applies, e.g. "Tashkent › Chilanzar › resale"' },
    level: { ...nullableString, description: 'city, district or segment (homes); all, make or model (vehicles)' },
    observations: { type: 'integer' },
    effective_observations: { ...number, description: "The group's observations as equally weighted ones (Kish's effective count of their recency weights)" },
    shrinkage: { ...number, description: "Share of the factor from the group's own observations; the rest comes from the level above" },
    interval_method: { type: 'string', enum: ['recalibrated', 'model'], description: "recalibrated: calibrated on your organisation's own residuals; model: the model's interval moved by the factor" },
    interval_group: nullableString,
    interval_observations: { type: 'integer' },
    as_of: { ...string, format: 'date', description: "The day the adjustment was fitted as of: the valuation's date (only observations observed on or before it count)" },
    observations_used: { type: ['integer', 'null'], description: 'Every observation the adjustment was fitted on (null in records made before it was answered)' },
    effective_observations_used: { type: ['number', 'null'], description: "What they are worth as equally weighted observations (Kish's effective count)" },
  },
} as const;

/** One market of the reply's market_mixture: the flat valued as a new build, or as resale. */
const MARKET_MIXTURE_VALUE = (description: string) => ({
  type: 'object',
  description,
  required: ['estimate', 'low', 'high'],
  properties: {
    estimate: { ...number, description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.estimate },
    low: { ...number, description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.low },
    high: { ...number, description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.high },
  },
}) as const;

/** A flat sent without its market, valued as both (homes only). */
const MARKET_MIXTURE = {
  type: ['object', 'null'],
  description: MARKET_MIXTURE_DESCRIPTION,
  required: ['new_build_probability', 'new_build', 'resale'],
  properties: {
    new_build_probability: { ...number, minimum: 0, maximum: 1, description: MARKET_MIXTURE_DESCRIPTIONS.newBuildProbability },
    new_build: MARKET_MIXTURE_VALUE(MARKET_MIXTURE_DESCRIPTIONS.newBuild),
    resale: MARKET_MIXTURE_VALUE(MARKET_MIXTURE_DESCRIPTIONS.resale),
  },
} as const;

const MARKET_LEVEL = {
  type: 'object', required: ['valuation_date', 'newest_data_period', 'data_age_months', 'data_age_days', 'index_ratio', 'interval_widening'],
  description: MARKET_LEVEL_DESCRIPTION,
  properties: {
    valuation_date: { ...string, format: 'date', description: MARKET_LEVEL_DESCRIPTIONS.valuationDate },
    newest_data_period: { ...string, description: MARKET_LEVEL_DESCRIPTIONS.newestDataPeriod },
    data_age_months: { type: 'integer', description: MARKET_LEVEL_DESCRIPTIONS.dataAgeMonths },
    data_age_days: { type: 'integer', description: MARKET_LEVEL_DESCRIPTIONS.dataAgeDays },
    index_ratio: { ...number, description: MARKET_LEVEL_DESCRIPTIONS.indexRatio },
    interval_widening: { ...number, description: MARKET_LEVEL_DESCRIPTIONS.intervalWidening },
  },
} as const;

/** The reply's exchange_rate: present in a reply in UZS only, so that a reply in USD is what it was before currencies. */
const EXCHANGE_RATE = {
  type: 'object',
  description: EXCHANGE_RATE_DESCRIPTION,
  required: ['usd_to_uzs', 'date', 'source'],
  properties: {
    usd_to_uzs: { ...number, description: EXCHANGE_RATE_DESCRIPTIONS.usdToUzs },
    date: { ...string, format: 'date', description: EXCHANGE_RATE_DESCRIPTIONS.date },
    source: { ...string, description: EXCHANGE_RATE_DESCRIPTIONS.source },
  },
} as const;

/**
 * A valuation reply: the reply's leading fields (`property_type` for homes), the shared fields with
 * the reply's own (`price_per_m2` after `currency` for homes), then version, time, warnings. All
 * required but exchange_rate (UZS only).
 */
function valuationResponseJsonSchema(own: { leading?: Record<string, unknown>; afterCurrency?: Record<string, unknown>; anomaly: Record<string, unknown>; subject: Record<string, unknown> }): Record<string, unknown> {
  const { estimate, currency, ...rest } = VALUATION_FIELDS;
  const properties = { ...own.leading, estimate, currency, exchange_rate: EXCHANGE_RATE, ...own.afterCurrency, ...rest, anomaly: own.anomaly, ...own.subject, ...VALUATION_TRAILER };
  return { type: 'object', required: Object.keys(properties).filter((name) => name !== 'exchange_rate'), properties };
}

export function homeResponseJsonSchema(): Record<string, unknown> {
  return valuationResponseJsonSchema({
    leading: { property_type: { type: 'string', enum: ['apartment', 'house'], description: 'What was valued: a flat (apartment) or a private house with its plot (house)' } },
    afterCurrency: {
      price_per_m2: { ...number, description: 'Estimate per m² of (floor) area' },
      land_price_per_sotka: { ...nullableNumber, description: "Houses: the plot alone, per sotka: the land's part of the estimate (estimate × anomaly.land_share ÷ plot), not comparable with anomaly.district_median_price_per_sotka (whole houses); null for a flat, or a house valued without its plot" },
    },
    anomaly: {
      type: 'object',
      required: ['district_median_price_per_m2', 'deviation_from_district_median', 'model_spread', 'flags'],
      properties: {
        district_median_price_per_m2: number,
        deviation_from_district_median: number,
        mahalla_median_price_per_m2: nullableNumber,
        deviation_from_mahalla_median: nullableNumber,
        district_median_price_per_sotka: { ...nullableNumber, description: "Houses: the district's median asking price of a whole house (house and plot) per sotka of its plot, among the training houses; compare with deviation_from_district_median_per_sotka, not with land_price_per_sotka (the plot alone); null for a flat" },
        deviation_from_district_median_per_sotka: { ...nullableNumber, description: "Houses: this house's estimate per sotka of its plot relative to district_median_price_per_sotka (like for like), e.g. 0.05 = 5% above; null for a flat, without a plot, or without the district median" },
        land_share: { ...nullableNumber, description: "Houses: the share of the estimate the plot accounts for, 0 to 1; null for a flat, or a house valued without its plot" },
        model_spread: { ...number, description: MODEL_SPREAD_DESCRIPTION },
        flags: strings,
      },
    },
    subject: {
      location: {
        type: 'object', required: ['district', 'matched'],
        properties: { district: string, mahalla: nullableString, mahalla_id: nullableString, matched: { type: 'string', enum: ['mahalla', 'district'] } },
      },
      market_level: MARKET_LEVEL,
      market_adjustment: MARKET_ADJUSTMENT,
      market_mixture: MARKET_MIXTURE,
    },
  });
}

const nullableCode = (codes: readonly string[], description: string) => ({ type: ['string', 'null'], enum: [...codes, null], description });

/** The reply's `vehicle`: what was understood (schema/vehicle-rest.ts ValuedVehicle), in REST names. */
const VALUED_VEHICLE = {
  make: { ...string, description: VALUED_VEHICLE_DESCRIPTIONS.make },
  model: { ...nullableString, description: VALUED_VEHICLE_DESCRIPTIONS.model },
  year: { type: 'integer' },
  trim: { type: ['integer', 'null'], description: VALUED_VEHICLE_DESCRIPTIONS.trim },
  engine: { ...nullableNumber, description: VALUED_VEHICLE_DESCRIPTIONS.engine },
  fuel: nullableCode(FUELS, VALUED_VEHICLE_DESCRIPTIONS.fuel),
  transmission: nullableCode(TRANSMISSIONS, VALUED_VEHICLE_DESCRIPTIONS.transmission),
  body_type: nullableCode(BODY_TYPES, VALUED_VEHICLE_DESCRIPTIONS.bodyType),
  drive: nullableCode(DRIVES, VALUED_VEHICLE_DESCRIPTIONS.drive),
  region: nullableCode(REGION_IDS, VALUED_VEHICLE_DESCRIPTIONS.region),
  condition: nullableCode(['good', 'needs_repair'], VALUED_VEHICLE_DESCRIPTIONS.condition),
  paint: nullableCode(PAINTS, VALUED_VEHICLE_DESCRIPTIONS.paint),
  colour: nullableCode(COLOURS, VALUED_VEHICLE_DESCRIPTIONS.colour),
} as const;

export function vehicleResponseJsonSchema(): Record<string, unknown> {
  return valuationResponseJsonSchema({
    anomaly: {
      type: 'object',
      required: ['group_median_price', 'deviation_from_group_median', 'market_listings', 'model_spread', 'flags'],
      properties: {
        group_median_price: { ...nullableNumber, description: 'Median asking price (in currency) of the same make, model and model year in the training data; null when none was seen' },
        deviation_from_group_median: { ...nullableNumber, description: 'Estimate relative to that median, e.g. 0.05 = 5% above' },
        market_listings: { type: 'integer', description: 'Training listings of this make and model (all years): how much market data backs the estimate' },
        model_spread: { ...number, description: MODEL_SPREAD_DESCRIPTION },
        flags: strings,
      },
    },
    subject: {
      vehicle: {
        type: 'object', required: Object.keys(VALUED_VEHICLE), description: VALUED_VEHICLE_DESCRIPTION,
        properties: VALUED_VEHICLE,
      },
      basis: { type: 'string', enum: [...VEHICLE_BASES], description: VEHICLE_BASIS_DESCRIPTION },
      market_level: MARKET_LEVEL,
      market_adjustment: MARKET_ADJUSTMENT,
    },
  });
}

export function errorResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'The error catalogue: each code has one HTTP status' }, message: string, field: string, suggestions: strings, request_id: string },
      },
    },
  };
}

const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const BATCH_STATUS = { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'], description: 'queued → running → completed | failed | cancelled' } as const;

/** 202 of POST /api/batch. */
export function batchAcceptedResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: string, status: BATCH_STATUS, total: { type: 'integer' }, created_at: { type: 'string', format: 'date-time' }, results_url: string,
      idempotent_replay: { type: 'boolean', description: "true: the job an earlier submission with the same Idempotency-Key made (also the Idempotent-Replayed header); nothing new was submitted, and its batch items are not charged again" },
    },
  };
}

/** 200 of GET /api/batch/{id}. */
export function batchJobResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['id', 'status', 'total', 'processed', 'succeeded', 'failed', 'created_at', 'results_url', 'deliveries'],
    properties: {
      id: string,
      status: BATCH_STATUS,
      total: { type: 'integer', description: 'Items submitted' },
      processed: { type: 'integer', description: 'Items with a result: succeeded + failed' },
      succeeded: { type: 'integer' },
      failed: { type: 'integer' },
      chunk_size: { type: 'integer' },
      created_at: { type: 'string', format: 'date-time' },
      started_at: nullableDateTime,
      completed_at: nullableDateTime,
      callback_url: nullableString,
      file_name: { ...nullableString, description: 'The name of the file the portfolio came from, as submitted (file_name); null when none was given' },
      results_url: string,
      error: { ...nullableString, description: 'Why the job failed; only on status failed' },
      deliveries: {
        type: 'array',
        description: 'Completion webhook attempts, in order',
        items: {
          type: 'object', required: ['number', 'at', 'duration_ms'],
          properties: { number: { type: 'integer' }, at: { type: 'string', format: 'date-time' }, status_code: { type: ['integer', 'null'] }, error: nullableString, duration_ms: { type: 'integer' } },
        },
      },
    },
  };
}

/** One line of GET /api/batch/{id}/results (NDJSON). */
export function batchResultLineJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['index', 'reference', 'ok', 'result', 'error'],
    description: 'One line of the application/x-ndjson stream (or one CSV row with Accept: text/csv or ?format=csv)',
    properties: {
      index: { type: 'integer', description: 'Position in the submission, from 0' },
      reference: { type: ['string', 'null'], description: "The item's reference as submitted (your loan or collateral id); null where none was given" },
      ok: { type: 'boolean' },
      result: { type: ['object', 'null'], description: 'On ok, in snake_case like every REST reply: { address, geocode { lat, lon, precision, district, mahalla }, location_index { composite, complete, renormalised, district, subindexes }, home? (the valuation in the names of POST /api/predict/home\'s reply: estimate, currency, interval, fsd, confidence, anomaly, market_level, with market_adjustment when your organisation\'s observations moved it and market_mixture when a flat was sent without its market) }. GraphQL batchResults gives the same in its camelCase names' },
      error: { type: ['object', 'null'], properties: { code: string, message: string } },
    },
  };
}
