/**
 * The MCP tools: each a thin translation into the API's GraphQL operations, through the same
 * door-neutral steps as the REST routes (gateway/operations/). Arguments use the REST routes'
 * snake_case names and pass through the same checks (the REST body parsers, or the REST validator
 * on the tool's published schema), so validation, behaviour and errors are the API's. A definition
 * is data plus `run` (arguments → reply) and `summary` (reply → a sentence); registerTools adds
 * the result and error envelopes.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { SUBINDEXES } from '../../models/location';
import { batchFromJson } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import { compileBodyValidator } from '../../schema/rest-validation';
import type { GraphExecutor } from '../graph/executor';
import * as backtests from '../operations/backtest';
import * as batches from '../operations/batch';
import * as home from '../operations/home';
import * as location from '../operations/location';
import * as models from '../operations/model-accuracy';
import * as observations from '../operations/observations';
import { batchAcceptedResponseJsonSchema, homeResponseJsonSchema, vehicleResponseJsonSchema } from '../operations/response-schemas';
import * as valuations from '../operations/valuations';
import * as vehicle from '../operations/vehicle';
import * as replies from './replies';
import { toolError, toolSuccess } from './results';
import * as schemas from './schemas';
import * as summaries from './summaries';

export interface ToolDefinition<TReply extends object = object> {
  name: string;
  title: string;
  description: string;
  input: schemas.JsonSchema;
  output: schemas.JsonSchema;
  annotations: ToolAnnotations;
  /** The API's field names → this tool's argument names, where they differ. */
  argumentNames?: Readonly<Record<string, string>>;
  run(args: Record<string, unknown>, executor: GraphExecutor): Promise<TReply>;
  summary(reply: TReply): string;
}

/** Reads only; asking twice changes nothing; the answer comes from this service alone. */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

const CURRENCY_NOTE = 'currency UZS answers in soʻm, converted at the Central Bank of Uzbekistan\'s official USD rate of the valuation date (or the newest it published before, on a weekend or holiday): exchange_rate in the reply names the rate, its day and which rate it is. A date past the service\'s official rates is converted at the last published one, and a warning says it is not the rate of that date; a date before them at the service\'s monthly table of CBU rates. exchange_rate (soʻm per USD, with currency UZS only) converts at your own rate instead, named as yours in the reply and kept with the valuation. asking_price stays in USD.';

const CONVENTIONS = 'Arguments use the snake_case names of the REST API. On failure the tool returns isError with the API\'s error code first (e.g. INVALID_PARAMETER, MISSING_PARAMETER, RATE_LIMITED), the argument at fault, and the error as JSON.';

// Tools without a REST body parser check their arguments against their published schema as the
// REST routes check a body: the API's codes and phrasing, unknown arguments ignored with a
// warning, personal data refused.
const validateLocation = compileBodyValidator(schemas.LOCATION_INPUT);
const validateGeocode = compileBodyValidator(schemas.GEOCODE_INPUT);
const validateDistricts = compileBodyValidator(schemas.DISTRICTS_INPUT);
const validateBatchStatus = compileBodyValidator(schemas.BATCH_STATUS_INPUT);
const validateModelAccuracy = compileBodyValidator(schemas.MODEL_ACCURACY_INPUT);
const validateValuation = compileBodyValidator(schemas.VALUATION_INPUT);
const validateBacktestStatus = compileBodyValidator(schemas.BACKTEST_STATUS_INPUT);
const validateRetract = compileBodyValidator(schemas.RETRACT_OBSERVATIONS_INPUT);

