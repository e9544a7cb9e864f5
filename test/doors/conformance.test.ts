/**
 * Door conformance (issue 36, item 4): every operation that REST, GraphQL and MCP all offer gives
 * the same answer and the same errors on each door, on the worker's shared stack. Two tables drive
 * it: DOORS (how each door is asked and how its answer or error is read) and OPERATIONS (what each
 * door is asked for one operation). A new door is one entry of DOORS, a new operation one entry of
 * OPERATIONS, a new bad input one line of its operation's `refused`.
 *
 * Answers are compared value by value, not shape by shape: each is flattened to leaf paths in
 * snake_case (REST and MCP speak it, GraphQL camelCase), ids and timestamps aside. MCP replies are
 * REST bodies, so every REST leaf must be there with its value; GraphQL answers what the operation's
 * selection asks, so every leaf both have must agree and the operation's `compared` leaves must be
 * among them. A bad input must give the same catalogue code on each door and name the same field,
 * in that door's words (an MCP tool may name an argument otherwise, list_districts' district).
 *
 * "No such object" is said in each door's own idiom: REST 404 NOT_FOUND, an MCP NOT_FOUND tool error,
 * and on GraphQL a null lookup field without an error (a nullable field is GraphQL's way to say it,
 * and clients test for null). An operation that looks an object up names its id field
 * (`graphql.notFound`), and the GraphQL door reads null there as NOT_FOUND on that field.
 *
 * Not here, because one door does not offer them: the market index (GraphQL only), geocoding an
 * address alone, the district list and the models' accuracy (GraphQL and MCP, no REST route), the
 * list, sample, revaluation and report of recorded valuations and batch results (REST and GraphQL).
 */
import { SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

const fixture = useSharedTestStack();

type Input = Record<string, unknown>;
/** A door's outcome: an answer flattened to snake_case leaves, or the catalogue code and field of its error. */
type Outcome = { answer: Record<string, unknown> } | { error: { code: string; field?: string } };

/** How one operation is asked on each door, and what of its answer is compared. */
interface Operation {
  name: string;
  /** A good input, in the REST route's words (snake_case): what each door is asked in `answers`. */
  good: () => Input;
  rest(input: Input): { method: 'GET' | 'POST'; path: string; body?: Input };
  graphql: {
    query: string;
    variables(input: Input): Input;
    /** The answer in the data (null: none). */
    answer(data: Record<string, unknown>): unknown;
    /** A lookup by this input field: a null answer is GraphQL's "no such object", read as NOT_FOUND on it (see the header). */
    notFound?: string;
  };
  mcp: { tool: string; args(input: Input): Input; /** REST field → the tool's argument, where they differ. */ fields?: Record<string, string> };
  /** Snake_case GraphQL leaf paths → the REST path of the same value, where the names differ. */
  renames?: Record<string, string>;
  /** Leaves GraphQL must answer with the REST value (beyond "every leaf both have agrees"). */
  compared: readonly string[];
  /** Leaves of this operation that change between two asks (beyond ids and timestamps), left out of the comparison. */
  volatile?: readonly string[];
  /** Bad inputs: what breaks the good one, and the error every door must give. */
  refused: readonly Refusal[];
}

interface Refusal {
  label: string;
  input: (good: Input) => Input;
  code: string;
  /** The input field at fault, in REST's words; absent when the error names none. */
  field?: string;
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** REST words → GraphQL's: camelCase keys (an input's keys only; values as they are). */
const camelKeys = (input: Input): Input => Object.fromEntries(Object.entries(input).map(([k, v]) => [camel(k), v]));
const without = (input: Input, key: string): Input => Object.fromEntries(Object.entries(input).filter(([k]) => k !== key));

/** Leaves that differ on every call by nature: each call is a valuation, a request, of its own. */
const VOLATILE = /(^|\.)(valuation_id|valued_at|request_id|id|created_at|keep_until|results_url)$/;

/** Flattens an answer to its leaves, keys in snake_case ("interval.low", "models.0.name"). */
function leaves(value: unknown, path = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) out[path] = Array.isArray(value) ? [] : {};
    for (const [key, child] of entries) leaves(child, path ? `${path}.${snake(key)}` : snake(key), out);
  } else if (!VOLATILE.test(path)) {
    out[path] = value;
  }
  return out;
}

