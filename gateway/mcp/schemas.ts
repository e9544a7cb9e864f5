/**
 * The JSON Schemas the MCP tools publish, and how they reach the SDK.
 *
 * Our contracts are JSON Schemas generated from the field tables (schema/*-contract.ts): the REST
 * routes validate with them and OpenAPI publishes them. The SDK's McpServer lists a tool's schemas
 * from zod only, and validates arguments with that zod schema before the tool runs, answering a
 * failure with its own message and no error code. So each schema goes to the SDK as a zod object
 * that accepts any object and carries the JSON Schema as metadata (zod copies metadata into the
 * JSON Schema it emits): agents see the exact contract, and the arguments reach the API's own
 * validation, whose errors carry the catalogue's code and the argument at fault.
 */
import { z } from 'zod';
import { batchRequestJsonSchema, BATCH_HOME_FIELDS } from '../../schema/batch-contract';
import { requestJsonSchema, type FieldSpec } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import { LOCATION_FIELDS, locationFieldsJsonSchema, locationResponseJsonSchema } from '../../schema/location-contract';
import { VEHICLE_FIELDS } from '../../schema/vehicle-contract';
import { batchJobResponseJsonSchema, batchResultLineJsonSchema } from '../operations/response-schemas';

export type JsonSchema = Record<string, unknown>;

/**
 * A reply schema in outline: its fields with their types and which are required, nested objects
 * as `object` without their own fields, no descriptions. Every reply still validates against it.
 */
export function outline(schema: JsonSchema, depth = 1): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'examples' || key === 'example' || key === '$defs') continue;
    if (key === 'properties') {
      if (depth > 0) out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [name, outline(property, depth - 1)]));
    } else if (key === 'required') {
      if (depth > 0) out.required = value;
    } else if (key === 'items' && value && typeof value === 'object') {
      out.items = outline(value as JsonSchema, depth);
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((branch) => outline(branch as JsonSchema, depth));
    } else if (key === 'additionalProperties' || key === '$ref' || key === 'patternProperties') {
      // Deep shapes (subindexes by id, say) are left open.
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A zod object publishing `schema` as it is (see the header); `z.looseObject` keeps every argument for the API to judge. */
export function published(schema: JsonSchema) {
  return z.looseObject({}).meta(schema);
}

/**
 * Tool arguments are the REST routes' snake_case names, with the English alias where the legacy
 * name is Uzbek (qurilish_turi → building_type, mebel → furniture, sanuzel → bathroom): the REST
 * parsers accept both, and an agent follows the English one without our docs.
 */
function toolFields(fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.map(({ restAliases, ...f }) => ({ ...f, rest: restAliases?.[0] ?? f.rest }));
}

/** Legacy REST name → the tool argument name, for the API's error fields and messages. */
export const ARGUMENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  HOME_FIELDS.filter((f) => f.restAliases?.length).map((f) => [f.rest, f.restAliases![0]]),
);

/** Tool arguments name exactly the fields they have: an agent should send nothing else (the API ignores, with a warning, what it does not know). */
function closed(schema: JsonSchema, description?: string): JsonSchema {
  return { ...schema, ...(description && { description }), additionalProperties: false };
}

export const HOME_INPUT = closed(requestJsonSchema(toolFields(HOME_FIELDS)), 'A flat (floor and total_floors required) or a house (property_type house) in Tashkent, in the snake_case names of POST /api/predict/home');

export const VEHICLE_INPUT = closed(requestJsonSchema(VEHICLE_FIELDS), 'A used vehicle, in the snake_case names of POST /api/predict/vehicle');

/** lat with lon, or an address: the rule is stated in the description (some agent frameworks refuse a top-level oneOf). */
export const LOCATION_INPUT = closed(locationFieldsJsonSchema(), 'Either lat and lon (WGS 84 degrees), or an address; not both');

const ADDRESS = { type: 'string', minLength: 1, maxLength: LOCATION_FIELDS.address.maxLength, description: 'A Tashkent address in Russian, Uzbek (Latin or Cyrillic) or English, e.g. "Yunusobod 8 kvartal", "Chilonzor tumani, Qatortol MFY", "ул. Амира Темура 15"', examples: ['Yunusobod 8 kvartal'] };

export const GEOCODE_INPUT = closed({ type: 'object', required: ['address'], properties: { address: ADDRESS } });

