/**
 * The MCP server through the SDK's own client, over both transports (Streamable HTTP on the
 * gateway's /mcp, and the stdio entry calling the gateway), against the real service: one suite
 * run on each. Replies of tools with a REST twin must equal that route's body.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SAMPLE_HOME_REQUEST, SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST, SITE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { refusedHouseDistrict } from '../support/houses';
import { json, useTestStack } from '../support/stack';
import { callOk, SAMPLE_HOME_ARGUMENTS, texts, toolErrorBody, TRANSPORTS, type Connected } from './support';

const fixture = useTestStack(() => ({ redisUrl: process.env.REDIS_URL || undefined }));

const TOOL_NAMES = ['value_home', 'value_vehicle', 'location_index', 'geocode_address', 'list_districts', 'submit_batch', 'get_batch_status', 'get_model_accuracy', 'record_observations', 'retract_observations', 'get_valuation', 'submit_backtest', 'get_backtest'];

/** A REST reply without the time it was made and its record's id (each call is a valuation of its own), to compare with a tool's. */
function timeless<T extends Record<string, unknown>>(body: T): Omit<T, 'valued_at' | 'valuation_id'> {
  expect(body.valuation_id).toMatch(/^val_[0-9A-Z]{26}$/);
  const { valued_at: _time, valuation_id: _id, ...rest } = body;
  return rest;
}