/** Equal leaves (an empty list or object is a leaf); GraphQL enum values are upper-case words (HOME), REST's the same words in lower case. */
const sameValue = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b)) || (typeof a === 'string' && typeof b === 'string' && /^[A-Za-z_]+$/.test(a) && a.toLowerCase() === b.toLowerCase());

interface Door {
  name: 'REST' | 'GraphQL' | 'MCP';
  ask(operation: Operation, input: Input): Promise<Outcome>;
  /** The name this door gives an input field REST calls `field`. */
  field(operation: Operation, field: string): string;
}

const DOORS: readonly Door[] = [
  {
    name: 'REST',
    async ask(operation, input) {
      const { method, path, body } = operation.rest(input);
      const response = method === 'GET' ? await fixture.stack.fetch(path, { headers: { 'x-api-key': fixture.key } }) : await fixture.post(path, body);
      const reply = await json(response);
      if (response.ok) return { answer: leaves(reply) };
      expect(response.status).toBeGreaterThanOrEqual(400);
      return { error: { code: reply.error.code, field: reply.error.field } };
    },
    field: (_operation, field) => field,
  },
  {
    name: 'GraphQL',
    async ask(operation, input) {
      const response = await fixture.post('/graphql', { query: operation.graphql.query, variables: operation.graphql.variables(input) });
      const reply = await json(response);
      if (reply.errors?.length) return { error: { code: reply.errors[0].extensions.code, field: reply.errors[0].extensions.field } };
      const answer = operation.graphql.answer(reply.data);
      if (answer === null) return { error: operation.graphql.notFound ? { code: 'NOT_FOUND', field: operation.graphql.notFound } : { code: 'NO_ANSWER (data null, no error)' } };
      const renamed: Record<string, unknown> = {};
      for (const [path, value] of Object.entries(leaves(answer))) renamed[renamePath(path, operation.renames ?? {})] = value;
      return { answer: renamed };
    },
    field: (_operation, field) => field,
  },
  {
    name: 'MCP',
    async ask(operation, input) {
      const response = await fixture.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: operation.mcp.tool, arguments: operation.mcp.args(input) } }, { accept: 'application/json, text/event-stream' });
      expect(response.status).toBe(200);
      const { result } = await json(response);
      if (!result.isError) return { answer: leaves(result.structuredContent) };
      const text: string = result.content[0].text;
      const { error } = JSON.parse(text.slice(text.indexOf('\n') + 1));
      return { error: { code: error.code, field: error.field } };
    },
    field: (operation, field) => operation.mcp.fields?.[field] ?? field,
  },
];

function renamePath(path: string, renames: Record<string, string>): string {
  for (const [from, to] of Object.entries(renames)) if (path === from || path.startsWith(`${from}.`)) return to + path.slice(from.length);
  return path;
}

const HOME_SELECTION = `
  propertyType estimate currency pricePerM2 landPricePerSotka interval { low high coverage } fsd
  confidence { level score drivers } models { name estimate weight }
  anomaly { districtMedianPricePerM2 deviationFromDistrictMedian mahallaMedianPricePerM2 deviationFromMahallaMedian districtMedianPricePerSotka deviationFromDistrictMedianPerSotka landShare modelSpread flags }
  location { districtName mahallaName mahallaId matched }
  marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening }
  marketMixture { newBuildProbability }
  modelVersion warnings`;
const HOME_RENAMES = { 'location.district_name': 'location.district', 'location.mahalla_name': 'location.mahalla' };
const HOME_COMPARED = ['property_type', 'estimate', 'price_per_m2', 'interval.low', 'interval.high', 'interval.coverage', 'fsd', 'confidence.level', 'confidence.score', 'models.0.estimate', 'anomaly.model_spread', 'location.district', 'market_level.valuation_date', 'model_version'];

const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, total_floors: 9, renovation: 'Evro', market: 'resale' };