export const DISTRICTS_INPUT = closed({
  type: 'object',
  required: [],
  properties: {
    district: { type: 'string', minLength: 1, maxLength: 200, description: 'Only this district, in any common spelling (Chilanzar, Chilonzor tumani, Чиланзарский район); omit for all 12. Unknown: UNKNOWN_DISTRICT with suggestions', examples: ['Chilonzor'] },
    include_mahallas: { type: 'boolean', default: true, description: 'List each district\'s mahallas (default true); false for the districts alone, with mahalla_count' },
  },
});

/** POST /api/batch's body, with the home fields named as value_home names them. */
export const BATCH_INPUT: JsonSchema = (() => {
  const schema = batchRequestJsonSchema() as { properties: { items: { items: { properties: { home: JsonSchema } } } } };
  const item = schema.properties.items.items;
  // The home's fields are value_home's (its schema lists them): repeated here they cost an agent 6 KB of every tools/list.
  item.properties.home = { type: 'object', description: `${item.properties.home.description}. Its fields are value_home's arguments (${BATCH_HOME_FIELDS.map((f) => toolFields([f])[0].rest).join(', ')}), checked as value_home checks them` };
  return closed(schema as unknown as JsonSchema);
})();

export const BATCH_STATUS_INPUT = closed({
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200, description: 'The job id submit_batch returned' },
    results_limit: { type: 'integer', minimum: 0, maximum: 100, default: 0, description: 'Also return up to this many item results (default 0: none)' },
    results_offset: { type: 'integer', minimum: 0, default: 0, description: 'Index of the first item result to return (default 0); a reply\'s results.next_offset is the next page\'s' },
  },
});

export const VALUATION_INPUT = closed({
  type: 'object',
  required: ['valuation_id'],
  properties: { valuation_id: { type: 'string', minLength: 1, maxLength: 60, description: 'The valuation_id a value_home or value_vehicle reply (or a batch result) gave: val_ and 26 letters and digits' } },
});

export const RETRACT_OBSERVATIONS_INPUT = closed({
  type: 'object',
  required: ['ids'],
  properties: { ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 128 }, description: 'Ids record_observations gave (accepted_observations[].id): up to 1,000' } },
});

export const RETRACT_OBSERVATIONS_OUTPUT = {
  type: 'object',
  required: ['retracted', 'retracted_ids', 'not_found'],
  properties: {
    retracted: { type: 'integer', description: 'Observations removed' },
    retracted_ids: { type: 'array', items: { type: 'string' } },
    not_found: { type: 'array', items: { type: 'string' }, description: "Ids your organisation holds no observation under (never recorded, already retracted, or another organisation's)" },
  },
};

/** One observed price as record_observations and submit_backtest take it. */
const OBSERVATION_ITEM = {
  type: 'object',
  required: ['kind', 'price_usd', 'observed_at'],
  properties: {
    kind: { type: 'string', enum: ['home', 'vehicle'] },
    price_usd: { type: 'number', exclusiveMinimum: 0 },
    observed_at: { type: 'string', description: 'YYYY-MM-DD' },
    price_type: { type: 'string', enum: ['sale', 'appraisal', 'listing'] },
    reference: { type: 'string', maxLength: 128 },
  },
};

export const OBSERVATIONS_INPUT = closed({
  type: 'object',
  required: ['observations'],
  properties: {
    observations: {
      type: 'array',
      minItems: 1,
      description: 'Each: kind (home or vehicle), price_usd, observed_at (YYYY-MM-DD), optional price_type (sale, appraisal, listing) and reference, and the arguments of value_home or value_vehicle',
      items: OBSERVATION_ITEM,
    },
  },
});

export const BACKTEST_INPUT = closed({
  type: 'object',
  required: ['kind', 'observations'],
  properties: {
    kind: { type: 'string', enum: ['home', 'vehicle'], description: 'What the prices are of: home (flats and houses) or vehicle' },
    observations: {
      type: 'array',
      minItems: 1,
      description: 'Prices observed on past dates, each as record_observations takes one (its kind may be left out)',
      items: { ...OBSERVATION_ITEM, required: ['price_usd', 'observed_at'] },
    },
  },
});

export const BACKTEST_STATUS_INPUT = closed({
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 200, description: 'The backtest id submit_backtest returned' } },
});