const valueHome: ToolDefinition<home.HomeReply> = {
  name: 'value_home',
  title: 'Value a flat or house in Tashkent',
  description: [
    'Value a flat (apartment) or a private house with its plot in Tashkent city as loan collateral: its market value in USD (or in soʻm with currency UZS) with a calibrated 90% prediction interval, a confidence level (high, medium or low), each ensemble model\'s estimate, and anomaly checks against the district and mahalla medians (flags say when to look twice).',
    'A flat (property_type apartment, the default) requires district, area (m²), rooms, floor, total_floors. District, mahalla, renovation, building_type and bathroom accept English, Uzbek (Latin or Cyrillic) and Russian spellings; an unknown district fails with UNKNOWN_DISTRICT and suggestions, an unknown mahalla falls back to the district with a warning.',
    'A house (property_type house, or hovli, xususiy uy, частный дом, дом, коттедж, дача) requires district, area (floor area, m²) and rooms; send land_area (the plot in sotka, 1 sotka = 100 m²) or land_area_m2, total_floors (storeys, 1 to 5), gas, water and sewerage where known. Without the plot it is valued with a wider interval and a warning; the reply adds land_price_per_sotka and anomaly.land_share. A house in a district with too few house listings fails with INSUFFICIENT_MARKET_DATA: then do not guess a value.',
    'valuation_date (YYYY-MM-DD, default today) values the flat at another date: market_level in the reply says how many months past the newest market data that is and the allowance the interval makes for market moves since.',
    'A flat without market (new or resale) is valued as both, weighed by the probability that a flat like it is a new build: market_mixture in the reply gives that probability and its valuation as each (null when market is given, and for a house). Send market when it is known.',
    CURRENCY_NOTE,
    'Only an address? Call geocode_address first and use its matched district and mahalla. Send no personal data (names, phone numbers): it is refused with PERSONAL_DATA_NOT_ACCEPTED.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.HOME_INPUT,
  output: homeResponseJsonSchema(),
  annotations: READ_ONLY,
  argumentNames: schemas.ARGUMENT_NAMES,
  run: (args, executor) => home.valueHome(executor, args),
  summary: summaries.homeSummary,
};

const valueVehicle: ToolDefinition<vehicle.VehicleReply> = {
  name: 'value_vehicle',
  title: 'Value a used vehicle',
  description: [
    'Value a used car, van or truck sold in Uzbekistan as loan collateral: market value in USD (or in soʻm with currency UZS) with a calibrated 90% prediction interval, a confidence level, each ensemble model\'s estimate, the catalogue\'s name for the vehicle, and anomaly checks against the same make, model and year (market_listings says how much market data backs the estimate).',
    'Required: make, model, year; the rest sharpens the estimate. Names accept English, Uzbek and Russian spellings (Шевроле → Chevrolet) and avtoelon.uz\'s own words: the trim in the model ("Cobalt, 4 pozitsiya EVRO"), engine as "1.5 (Benzin)", paint ("Kraska toza", "Pyatno bor", "Kraskasi bor", "To\'liq kraskalangan"), colour ("Oq"). An optional value that is not recognised is ignored with a warning. The reply\'s vehicle says what was understood (catalogue names and codes), basis what the estimate stands on (model, make or segment) and market_level how old the market data is; valuation_date (YYYY-MM-DD, default today) values the car at another date.',
    CURRENCY_NOTE,
    'An unknown make, or a misspelt model, fails with UNKNOWN_VEHICLE and suggestions (Toyta → Toyota): ask, or retry with a suggestion. A model of a known make that the catalogue does not list is valued on the make\'s level with a wider interval and a warning (vehicle.model null). A make and model with too little market data and no body_type fails with INSUFFICIENT_MARKET_DATA, whose message says what would value it: if you know the body type, retry with body_type (valued on its segment\'s level, with a wider interval); otherwise do not guess a value. No VIN or number plate.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.VEHICLE_INPUT,
  output: vehicleResponseJsonSchema(),
  annotations: READ_ONLY,
  run: (args, executor) => vehicle.valueVehicle(executor, args),
  summary: summaries.vehicleSummary,
};

const locationIndex: ToolDefinition<location.LocationReply> = {
  name: 'location_index',
  title: 'Location index of a Tashkent place',
  description: [
    `How good a Tashkent location is for collateral: nine subindexes (${SUBINDEXES.join(', ')}), each 0–100 on an absolute scale, their weighted composite, and the data layers behind them with coverage flags (with partial coverage a score is a lower bound).`,
    'Give lat and lon (WGS 84 degrees; Tashkent is at about 41.2–41.4 N, 69.1–69.4 E), or instead an address, which is geocoded first (the reply then adds geocoded: the point, its precision and what matched).',
    'Outside the city: OUTSIDE_TASHKENT (the message says when lat and lon look swapped); an address that cannot be placed: UNRESOLVABLE_ADDRESS with suggestions.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.LOCATION_INPUT,
  output: schemas.locationOutput(SUBINDEXES),
  annotations: READ_ONLY,
  async run(args, executor) {
    const { body, warnings } = validateLocation(args);
    return location.locationIndexOf(executor, body, warnings);
  },
  summary: summaries.locationSummary,
};

const geocodeAddress: ToolDefinition<replies.GeocodeReply> = {
  name: 'geocode_address',
  title: 'Place a Tashkent address',
  description: [
    'Place a Tashkent address on the map: its point, the precision of the answer (street, quarter, mahalla or district, most precise first), a confidence from 0 to 1 (it orders answers; it is not a calibrated probability), the district, massif quarter, street and mahalla it matched, and less precise candidates.',
    'Pass the matched district and mahalla to value_home. An address that cannot be placed: UNRESOLVABLE_ADDRESS with suggestions.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.GEOCODE_INPUT,
  output: schemas.GEOCODE_OUTPUT,
  annotations: READ_ONLY,
  async run(args, executor) {
    const { body, warnings } = validateGeocode(args);
    return replies.geocodeReply(await executor.execute(location.GEOCODE_OPERATION, { address: body.address }), warnings);
  },
  summary: summaries.geocodeSummary,
};

const listDistricts: ToolDefinition<replies.DistrictsReply> = {
  name: 'list_districts',
  title: 'Districts and mahallas of Tashkent',
  description: [
    'The 12 districts of Tashkent city with their names in English, Uzbek (Latin) and Russian, their centroid, and their mahallas (neighbourhood communities: id, Uzbek Latin and Cyrillic names, centre), most listed first.',
    'Pass district (any spelling) for one district, include_mahallas false for the districts alone. The names are the ones value_home takes as district and mahalla. An unknown district: UNKNOWN_DISTRICT with suggestions.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.DISTRICTS_INPUT,
  output: schemas.DISTRICTS_OUTPUT,
  annotations: READ_ONLY,
  argumentNames: { name: 'district' },
  async run(args, executor) {
    const { body, warnings } = validateDistricts(args);
    const withMahallas = body.include_mahallas !== false;
    if (body.district === undefined) {
      const data = await executor.execute<{ districts: location.DistrictData[] }>(location.DISTRICTS_OPERATION, { withMahallas });
      return replies.districtsReply(data.districts, withMahallas, warnings);
    }
    const data = await executor.execute<{ district: location.DistrictData | null }>(location.DISTRICT_OPERATION, { name: body.district, withMahallas });
    if (!data.district) throw new ApiError('UNKNOWN_DISTRICT', `Unknown district "${String(body.district).slice(0, 60)}"`, 'district');
    return replies.districtsReply([data.district], withMahallas, warnings);
  },
  summary: summaries.districtsSummary,
};

const submitBatch: ToolDefinition<replies.BatchAcceptedReply> = {
  name: 'submit_batch',
  title: 'Submit a portfolio for background valuation',
  description: [
    'Queue a portfolio of Tashkent addresses, optionally with the flat at each, for background valuation: each item is geocoded, scored with the location index and, with home, valued; one bad item never fails the job (it gets its own error).',
    'Returns the job id at once: follow the job with get_batch_status, which also pages through the results. home takes value_home\'s arguments except district and mahalla, which come from the geocoded address (a flat needs area, rooms, floor and total_floors for a valuation; a house, property_type house, needs area and rooms).',
    'More items than the plan allows: INVALID_PARAMETER on items. callback_url (public https) receives a signed batch.completed webhook when the job ends. Every call creates a new job.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.BATCH_INPUT,
  output: schemas.withWarnings(batchAcceptedResponseJsonSchema()),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  argumentNames: schemas.ARGUMENT_NAMES,
  async run(args, executor) {
    return replies.batchAcceptedReply(await batches.submitBatch(executor, batchFromJson(args)), []);
  },
  summary: summaries.batchAcceptedSummary,
};

const getBatchStatus: ToolDefinition<replies.BatchStatusReply> = {
  name: 'get_batch_status',
  title: 'Status and results of a batch job',
  description: [
    'Status and progress of one of your organisation\'s batch jobs (queued → running → completed | failed | cancelled): items processed, succeeded and failed, timestamps, webhook delivery attempts.',
    'With results_limit (1–100) the reply also has a page of item results in item order from results_offset: each { index, ok, result, error }; results.next_offset is where the next page starts (null when no further result is recorded yet, e.g. while the job runs).',
    'An unknown id, or another organisation\'s: NOT_FOUND.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.BATCH_STATUS_INPUT,
  output: schemas.BATCH_STATUS_OUTPUT,
  annotations: READ_ONLY,
  async run(args, executor) {
    const { body, warnings } = validateBatchStatus(args);
    const id = body.id as string;
    const job = await batches.batchJobOf(executor, id);
    const limit = (body.results_limit as number | undefined) ?? 0;
    const results = limit > 0 ? await batches.batchResultsPage(executor, id, (body.results_offset as number | undefined) ?? 0, limit) : null;
    return replies.batchStatusReply(job, results, warnings);
  },
  summary: summaries.batchStatusSummary,
};

const getModelAccuracy: ToolDefinition<replies.ModelAccuracyReply> = {
  name: 'get_model_accuracy',
  title: 'Accuracy of the valuation models',
  description: [
    'How accurate the valuation models in service are on sales they never saw: version, training date, data snapshot, how they were evaluated, and held-out metrics: n, r2, mape and median_ape as fractions (0.07 = 7%), mae_usd, ppe10 and ppe20 (share within ±10% and ±20%), interval_coverage (share of true prices inside the 90% interval), median_interval_width.',
    'Residential (flats): overall and per district, each with an accuracy class (high, good, fair, low; best first); vehicle: overall and per make/model group. kind: residential or vehicle; omit it for both (vehicle is null, with a warning, when no vehicle model is in service).',
    'Quote the district\'s accuracy class beside a flat\'s valuation.',
    'live_accuracy: on the prices your organisation recorded with record_observations, how the valuations it was given compared (median_ape, mean_bias as log(price / valuation) with its 95% interval, coverage with its Wilson interval, the model alone beside it) and the drift flags (drift_rule says when they are raised); overall is null before any observation.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.MODEL_ACCURACY_INPUT,
  output: schemas.MODEL_ACCURACY_OUTPUT,
  annotations: READ_ONLY,
  async run(args, executor) {
    const { body, warnings } = validateModelAccuracy(args);
    const kind = body.kind as 'residential' | 'vehicle' | undefined;
    const liveAccuracy = async (observationKind: 'HOME' | 'VEHICLE') =>
      (await executor.execute<{ liveAccuracy: observations.LiveAccuracyData }>(observations.LIVE_ACCURACY_OPERATION, { kind: observationKind })).liveAccuracy;
    const live = {
      ...(kind !== 'vehicle' && { home: await liveAccuracy('HOME') }),
      ...(kind !== 'residential' && { vehicle: await liveAccuracy('VEHICLE') }),
    };
    const residential = kind === 'vehicle' ? undefined : (await executor.execute<models.ResidentialModelData>(models.RESIDENTIAL_MODEL_OPERATION, {})).residentialModel;
    if (kind === 'residential') return replies.modelAccuracyReply({ residential }, live, warnings);
    try {
      const vehicle = (await executor.execute<models.VehicleModelData>(models.VEHICLE_MODEL_OPERATION, {})).vehicleModel;
      return replies.modelAccuracyReply({ residential, vehicle }, live, warnings);
    } catch (error) {
      // Asked for both: a service without a vehicle model still answers for flats.
      if (kind === undefined && error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') {
        return replies.modelAccuracyReply({ residential, vehicle: null }, live, [...warnings, `vehicle model: ${error.message}`]);
      }
      throw error;
    }
  },
  summary: summaries.modelAccuracySummary,
};

const recordObservations: ToolDefinition<observations.RecordedObservationsReply> = {
  name: 'record_observations',
  title: 'Record prices your organisation observed',
  description: [
    'Record prices your organisation observed (sales it financed, appraisals it commissioned, listings it watches): each item is value_home\'s or value_vehicle\'s arguments with kind (home or vehicle), price_usd, observed_at (YYYY-MM-DD, not in the future) and optionally price_type (sale, appraisal or listing; default listing) and reference (your own id, no personal data).',
    'Each is scored against the model at observed_at and kept for your organisation only; your later valuations of the same kind are re-anchored on them (their market_adjustment says by how much and on what), and get_model_accuracy reports live accuracy on them. A bad item is refused in its place (rejected, with its error); the others are kept. Up to the plan\'s batch size per call.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.OBSERVATIONS_INPUT,
  output: schemas.withWarnings(observations.RECORDED_OBSERVATIONS_SCHEMA),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, executor) => observations.recordObservationsBody(executor, args),
  summary: summaries.recordedObservationsSummary,
};

const retractObservations: ToolDefinition<replies.RetractedObservationsReply> = {
  name: 'retract_observations',
  title: 'Retract prices your organisation recorded',
  description: [
    'Remove observations record_observations kept, by the ids it gave (accepted_observations[].id), up to 1,000 at once: your organisation\'s market factors and intervals are re-fitted without them at once, so your valuations are as if they had never been recorded. Use it for prices recorded by mistake (in thousands, per m², of another property).',
    'Ids your organisation holds no observation under (never recorded, already retracted, or another organisation\'s) come back in not_found.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.RETRACT_OBSERVATIONS_INPUT,
  output: schemas.withWarnings(schemas.RETRACT_OBSERVATIONS_OUTPUT),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, executor) {
    const { body, warnings } = validateRetract(args);
    const r = await observations.retractObservations(executor, body.ids as string[]);
    return { retracted: r.retracted, retracted_ids: r.retractedIds, not_found: r.notFound, warnings };
  },
  summary: summaries.retractedObservationsSummary,
};

const getValuation: ToolDefinition<replies.ValuationRecordReply> = {
  name: 'get_valuation',
  title: 'A recorded valuation',
  description: [
    'One of your organisation\'s valuations as it was given, by the valuation_id its reply carried: the request as the service understood it, the reply (estimate, interval, confidence, anomaly flags, market level, market adjustment, currency), the model version, when it was made and until when it is kept.',
    'The summary names its printable report (GET /api/valuations/{id}/report, PDF or HTML, in English, Russian or Uzbek). Another organisation\'s id, or one past its retention: NOT_FOUND.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.VALUATION_INPUT,
  output: schemas.withWarnings(valuations.VALUATION_RECORD_SCHEMA),
  annotations: READ_ONLY,
  argumentNames: { id: 'valuation_id' },
  async run(args, executor) {
    const { body, warnings } = validateValuation(args);
    const id = body.valuation_id as string;
    const valuation = await valuations.valuationRecordOf(executor, id);
    if (!valuation) throw new ApiError('NOT_FOUND', `no valuation ${id.slice(0, 60)} of your organisation`, 'valuation_id');
    return { ...valuations.toRecordRest(valuation), warnings };
  },
  summary: summaries.valuationRecordSummary,
};

const submitBacktest: ToolDefinition<replies.BacktestAcceptedReply> = {
  name: 'submit_backtest',
  title: 'Backtest the model on prices your organisation observed',
  description: [
    'Replay prices your organisation observed on past dates (items as record_observations takes them, all of one kind) against the model in service: each valued at its own date with the model alone and re-anchored on your observations from before that date only. Nothing is kept.',
    'Returns the backtest id at once: follow it with get_backtest. A bad item is refused in its place; the others go on. Up to the plan\'s batch size.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.BACKTEST_INPUT,
  output: schemas.withWarnings(backtests.BACKTEST_ACCEPTED_SCHEMA),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, executor) {
    return replies.backtestAcceptedReply(await backtests.submitBacktestBody(executor, backtests.backtestKind(args.kind), args), []);
  },
  summary: summaries.backtestAcceptedSummary,
};

const getBacktest: ToolDefinition<replies.BacktestReply> = {
  name: 'get_backtest',
  title: 'Status and report of a backtest',
  description: [
    'One of your organisation\'s backtests: status and progress while it runs; once completed, median APE, share within ±10%, median bias (log(price / estimate)) with its 95% interval, 90% coverage and median width, overall and by month, for the model alone and re-anchored, and where the full report, CSV and PDF are.',
    'An unknown id, or another organisation\'s: NOT_FOUND.',
    CONVENTIONS,
  ].join(' '),
  input: schemas.BACKTEST_STATUS_INPUT,
  output: schemas.BACKTEST_OUTPUT,
  annotations: READ_ONLY,
  async run(args, executor) {
    const { body, warnings } = validateBacktestStatus(args);
    const id = body.id as string;
    return replies.backtestReply(await backtests.backtestOf(executor, id, true), warnings);
  },
  summary: summaries.backtestSummary,
};

export const TOOLS: readonly ToolDefinition[] = [valueHome, valueVehicle, locationIndex, geocodeAddress, listDistricts, submitBatch, getBatchStatus, getModelAccuracy, recordObservations, retractObservations, getValuation, submitBacktest, getBacktest] as ToolDefinition[];

export interface ToolDeps {
  executor: GraphExecutor;
  log(message: string): void;
  /** The HTTP request's id, echoed in error bodies (in the gateway). */
  requestId?: string;
}

/**
 * The SDK's view of each definition's schemas, built once: servers are made per request. Replies
 * are published in outline (their fields and types, one level deep, issue 35): the full reply
 * schemas made tools/list 78 KB, half of an agent's context budget for tools; each reply is the
 * REST route's JSON, described field by field in /openapi.json.
 */
const PUBLISHED = new Map(TOOLS.map((tool) => [tool.name, { inputSchema: schemas.published(tool.input), outputSchema: schemas.published(schemas.outline(tool.output)) }]));

export function registerTools(server: McpServer, deps: ToolDeps): void {
  for (const tool of TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, annotations: tool.annotations, ...PUBLISHED.get(tool.name)! }, async (args) => {
      try {
        const reply = await tool.run(args, deps.executor);
        return toolSuccess(reply, tool.summary(reply));
      } catch (error) {
        return toolError(error, { argumentNames: tool.argumentNames, requestId: deps.requestId, log: deps.log });
      }
    });
  }
}