/** The bad inputs of a home valuation, flat or house alike. */
const homeRefusals = (): Refusal[] => [
  { label: 'an unknown district', input: (good) => ({ ...good, district: 'Atlantis' }), code: 'UNKNOWN_DISTRICT', field: 'district' },
  { label: 'an area out of range', input: (good) => ({ ...good, area: 5 }), code: 'INVALID_PARAMETER', field: 'area' },
  { label: 'a phone number in a field', input: (good) => ({ ...good, mahalla: '+998 90 123 45 67' }), code: 'PERSONAL_DATA_NOT_ACCEPTED', field: 'mahalla' },
  {
    label: 'a personal data field', input: (good) => ({ ...good, phone: '+998901234567' }), code: 'PERSONAL_DATA_NOT_ACCEPTED', field: 'phone',
  },
  {
    label: 'a missing required field', input: (good) => without(good, 'area'), code: 'MISSING_PARAMETER', field: 'area',
  },
  { label: 'an unknown word for market', input: (good) => ({ ...good, market: 'second-hand-ish' }), code: 'INVALID_PARAMETER', field: 'market' },
  {
    label: 'an unknown enum word (currency)', input: (good) => ({ ...good, currency: 'EUR' }), code: 'INVALID_PARAMETER', field: 'currency',
  },
];

const LOCATION_INDEX_SELECTION = 'lat lon district { id name } composite { score complete renormalised missing } subindexes { id name score weight coverage complete }';
const LOCATION_COMPARED = ['lat', 'lon', 'district.name', 'composite.score', 'composite.complete', 'subindexes.transport.score', 'subindexes.transport.weight', 'subindexes.transport.coverage', 'subindexes.education.score', 'subindexes.green.score'];

interface LocationIndexAnswer { subindexes: Array<{ id: string }> }
/** REST keys the subindexes by id; GraphQL lists them. */
function keyedSubindexes({ subindexes, ...index }: LocationIndexAnswer) {
  return { ...index, subindexes: Object.fromEntries(subindexes.map(({ id, ...subindex }) => [id, subindex])) };
}

interface GeocodeAnswer {
  address: string; lat: number; lon: number; precision: string; confidence: number;
  matched: { district: { name: string } | null; quarter: string | null; street: string | null; mahalla: { id: string; name: string } | null };
  locationIndex: LocationIndexAnswer;
}

const BATCH_JOB_SELECTION = 'id status total processed succeeded failed chunkSize createdAt startedAt completedAt callbackUrl fileName resultsUrl error deliveries { number at statusCode error durationMs }';
/** One item of a portfolio, in REST's words; GraphQL's home is in camelCase. */
const BATCH_ITEM = { address: 'Chilonzor tumani, Qatortol MFY', home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } };
const batchItems = (input: Input) => ({ ...input, items: (input.items as Input[]).map((item) => (item.home ? { ...item, home: camelKeys(item.home as Input) } : item)) });

/** A home valuation, flat or house: POST /api/predict/home, homeValuation, value_home. */
function homeValuation(name: string, good: Input, compared: readonly string[], refused: readonly Refusal[]): Operation {
  return {
    name,
    good: () => good,
    rest: (body) => ({ method: 'POST', path: '/api/predict/home', body }),
    graphql: { query: `query($input: HomeValuationInput!) { homeValuation(input: $input) { ${HOME_SELECTION} } }`, variables: (input) => ({ input: camelKeys(input) }), answer: (data) => data.homeValuation },
    mcp: { tool: 'value_home', args: (input) => input },
    renames: HOME_RENAMES,
    compared: [...HOME_COMPARED, ...compared],
    refused,
  };
}

/** A flat's price the organisation observed, in REST's words; GraphQL takes the home apart, in its own names. */
const OBSERVED_FLAT = { kind: 'home', district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, price_usd: 70_000, observed_at: '2026-01-15', price_type: 'sale', reference: 'loan-1' };
function observationInput({ kind, price_usd: priceUsd, observed_at: observedAt, price_type: priceType, reference, ...home }: Input): Input {
  return { kind: String(kind).toUpperCase(), home: camelKeys(home), priceUsd, observedAt, priceType: String(priceType).toUpperCase(), reference };
}