export const MODEL_ACCURACY_INPUT = closed({
  type: 'object',
  required: [],
  properties: {
    kind: { type: 'string', enum: ['residential', 'vehicle'], description: 'residential (flats) or vehicle; omit for both' },
  },
});

// Replies (structuredContent). Where a REST route exists, the reply is that route's body and its
// schema the route's own (the one fastify serialises with); the others are GraphQL's data in
// snake_case. Every reply may carry `warnings` (arguments the API ignored).

const number = { type: 'number' } as const;
const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const point = { type: 'object', required: ['lat', 'lon'], properties: { lat: number, lon: number } } as const;
const warnings = { type: 'array', items: string, description: 'Arguments the API ignored, and other remarks' } as const;

function object(properties: JsonSchema, required: string[] = Object.keys(properties), description?: string): JsonSchema {
  return { type: 'object', ...(description && { description }), required, properties };
}

/** A REST reply schema, plus `warnings` when the route's body has none. */
export function withWarnings(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as JsonSchema;
  return properties.warnings ? schema : { ...schema, properties: { ...properties, warnings } };
}

const MATCHED = object({ district: string, quarter: nullableString, street: nullableString, mahalla: nullableString, mahalla_id: nullableString }, ['district'], 'The elements of the address the point was found by');

export const GEOCODE_OUTPUT = object({
  address: { ...string, description: 'The address as given' },
  lat: number,
  lon: number,
  precision: { type: 'string', enum: ['street', 'quarter', 'mahalla', 'district'], description: 'What the point stands for, most precise first' },
  confidence: { ...number, description: '0–1: how often answers like this land near the truth; orders answers, not a calibrated probability' },
  matched: MATCHED,
  candidates: {
    type: 'array',
    description: 'Other places the address names or may mean, less precise than the answer',
    items: object({ name: string, precision: string, district: string, lat: number, lon: number, confidence: number }),
  },
  warnings,
});

const MAHALLA = object({
  id: { ...string, description: 'Stable id: <district code>/<latin slug>, e.g. chilanzar/katartal' },
  name: { ...string, description: 'Uzbek Latin name: value_home takes it as mahalla' },
  cyrillic: string,
  centre: { anyOf: [point, { type: 'null' }], description: 'From geocoded listings or co-named streets; null when neither exists' },
});

export const DISTRICTS_OUTPUT = object({
  districts: {
    type: 'array',
    items: object({
      name: { ...string, description: 'English name: value_home takes it (or any other spelling) as district' },
      id: { ...string, description: 'District code, e.g. mirzo_ulugbek' },
      names: object({ english: string, uzbek_latin: string, russian: string }),
      centroid: point,
      mahalla_count: integer,
      mahallas: { type: 'array', items: MAHALLA, description: 'Most listed first; absent with include_mahallas false' },
    }, ['name', 'id', 'names', 'centroid', 'mahalla_count']),
  },
  warnings,
});

const METRICS = {
  n: { ...integer, description: 'Held-out sales measured' },
  r2: { type: ['number', 'null'], description: 'null where undefined (fewer than two sales, or one price)' },
  mape: { ...number, description: 'Mean absolute percentage error as a fraction: 0.07 = 7%' },
  median_ape: { ...number, description: 'Median absolute percentage error, a fraction' },
  mae_usd: { ...number, description: 'Mean absolute error, USD' },
  ppe10: { ...number, description: 'Share within ±10%' },
  ppe20: { ...number, description: 'Share within ±20%' },
  interval_coverage: { ...number, description: 'Share of true prices inside the 90% interval' },
  median_interval_width: { ...number, description: 'Median interval width relative to the estimate' },
};
/** Four metrics objects share one definition: the tool list is read by every agent at every connect. */
const metrics = { $ref: '#/$defs/metrics' };
const accuracyClass = { type: 'string', description: 'high, good, fair or low (best first), from its held-out MAPE and R²' } as const;

function modelSchema(partsName: 'districts' | 'groups', part: JsonSchema, description: string, nullable: boolean): JsonSchema {
  const model = object({
    version: string,
    trained_at: { ...string, format: 'date-time' },
    data_snapshot: string,
    evaluation: { ...string, description: 'How the metrics were measured' },
    metrics,
    [partsName]: { type: 'array', items: part },
  }, undefined, description);
  return nullable ? { anyOf: [model, { type: 'null' }], description } : model;
}