describe.each(TRANSPORTS)('over %s', (_transport, connect) => {
  let session: Connected;
  let client: Client;
  beforeAll(async () => {
    session = await connect(fixture.stack, fixture.key);
    client = session.client;
  });
  afterAll(() => session?.close());

  it('identifies itself and tells the assistant how to use it', () => {
    expect(client.getServerVersion()?.name).toBe('tashkent-valuation');
    expect(client.getInstructions()).toMatch(/90% interval/);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it('lists the tools; the list validates against the protocol schema and every schema is valid JSON Schema', async () => {
    const raw = await client.request({ method: 'tools/list', params: {} }, ListToolsResultSchema);
    expect(ListToolsResultSchema.safeParse(raw).success).toBe(true);
    // An agent's context is not spent on our docs (issue 35): replies are outlined, a batch home points to value_home's fields. It was 78 KB.
    expect(JSON.stringify(raw).length).toBeLessThan(48_000);
    expect(raw.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(ajv);
    for (const tool of raw.tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(150);
      expect(tool.description).toMatch(/snake_case/);
      expect(tool.annotations).toBeDefined();
      for (const schema of [tool.inputSchema, tool.outputSchema!]) {
        expect(schema.type).toBe('object');
        expect(ajv.validateSchema(schema)).toBe(true);
        expect(() => ajv.compile(schema)).not.toThrow();
      }
      // An agent follows the schema without our docs: every argument says what it is.
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect([tool.name, name, (property as { description?: string }).description]).toEqual([tool.name, name, expect.any(String)]);
      }
    }
    const home = raw.tools.find((t) => t.name === 'value_home')!;
    // floor and total_floors: required for an apartment only (a house has no floor), as their descriptions say.
    expect(home.inputSchema.required).toEqual(['district', 'area', 'rooms']);
    expect(home.inputSchema.properties).toMatchObject({ floor: { description: expect.stringMatching(/required for an apartment/) }, total_floors: { description: expect.stringMatching(/required for an apartment/) } });
    expect(home.inputSchema.properties).toMatchObject({ area: { type: 'number', minimum: 10, maximum: 1000 }, building_type: { type: 'string' }, furniture: { type: ['string', 'boolean'] } });
    expect(home.inputSchema.properties).not.toHaveProperty('qurilish_turi');
    expect(home.annotations).toMatchObject({ readOnlyHint: true });
    expect(raw.tools.find((t) => t.name === 'submit_batch')!.annotations).toMatchObject({ readOnlyHint: false });
  });

  it('value_home: a positive estimate, equal to what POST /api/predict/home returns for the same flat', async () => {
    const { reply, summary, result } = await callOk(client, 'value_home', SAMPLE_HOME_ARGUMENTS);
    expect(reply.estimate).toBeGreaterThan(30_000);
    expect(reply.estimate).toBeLessThan(200_000);
    expect(reply.interval.low).toBeLessThan(reply.estimate);
    expect(reply.interval.high).toBeGreaterThan(reply.estimate);
    expect(reply.location).toMatchObject({ district: 'Chilanzar', matched: 'mahalla' });
    expect(reply.model_version).toBe(fixture.stack.modelVersion);
    const rest = await json(await fixture.post('/api/predict/home', SAMPLE_HOME_REQUEST));
    expect(timeless(reply)).toEqual(timeless(rest));
    const grouped = (n: number) => Math.round(n).toLocaleString('en-US');
    expect(summary).toContain(`Estimated ${grouped(reply.estimate)} USD (90% interval ${grouped(reply.interval.low)}–${grouped(reply.interval.high)}), confidence ${reply.confidence.level}`);
    // The JSON is in the text too, for clients that read no structured content.
    expect(JSON.parse(texts(result)[1])).toEqual(reply);
  });

  it('get_valuation: the record of a value_home call, as GET /api/valuations/{id} gives it, its report named', async () => {
    const { reply: valued } = await callOk(client, 'value_home', SAMPLE_HOME_ARGUMENTS);
    const { reply, summary } = await callOk(client, 'get_valuation', { valuation_id: valued.valuation_id });
    const { warnings: _w, ...record } = reply;
    expect(record).toEqual(await json(await fixture.stack.fetch(`/api/valuations/${valued.valuation_id}`, { headers: { 'x-api-key': fixture.key } })));
    expect(reply.valuation).toEqual(valued);
    expect(summary).toMatch(new RegExp(`^Valuation ${valued.valuation_id} of \\d{4}-\\d{2}-\\d{2} \\(a home in Chilanzar`));
    expect(summary).toContain(`GET /api/valuations/${valued.valuation_id}/report`);
  });

  it('value_home: furniture as a boolean, names in Russian, and an unknown argument ignored with a warning', async () => {
    const { reply } = await callOk(client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, district: 'Чиланзарский район', building_type: 'Кирпичный', furniture: true, colour: 'blue' });
    expect(reply.location.district).toBe('Chilanzar');
    expect(reply.warnings).toContain('unknown field "colour" ignored');
  });

  it('value_home: a house, equal to what POST /api/predict/home returns, with the plot in the summary', async () => {
    const { reply, summary } = await callOk(client, 'value_home', SAMPLE_HOUSE_REQUEST);
    expect(reply.property_type).toBe('house');
    expect(reply.land_price_per_sotka).toBeGreaterThan(0);
    expect(timeless(reply)).toEqual(timeless(await json(await fixture.post('/api/predict/home', SAMPLE_HOUSE_REQUEST))));
    const grouped = (n: number) => Math.round(n).toLocaleString('en-US');
    expect(summary).toMatch(/^House: estimated [\d,]+ USD \(90% interval [\d,]+–[\d,]+\), confidence (high|medium|low)/);
    expect(summary).toContain(`plot ${grouped(reply.land_price_per_sotka)} USD/sotka`);
  });

  it('value_home: a house where the model has too little market data is a tool error INSUFFICIENT_MARKET_DATA', async () => {
    const district = refusedHouseDistrict();
    // Only a house model valuing every district would leave nothing to refuse.
    if (!district) return;
    const result = (await client.callTool({ name: 'value_home', arguments: { ...SAMPLE_HOUSE_REQUEST, district } })) as CallToolResult;
    // With the request id the gateway logged it under, over stdio too (issue 35, item 14).
    expect(toolErrorBody(result)).toMatchObject({ code: 'INSUFFICIENT_MARKET_DATA', field: 'district', request_id: expect.stringMatching(/^[\w.-]{1,64}$/) });
    expect(texts(result)[0]).toMatch(/^INSUFFICIENT_MARKET_DATA \(argument district\): Too few house listings/);
  });

  it('value_vehicle: equal to what POST /api/predict/vehicle returns', async () => {
    const { reply, summary } = await callOk(client, 'value_vehicle', SAMPLE_VEHICLE_REQUEST);
    expect(reply.estimate).toBeGreaterThan(1_000);
    expect(reply.vehicle).toMatchObject({ make: 'Chevrolet', model: 'Cobalt', year: 2019 });
    expect(reply.model_version).toBe(fixture.stack.vehicleModelVersion);
    expect(timeless(reply)).toEqual(timeless(await json(await fixture.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST))));
    expect(summary).toMatch(/^Chevrolet Cobalt 2019: estimated [\d,]+ USD \(90% interval [\d,]+–[\d,]+\), confidence (high|medium|low)/);
  });

  it("value_vehicle: avtoelon.uz's words (trim in the name, engine text, paint in condition, an unknown fuel), as REST reads them", async () => {
    const args = { ...SITE_VEHICLE_REQUEST, fuel: 'plutonium', valuation_date: '2025-06-30' };
    const { reply, summary } = await callOk(client, 'value_vehicle', args);
    expect(reply.vehicle).toMatchObject({ model: 'Cobalt', trim: 4, engine: 1.5, fuel: 'petrol', paint: 'original', colour: 'white', condition: null });
    expect(reply.market_level.valuation_date).toBe('2025-06-30');
    expect(reply.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^fuel "plutonium" is not recognised and was ignored/)]));
    expect(timeless(reply)).toEqual(timeless(await json(await fixture.post('/api/predict/vehicle', args))));
    expect(summary).toMatch(/^Chevrolet Cobalt 2019: estimated/);
    expect(summary).toContain('fuel "plutonium" is not recognised and was ignored');
  });

  it("value_home: a furniture word and a renovation it does not know are ignored with warnings, as REST ignores them", async () => {
    const args = { ...SAMPLE_HOME_ARGUMENTS, furniture: 'maybe', renovation: 'xyzzy' };
    const { reply } = await callOk(client, 'value_home', args);
    expect(reply.warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^(mebel|furniture) "maybe" is not recognised and was ignored; accepted: yes\/no/),
      expect.stringMatching(/^renovation "xyzzy" is not recognised and was ignored; accepted: euro/),
    ]));
    expect(timeless(reply)).toEqual(timeless(await json(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, mebel: 'maybe', renovation: 'xyzzy' }))));
  });

  it('location_index: by coordinate and by address, equal to POST /api/location/index', async () => {
    const point = { lat: 41.311151, lon: 69.279737 };
    const { reply, summary } = await callOk(client, 'location_index', point);
    expect(reply.composite.score).toBeGreaterThan(0);
    expect(reply.composite.score).toBeLessThanOrEqual(100);
    expect(Object.keys(reply.subindexes)).toHaveLength(9);
    expect(reply).toEqual(await json(await fixture.post('/api/location/index', point)));
    expect(summary).toMatch(/^Composite location index \d+\.\d\/100 at 41\.311151, 69\.279737 in \w+: transport \d+/);

    const byAddress = await callOk(client, 'location_index', { address: 'Yunusobod 8 kvartal' });
    expect(byAddress.reply.geocoded.matched.district).toBe('Yunusabad');
    expect(byAddress.reply).toEqual(await json(await fixture.post('/api/location/index', { address: 'Yunusobod 8 kvartal' })));
  });

  it('geocode_address: the point, its precision and what matched', async () => {
    const { reply, summary } = await callOk(client, 'geocode_address', { address: 'Yunusobod 8 kvartal' });
    expect(reply.matched.district).toBe('Yunusabad');
    expect(reply.precision).toBe('quarter');
    expect(reply.lat).toBeGreaterThan(41.2);
    expect(reply.lat).toBeLessThan(41.45);
    expect(reply.lon).toBeGreaterThan(69.1);
    expect(reply.lon).toBeLessThan(69.45);
    expect(reply.confidence).toBeGreaterThan(0);
    expect(summary).toMatch(/^"Yunusobod 8 kvartal" placed at 41\.\d+, 69\.\d+ \(quarter precision/);
  });

  it('list_districts: the 12 districts with their mahallas, or one in any spelling', async () => {
    const all = await callOk(client, 'list_districts', {});
    expect(all.reply.districts).toHaveLength(12);
    const chilanzar = all.reply.districts.find((d: { name: string }) => d.name === 'Chilanzar');
    expect(chilanzar.names).toEqual({ english: 'Chilanzar', uzbek_latin: expect.stringMatching(/Chilonzor/), russian: expect.stringMatching(/Чиланзар/) });
    expect(chilanzar.mahalla_count).toBe(chilanzar.mahallas.length);
    // The names are the ones value_home takes: Qatortol is matched to a listed mahalla.
    const valued = (await callOk(client, 'value_home', SAMPLE_HOME_ARGUMENTS)).reply;
    expect(chilanzar.mahallas).toContainEqual(expect.objectContaining({ id: valued.location.mahalla_id, name: valued.location.mahalla }));
    expect(all.summary).toMatch(/^12 districts, [\d,]+ mahallas: /);

    const one = await callOk(client, 'list_districts', { district: 'Чиланзарский район', include_mahallas: false });
    const { mahallas: _mahallas, ...withoutMahallas } = chilanzar;
    expect(one.reply.districts).toEqual([withoutMahallas]);
  });

  it('submit_batch then get_batch_status: the job completes and its results can be paged', async () => {
    const submitted = await callOk(client, 'submit_batch', {
      items: [
        { address: 'Chilonzor tumani, Qatortol MFY', home: { area: 65, rooms: 3, floor: 4, total_floors: 9, building_type: "G'ishtli" } },
        { address: 'Yunusobod 8 kvartal' },
      ],
    });
    expect(submitted.reply).toMatchObject({ status: 'queued', total: 2 });
    expect(submitted.summary).toContain(submitted.reply.id);
    let status;
    for (let attempt = 0; attempt < 300; attempt++) {
      status = (await callOk(client, 'get_batch_status', { id: submitted.reply.id })).reply;
      if (status.status === 'completed' || status.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toMatchObject({ id: submitted.reply.id, status: 'completed', total: 2, processed: 2, succeeded: 2, failed: 0 });
    const { warnings, ...job } = status;
    expect(warnings).toEqual([]);
    expect(job).toEqual(await json(await fetch(`${fixture.stack.url}/api/batch/${submitted.reply.id}`, { headers: { 'x-api-key': fixture.key } })));
    const page = await callOk(client, 'get_batch_status', { id: submitted.reply.id, results_limit: 1, results_offset: 1 });
    expect(page.reply.results.items).toHaveLength(1);
    expect(page.reply.results.items[0]).toMatchObject({ index: 1, ok: true, error: null });
    const first = (await callOk(client, 'get_batch_status', { id: submitted.reply.id, results_limit: 1 })).reply.results;
    expect(first.next_offset).toBe(1);
    expect(first.items[0].result.home.estimate).toBeGreaterThan(0);
    expect(page.summary).toMatch(/^Batch job \S+: completed, 2 of 2 items processed \(2 succeeded, 0 failed\)\. Results 1–1 included/);
  });

  it('get_model_accuracy: the versions in service with their held-out metrics', async () => {
    const { reply, summary } = await callOk(client, 'get_model_accuracy', {});
    expect(reply.residential.version).toBe(fixture.stack.modelVersion);
    expect(reply.residential.metrics.mape).toBeGreaterThan(0);
    expect(reply.residential.metrics.mape).toBeLessThan(1);
    expect(reply.residential.metrics.n).toBeGreaterThan(100);
    expect(reply.residential.districts.map((d: { district: string }) => d.district)).toContain('Chilanzar');
    expect(reply.vehicle.version).toBe(fixture.stack.vehicleModelVersion);
    expect(reply.vehicle.groups.length).toBeGreaterThan(0);
    expect(summary).toMatch(/^Residential model \S+: MAPE \d+\.\d%, R² [\d.]+, 90% interval coverage \d+\.\d% on [\d,]+ held-out listings/);
    const vehicleOnly = await callOk(client, 'get_model_accuracy', { kind: 'vehicle' });
    expect(vehicleOnly.reply.residential).toBeUndefined();
    expect(vehicleOnly.reply.vehicle.version).toBe(fixture.stack.vehicleModelVersion);
  });

  it('record_observations keeps good items, refuses bad ones in place, and re-anchors the next valuation; get_model_accuracy reports live accuracy on them', async () => {
    const before = (await callOk(client, 'value_home', SAMPLE_HOME_ARGUMENTS)).reply;
    // Both transports' suites run as one organisation: the second finds the first one's observations.
    const base: number = before.market_adjustment?.base_estimate ?? before.estimate;
    const earlier: number = before.market_adjustment?.observations ?? 0;
    const today = new Date().toISOString().slice(0, 10);
    const observations = Array.from({ length: 30 }, (_, i) => ({ kind: 'home', ...SAMPLE_HOME_ARGUMENTS, price_usd: Math.round(base * 0.8 * (1 + 0.05 * Math.sin(i))), observed_at: today, price_type: 'appraisal', reference: `a-${i}` }));
    const { reply, summary } = await callOk(client, 'record_observations', { observations: [...observations, { kind: 'home', ...SAMPLE_HOME_ARGUMENTS, price_usd: 50000, observed_at: '2999-01-01' }] });
    expect(reply.accepted).toBe(30);
    expect(reply.rejected).toEqual([{ index: 30, reference: null, error: expect.objectContaining({ code: 'INVALID_PARAMETER', field: 'observed_at' }) }]);
    expect(summary).toMatch(/^30 observations recorded: .* 1 refused: #30 INVALID_PARAMETER \(observed_at\)\./);
    const after = (await callOk(client, 'value_home', SAMPLE_HOME_ARGUMENTS)).reply;
    expect(after.market_adjustment).toMatchObject({ base_estimate: base, observations: earlier + 30 });
    expect(after.market_adjustment.factor).toBeLessThan(0.9);
    expect(after.estimate).toBeLessThan(base * 0.9);
    const accuracy = await callOk(client, 'get_model_accuracy', { kind: 'residential' });
    expect(accuracy.reply.live_accuracy.home.overall.service.observations).toBe(earlier + 30);
    expect(accuracy.reply.live_accuracy.home.overall.base.mean_bias).toBeLessThan(-0.15);
    expect(accuracy.reply.live_accuracy.vehicle).toBeUndefined();
    expect(accuracy.summary).toMatch(new RegExp(`On the ${earlier + 30} home prices your organisation recorded: median APE \\d+\\.\\d%, bias -?\\d+\\.\\d%`));
  });

  it('submit_backtest then get_backtest: the job completes; overall and by month, model alone against re-anchored, as GET /api/backtest/{id} reports them', async () => {
    // Twelve flats over three months, each priced 1.2 × the model's valuation at its date; one without a price.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const observations = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
      const flat = { ...SAMPLE_HOME_ARGUMENTS, area: 50 + i, valuation_date: daysAgo(90 - 7 * i) };
      const { reply: valued } = await callOk(client, 'value_home', flat);
      const { valuation_date: observedAt, ...args } = flat;
      return { ...args, price_usd: Math.round((valued.market_adjustment?.base_estimate ?? valued.estimate) * 1.2), observed_at: observedAt, price_type: 'sale', reference: `bt-${i}` };
    }));
    const submitted = await callOk(client, 'submit_backtest', { kind: 'home', observations: [...observations, { ...SAMPLE_HOME_ARGUMENTS, observed_at: daysAgo(5) }] });
    expect(submitted.reply).toMatchObject({ kind: 'home', status: 'queued', total: 13, warnings: [] });
    expect(submitted.summary).toContain(`get_backtest (id "${submitted.reply.id}")`);
    let backtest;
    for (let attempt = 0; attempt < 300; attempt++) {
      backtest = await callOk(client, 'get_backtest', { id: submitted.reply.id });
      if (backtest.reply.report || ['failed', 'cancelled'].includes(backtest.reply.status)) break;
      expect(backtest.summary).toMatch(new RegExp(`^Backtest ${submitted.reply.id} \\(home\\): (queued|running|completed), \\d+ of 13 prices scored`));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { reply, summary } = backtest!;
    expect(reply).toMatchObject({ id: submitted.reply.id, kind: 'home', status: 'completed', total: 13, processed: 13, refused: 1 });
    const rest = (await json(await fixture.stack.fetch(`/api/backtest/${reply.id}`, { headers: { 'x-api-key': fixture.key } }))).report;
    expect(reply.report).toMatchObject({ observations: 12, from: rest.from, to: rest.to, model_versions: rest.modelVersions });
    const alone = reply.report.overall.model_alone;
    expect(alone.n).toBe(12);
    expect(alone.median_ape).toBeCloseTo(rest.overall.modelAlone.medianApe, 4);
    expect(alone.median_bias).toBeCloseTo(rest.overall.modelAlone.bias.median, 4);
    expect(alone.median_bias).toBeCloseTo(Math.log(1.2), 1);
    expect(reply.report.overall.reanchored.coverage).toBeCloseTo(rest.overall.reanchored.coverage.share, 4);
    expect(reply.report.by_month.map((m: { month: string }) => m.month)).toEqual(rest.byMonth.map((m: { month: string }) => m.month));
    expect(reply.report.by_month[0].reanchored.n).toBe(rest.byMonth[0].reanchored.n);
    expect(reply.report.files.pdf).toBe(`/api/backtest/${reply.id}?format=pdf`);
    expect(summary).toMatch(new RegExp(`^Backtest ${reply.id} of 12 home prices \\(\\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}, 1 more refused\\): model alone median APE \\d+\\.\\d%, bias \\+\\d+\\.\\d%, coverage \\d+\\.\\d%; re-anchored`));
  });

  describe('bad arguments come back as tool errors with the API code and the argument at fault', () => {
    const cases: [string, string, Record<string, unknown>, string, string | undefined][] = [
      ['area out of range', 'value_home', { ...SAMPLE_HOME_ARGUMENTS, area: 5 }, 'INVALID_PARAMETER', 'area'],
      ['area not a number', 'value_home', { ...SAMPLE_HOME_ARGUMENTS, area: 'sixty' }, 'INVALID_PARAMETER', 'area'],
      ['a required argument missing', 'value_home', { district: 'Chilanzar', area: 65, rooms: 3, floor: 4 }, 'MISSING_PARAMETER', 'total_floors'],
      ['personal data', 'value_home', { ...SAMPLE_HOME_ARGUMENTS, owner_phone: '+998 90 123 45 67' }, 'PERSONAL_DATA_NOT_ACCEPTED', 'owner_phone'],
      ['an unknown make', 'value_vehicle', { ...SAMPLE_VEHICLE_REQUEST, make: 'Toyta', model: 'Camry' }, 'UNKNOWN_VEHICLE', 'make'],
      ['a model year before the model was made', 'value_vehicle', { ...SAMPLE_VEHICLE_REQUEST, year: 1985 }, 'INVALID_PARAMETER', 'year'],
      ['paint of the wrong type', 'value_vehicle', { ...SAMPLE_VEHICLE_REQUEST, paint: 3 }, 'INVALID_PARAMETER', 'paint'],
      ['swapped coordinates', 'location_index', { lat: 69.28, lon: 41.31 }, 'OUTSIDE_TASHKENT', undefined],
      ['both a point and an address', 'location_index', { lat: 41.31, lon: 69.28, address: 'Yunusobod' }, 'INVALID_PARAMETER', 'address'],
      ['no address', 'geocode_address', {}, 'MISSING_PARAMETER', 'address'],
      ['an unknown district to list', 'list_districts', { district: 'Atlantis' }, 'UNKNOWN_DISTRICT', 'district'],
      ['an empty portfolio item', 'submit_batch', { items: [{ home: { area: 50 } }] }, 'MISSING_PARAMETER', 'items[0].address'],
      ['an unknown job', 'get_batch_status', { id: 'no-such-job' }, 'NOT_FOUND', 'id'],
      ['an unknown model kind', 'get_model_accuracy', { kind: 'boats' }, 'INVALID_PARAMETER', 'kind'],
      ['a valuation no one made', 'get_valuation', { valuation_id: 'val_01M87CK9N1XTTY242632QNJ35S' }, 'NOT_FOUND', 'valuation_id'],
      ['a malformed valuation id', 'get_valuation', { valuation_id: 'val_nope' }, 'INVALID_PARAMETER', 'valuation_id'],
      ['a backtest of boats', 'submit_backtest', { kind: 'boat', observations: [{ price_usd: 1, observed_at: '2025-01-01' }] }, 'INVALID_PARAMETER', 'kind'],
      ['a backtest without observations', 'submit_backtest', { kind: 'home' }, 'MISSING_PARAMETER', 'observations'],
      ['an unknown backtest', 'get_backtest', { id: 'no-such-backtest' }, 'NOT_FOUND', 'id'],
    ];
    it.each(cases)('%s', async (_case, tool, args, code, field) => {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      const error = toolErrorBody(result);
      expect(error.code).toBe(code);
      if (field) expect(error.field).toBe(field);
      expect(typeof error.message).toBe('string');
      expect(result.structuredContent).toBeUndefined();
      expect(texts(result)[0]).toMatch(new RegExp(`^${code}${field ? ` \\(argument ${field.replace(/[[\]]/g, '\\$&')}\\)` : ''}: `));
      expect(JSON.stringify(result)).not.toMatch(/at .*\.js:\d+/);
    });

    it('an unknown district, with suggestions', async () => {
      const error = toolErrorBody((await client.callTool({ name: 'value_home', arguments: { ...SAMPLE_HOME_ARGUMENTS, district: 'Chilanzor-Yunus' } })) as CallToolResult);
      expect(error).toMatchObject({ code: 'UNKNOWN_DISTRICT', field: 'district' });
      expect(error.suggestions.length).toBeGreaterThan(0);
    });
  });

  it('resources: the model cards and the district list', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['valuation://districts', 'valuation://model-cards/residential', 'valuation://model-cards/vehicle']);
    const card = await client.readResource({ uri: 'valuation://model-cards/residential' });
    expect(card.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((card.contents[0] as { text: string }).text).toMatch(/^# Model card: .*residential model/);
    const districts = await client.readResource({ uri: 'valuation://districts' });
    const list = JSON.parse((districts.contents[0] as { text: string }).text);
    expect(list.districts).toHaveLength(12);
    expect(list.districts[0].mahallas.length).toBeGreaterThan(0);
  });

  it('prompts: revalue_collateral', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['revalue_collateral']);
    expect(prompts[0].arguments?.find((a) => a.name === 'collateral')?.required).toBe(true);
    const prompt = await client.getPrompt({ name: 'revalue_collateral', arguments: { collateral: 'Chilanzar, Qatortol, 65 m², 3 rooms, floor 4 of 9', kind: 'home', previous_value: '70000' } });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(text).toContain('Chilanzar, Qatortol, 65 m²');
    expect(text).toContain('70000 USD');
    expect(text).toMatch(/value_home/);
    expect(text).toMatch(/get_model_accuracy/);
  });
});