const OPERATIONS: readonly Operation[] = [
  homeValuation('value a flat', FLAT, ['location.mahalla', 'anomaly.mahalla_median_price_per_m2'], homeRefusals()),
  homeValuation('value a house', SAMPLE_HOUSE_REQUEST, ['land_price_per_sotka', 'anomaly.land_share'], [
    ...homeRefusals().filter((r) => r.field !== 'market'),
    { label: 'a plot out of range', input: (good) => ({ ...good, land_area: 500 }), code: 'INVALID_PARAMETER', field: 'land_area' },
  ]),
  {
    name: 'value a vehicle',
    good: () => SAMPLE_VEHICLE_REQUEST,
    rest: (body) => ({ method: 'POST', path: '/api/predict/vehicle', body }),
    graphql: {
      query: `query($input: VehicleValuationInput!) { vehicleValuation(input: $input) {
        estimate currency interval { low high coverage } fsd confidence { level score drivers } models { name estimate weight }
        anomaly { groupMedianPrice deviationFromGroupMedian marketListings modelSpread flags }
        vehicle { make model year trim engine fuel transmission bodyType drive region condition paint colour } basis
        marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening } modelVersion warnings } }`,
      variables: (input) => ({ input: camelKeys(input) }),
      answer: (data) => data.vehicleValuation,
    },
    mcp: { tool: 'value_vehicle', args: (input) => input },
    compared: ['estimate', 'interval.low', 'interval.high', 'fsd', 'confidence.level', 'models.0.estimate', 'anomaly.market_listings', 'vehicle.make', 'vehicle.model', 'vehicle.body_type', 'basis', 'market_level.newest_data_period', 'model_version'],
    refused: [
      { label: 'an unknown make', input: (good) => ({ ...good, make: 'Toyta' }), code: 'UNKNOWN_VEHICLE', field: 'make' },
      { label: 'a year out of range', input: (good) => ({ ...good, year: 1900 }), code: 'INVALID_PARAMETER', field: 'year' },
      {
        label: 'a personal data field (VIN)', input: (good) => ({ ...good, vin: 'XWB3L32CD8A123456' }), code: 'PERSONAL_DATA_NOT_ACCEPTED', field: 'vin',
      },
      {
        label: 'a missing required field', input: (good) => without(good, 'model'), code: 'MISSING_PARAMETER', field: 'model',
      },
    ],
  },
  {
    name: 'location score of a place',
    good: () => ({ lat: 41.2995, lon: 69.2401 }),
    rest: (body) => ({ method: 'POST', path: '/api/location/index', body }),
    graphql: {
      query: `query($lat: Float!, $lon: Float!) { locationIndex(lat: $lat, lon: $lon) { ${LOCATION_INDEX_SELECTION} } }`,
      variables: (input) => input,
      answer: (data) => keyedSubindexes(data.locationIndex as LocationIndexAnswer),
    },
    mcp: { tool: 'location_index', args: (input) => input },
    compared: LOCATION_COMPARED,
    refused: [
      { label: 'a point outside Tashkent', input: () => ({ lat: 0, lon: 0 }), code: 'OUTSIDE_TASHKENT' },
      { label: 'a latitude out of range', input: (good) => ({ ...good, lat: 141.3 }), code: 'INVALID_PARAMETER', field: 'lat' },
    ],
  },
  {
    name: 'location score of an address',
    good: () => ({ address: 'Chilonzor tumani, Qatortol MFY' }),
    rest: (body) => ({ method: 'POST', path: '/api/location/index', body }),
    graphql: {
      query: `query($address: String!) { geocode(address: $address) {
        address lat lon precision confidence matched { district { name } quarter street mahalla { id name } }
        locationIndex { ${LOCATION_INDEX_SELECTION} } } }`,
      variables: (input) => input,
      // REST answers the index with what was geocoded beside it; GraphQL the geocode with its index inside.
      answer: (data) => {
        const { locationIndex, matched, ...geocoded } = data.geocode as GeocodeAnswer;
        const { district, mahalla, ...rest } = matched;
        return { ...keyedSubindexes(locationIndex), geocoded: { ...geocoded, matched: { ...rest, district: district?.name ?? null, mahalla: mahalla?.name ?? null, mahalla_id: mahalla?.id ?? null } } };
      },
    },
    mcp: { tool: 'location_index', args: (input) => input },
    compared: [...LOCATION_COMPARED, 'geocoded.lat', 'geocoded.lon', 'geocoded.precision', 'geocoded.confidence', 'geocoded.matched.district', 'geocoded.matched.mahalla_id'],
    refused: [
      { label: 'an address that cannot be placed', input: () => ({ address: 'qwzx qwzx' }), code: 'UNRESOLVABLE_ADDRESS', field: 'address' },
    ],
  },
  {
    name: 'submit a batch',
    good: () => ({ items: [BATCH_ITEM] }),
    rest: (body) => ({ method: 'POST', path: '/api/batch', body }),
    graphql: { query: 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id status total createdAt resultsUrl idempotentReplay } }', variables: (input) => ({ input: batchItems(input) }), answer: (data) => data.submitBatch },
    mcp: { tool: 'submit_batch', args: (input) => input },
    compared: ['total', 'idempotent_replay'],
    // REST (202) and MCP say queued; GraphQL the job's status when it answers, which a one-item job may have left already.
    volatile: ['status'],
    refused: [
      { label: 'no items', input: () => ({ items: [] }), code: 'MISSING_PARAMETER', field: 'items' },
      { label: 'an item without its address', input: () => ({ items: [{ address: '' }] }), code: 'MISSING_PARAMETER', field: 'items[0].address' },
      { label: "an item's area out of range", input: () => ({ items: [{ ...BATCH_ITEM, home: { ...BATCH_ITEM.home, area: 5 } }] }), code: 'INVALID_PARAMETER', field: 'items[0].home.area' },
      // A field of two words is named in REST's words on every door (GraphQL's input says totalFloors).
      { label: "an item's storeys out of range", input: () => ({ items: [{ ...BATCH_ITEM, home: { ...BATCH_ITEM.home, total_floors: 100 } }] }), code: 'INVALID_PARAMETER', field: 'items[0].home.total_floors' },
      { label: 'a bad item after a good one', input: () => ({ items: [BATCH_ITEM, { ...BATCH_ITEM, home: { ...BATCH_ITEM.home, area: 5 } }] }), code: 'INVALID_PARAMETER', field: 'items[1].home.area' },
    ],
  },
  {
    name: 'status of a batch job',
    // The one-item job submitted (on REST) in beforeAll, completed.
    good: () => ({ id: jobId }),
    rest: ({ id }) => ({ method: 'GET', path: `/api/batch/${String(id)}` }),
    graphql: { query: `query($id: ID!) { batchJob(id: $id) { ${BATCH_JOB_SELECTION} } }`, variables: (input) => input, answer: (data) => data.batchJob, notFound: 'id' },
    mcp: { tool: 'get_batch_status', args: (input) => input },
    compared: ['status', 'total', 'processed', 'succeeded', 'failed', 'chunk_size', 'callback_url', 'error'],
    refused: [
      { label: 'an id of no job of the organisation', input: () => ({ id: 'no-such-job' }), code: 'NOT_FOUND', field: 'id' },
    ],
  },
  {
    name: 'get a recorded valuation by id',
    // The flat valued (on REST) in beforeAll.
    good: () => ({ id: recordedId }),
    rest: ({ id }) => ({ method: 'GET', path: `/api/valuations/${String(id)}` }),
    graphql: {
      query: 'query($id: String!) { valuation(id: $id) { id kind createdAt keepUntil requestId modelVersion valuationDate input valuation } }',
      variables: (input) => input,
      answer: (data) => data.valuation,
      notFound: 'id',
    },
    mcp: { tool: 'get_valuation', args: ({ id }) => ({ valuation_id: id }), fields: { id: 'valuation_id' } },
    compared: ['kind', 'model_version', 'valuation_date', 'input.request.district', 'input.request.area', 'valuation.estimate', 'valuation.interval.low', 'valuation.interval.high', 'valuation.confidence.level'],
    refused: [
      { label: 'an id of no valuation of the organisation', input: () => ({ id: 'val_01ARZ3NDEKTSV4RRFFQ69G5FAV' }), code: 'NOT_FOUND', field: 'id' },
    ],
  },
  {
    name: 'submit a backtest',
    good: () => ({ kind: 'home', observations: [OBSERVED_FLAT] }),
    rest: ({ kind, ...body }) => ({ method: 'POST', path: `/api/backtest${kind === undefined ? '' : `?kind=${String(kind)}`}`, body }),
    graphql: {
      query: 'mutation($input: SubmitBacktestInput!) { submitBacktest(input: $input) { id kind job { status total createdAt } } }',
      variables: ({ kind, observations }) => ({ input: { kind: kind === undefined ? undefined : String(kind).toUpperCase(), observations: (observations as Input[] | undefined)?.map(observationInput) } }),
      // REST answers the job's fields beside the backtest's.
      answer: (data) => {
        const { job, ...backtest } = data.submitBacktest as { job: Record<string, unknown> };
        return { ...backtest, ...job };
      },
    },
    mcp: { tool: 'submit_backtest', args: (input) => input },
    compared: ['kind', 'total'],
    // REST (202) and MCP say queued; GraphQL the job's status when it answers.
    volatile: ['status'],
    refused: [
      {
        label: 'an unknown kind', input: (good) => ({ ...good, kind: 'boat' }), code: 'INVALID_PARAMETER', field: 'kind',
      },
      {
        label: 'no observations field', input: (good) => without(good, 'observations'), code: 'MISSING_PARAMETER', field: 'observations',
      },
    ],
  },
  {
    // Last: recorded prices re-anchor the organisation's later valuations.
    name: 'record observed prices',
    good: () => ({ observations: [OBSERVED_FLAT, { ...OBSERVED_FLAT, district: 'Atlantis', reference: 'loan-2' }, { ...OBSERVED_FLAT, price_usd: -5, reference: 'loan-3' }] }),
    rest: (body) => ({ method: 'POST', path: '/api/observations', body }),
    graphql: {
      query: 'mutation($input: RecordObservationsInput!) { recordObservations(input: $input) { accepted acceptedObservations { index id reference } rejected { index reference error { code message field } } rejectedCount } }',
      variables: ({ observations }) => ({ input: observations === undefined ? {} : { observations: (observations as Input[]).map(observationInput) } }),
      answer: (data) => data.recordObservations,
    },
    mcp: { tool: 'record_observations', args: (input) => input },
    compared: ['accepted', 'accepted_observations.0.index', 'accepted_observations.0.reference', 'rejected.0.index', 'rejected.0.reference', 'rejected.0.error.code', 'rejected.0.error.field', 'rejected.1.error.code', 'rejected.1.error.field', 'rejected_count'],
    refused: [
      {
        label: 'no observations field', input: () => ({}), code: 'MISSING_PARAMETER', field: 'observations',
      },
    ],
  },
];