export const MODEL_ACCURACY_OUTPUT: JsonSchema = {
  ...object({
    residential: modelSchema('districts', object({ district: string, accuracy_class: accuracyClass, metrics }), 'The residential (flat) model in service; absent when kind is vehicle', false),
    vehicle: modelSchema('groups', object({ group: { ...string, description: 'Make and model, e.g. Chevrolet Cobalt' }, accuracy_class: accuracyClass, metrics }), 'The vehicle model in service; null when none is (see warnings); absent when kind is residential', true),
    live_accuracy: {
      type: 'object',
      description: "On the prices your organisation recorded (record_observations): home and vehicle, each GraphQL's liveAccuracy in snake_case (overall null before any observation)",
      properties: { home: { type: 'object' }, vehicle: { type: 'object' } },
    },
    warnings,
  }, ['live_accuracy', 'warnings']),
  $defs: { metrics: object(METRICS) },
};

/**
 * POST /api/location/index's reply schema with its nine identical subindex schemas defined once
 * and referred to by each subindex, which keeps the tool list short.
 */
export function locationOutput(subindexIds: readonly string[]): JsonSchema {
  const schema = locationResponseJsonSchema(subindexIds) as { properties: { subindexes: { properties: Record<string, JsonSchema> } } };
  const subindexes = schema.properties.subindexes;
  const subindex = subindexes.properties[subindexIds[0]];
  subindexes.properties = Object.fromEntries(subindexIds.map((id) => [id, { $ref: '#/$defs/subindex' }]));
  return { ...(schema as unknown as JsonSchema), $defs: { subindex } };
}

/** GET /api/batch/{id}'s body, with a page of the results stream's lines when asked for. */
export const BATCH_STATUS_OUTPUT: JsonSchema = (() => {
  const job = withWarnings(batchJobResponseJsonSchema());
  const { description: _line, ...line } = batchResultLineJsonSchema();
  const results = object({
    items: { type: 'array', items: line, description: 'Item results in item order, as GET /api/batch/{id}/results streams them' },
    next_offset: { type: ['integer', 'null'], description: 'results_offset of the next page; null when no further result is recorded yet' },
  }, ['items', 'next_offset'], 'Present when results_limit was above 0');
  return { ...job, properties: { ...(job.properties as JsonSchema), results } };
})();

/** How the valuations of a backtest compared with the prices: shares as fractions (0.07 = 7%), null without prices. */
const fraction = (description: string) => ({ type: ['number', 'null'], description });
const BACKTEST_MEASURES = object({
  n: { ...integer, description: 'Prices measured' },
  median_ape: fraction('Median |estimate − price| / price'),
  within_10: fraction('Share within ±10%'),
  median_bias: fraction('Median log(price / estimate): + when the valuations were low'),
  bias_ci95: { anyOf: [object({ low: number, high: number }), { type: 'null' }], description: 'Its distribution-free 95% interval; null below 6 prices' },
  coverage: fraction('Share of prices inside the 90% interval'),
  median_width: fraction('Median (high − low) / estimate'),
});
/** Every comparison's measures share one definition, as the model-accuracy metrics do: the tool list stays short. */
const measures = { $ref: '#/$defs/measures' };

export const BACKTEST_OUTPUT: JsonSchema = {
  ...object({
    id: string,
    kind: { ...string, description: 'home or vehicle' },
    status: { ...string, description: 'queued, running, completed, failed or cancelled' },
    total: { ...integer, description: 'Observations submitted' },
    processed: integer,
    refused: { ...integer, description: 'Observations that could not be scored, left out of the report' },
    error: { ...nullableString, description: 'Why the job failed' },
    report: {
      anyOf: [
        object({
          observations: { ...integer, description: 'Prices replayed' },
          from: nullableString,
          to: nullableString,
          model_versions: { type: 'array', items: string },
          overall: object({ model_alone: measures, reanchored: measures }),
          by_month: { type: 'array', items: object({ month: { ...string, description: 'YYYY-MM' }, model_alone: measures, reanchored: measures }) },
          files: { ...object({ json: string, csv: string, summary_csv: string, pdf: string }), description: 'GET with your key: the full report (by group too), rows, tables, the PDF (&lang=ru|uz)' },
        }),
        { type: 'null' },
      ],
      description: 'Once completed (null before): the model alone and re-anchored on earlier observations, overall and by month',
    },
    warnings,
  }),
  $defs: { measures: BACKTEST_MEASURES },
};