let recordedId = '';
let jobId = '';

beforeAll(async () => {
  const valued = await fixture.post('/api/predict/home', FLAT);
  expect(valued.status).toBe(200);
  recordedId = (await json(valued)).valuation_id;
  const submitted = await fixture.post('/api/batch', { items: [BATCH_ITEM] });
  expect(submitted.status).toBe(202);
  jobId = (await json(submitted)).id;
  const job = await until(async () => json(await fixture.stack.fetch(`/api/batch/${jobId}`, { headers: { 'x-api-key': fixture.key } })), (j) => j.status === 'completed' || j.status === 'failed', 20_000);
  expect(job).toMatchObject({ status: 'completed', succeeded: 1 });
});

describe.each(OPERATIONS.map((o) => [o.name, o] as const))('%s', (_name, operation) => {
  test('gives the same answer on every door', async () => {
    const outcomes = await Promise.all(DOORS.map(async (door) => [door.name, await door.ask(operation, operation.good())] as const));
    for (const [door, outcome] of outcomes) expect([door, 'error' in outcome ? outcome.error : 'answered']).toEqual([door, 'answered']);
    const [rest, ...others] = outcomes.map(([door, outcome]) => [door, (outcome as { answer: Record<string, unknown> }).answer] as const);
    const restAnswer = Object.fromEntries(Object.entries(rest[1]).filter(([path]) => !operation.volatile?.includes(path)));
    for (const path of operation.compared) expect([path, path in restAnswer]).toEqual([path, true]);
    for (const [door, answer] of others) {
      // MCP replies are the REST bodies: every REST leaf. GraphQL answers its selection: every leaf both have, the compared ones among them.
      const paths = door === 'MCP' ? Object.keys(restAnswer) : Object.keys(answer).filter((p) => p in restAnswer);
      for (const path of operation.compared) expect([door, path, paths.includes(path)]).toEqual([door, path, true]);
      const differing = paths.filter((p) => !sameValue(answer[p], restAnswer[p])).map((p) => ({ path: p, rest: restAnswer[p], [door]: answer[p] }));
      expect([door, differing]).toEqual([door, []]);
    }
  });

  const cases = operation.refused.map((refusal) => [refusal.label, refusal] as const);
  describe.each(cases)('refuses %s', (_label, refusal) => {
    test(`with ${refusal.code}${refusal.field ? ` on ${refusal.field}` : ''} on every door`, async () => {
      const input = refusal.input(operation.good());
      const errors = await Promise.all(DOORS.map(async (door) => {
        const outcome = await door.ask(operation, input);
        return [door.name, 'error' in outcome ? outcome.error : 'answered'] as const;
      }));
      expect(errors).toEqual(DOORS.map((door) => [door.name, { code: refusal.code, field: refusal.field === undefined ? undefined : door.field(operation, refusal.field) }]));
    });
  });
});
