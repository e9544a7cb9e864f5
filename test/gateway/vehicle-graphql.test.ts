/**
 * The vehicle subgraph through the gateway: the same valuation as REST, bulk with per-item errors,
 * the catalogue, the model in service, a home and a vehicle in one federated request (in process
 * and over HTTP), and a service started without a vehicle model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphql as execute } from 'graphql';
import { VEHICLE_BASES, type VehicleMarketIndexSeries, type VehicleRuntime } from '../../models/vehicle/valuation';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST, SITE_VEHICLE_REQUEST, VEHICLE_SEGMENTS } from '../../schema/vehicle-contract';
import { createVehicleContext } from '../../subgraphs/vehicle/context';
import { buildVehicleSchema } from '../../subgraphs/vehicle/schema';
import { SUBGRAPH_TRANSPORTS, useTestStack, type StackFixture, expectError, json } from '../support/stack';
import { useSharedTestStack } from '../support/shared-stack';
import { memoryObservationBook } from '../support/observations';

const SAMPLE_INPUT = {
  make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60000, bodyType: 'sedan', transmission: 'automatic', fuel: 'petrol', condition: 'good', region: 'Toshkent',
};
const HOME_INPUT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida' };
const VALUATION_FIELDS = 'estimate currency interval { low high coverage } fsd confidence { level score drivers } models { name estimate weight } anomaly { groupMedianPrice deviationFromGroupMedian marketListings modelSpread flags } vehicle { make model year } modelVersion valuedAt warnings';

const graphql = (service: Pick<StackFixture, 'post'>) => (query: string, variables: Record<string, unknown> = {}) => service.post('/graphql', { query, variables });

describe('with the vehicle model in service', () => {
  const service = useSharedTestStack();
  const gql = graphql(service);

  it('values the sample vehicle exactly as the REST route does', async () => {
    const response = await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { ${VALUATION_FIELDS} } }`, { input: SAMPLE_INPUT });
    expect(response.status).toBe(200);
    const { data, errors } = await json(response);
    expect(errors).toBeUndefined();
    const v = data.vehicleValuation;
    expect(v.estimate).toBeGreaterThan(5_000);
    expect(v.estimate).toBeLessThan(30_000);
    expect(v.interval.low).toBeLessThanOrEqual(v.estimate);
    expect(v.interval.high).toBeGreaterThanOrEqual(v.estimate);
    expect(v.interval.coverage).toBe(0.9);
    expect(['high', 'medium', 'low']).toContain(v.confidence.level);
    expect(v.models.length).toBeGreaterThanOrEqual(2);
    expect(v.vehicle).toEqual({ make: 'Chevrolet', model: 'Cobalt', year: 2019 });
    const rest = await json(await service.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST));
    expect(v.estimate).toBe(rest.estimate);
    expect(v.interval).toEqual(rest.interval);
    expect(v.confidence).toEqual(rest.confidence);
    expect(v.models).toEqual(rest.models);
    expect(v.anomaly.marketListings).toBe(rest.anomaly.market_listings);
  });

  it('answers an unknown make with UNKNOWN_VEHICLE and suggestions in extensions', async () => {
    const { data, errors } = await json(await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { estimate } }`, { input: { ...SAMPLE_INPUT, make: 'Toyta' } }));
    expect(data).toBeNull();
    expect(errors[0].extensions).toMatchObject({ code: 'UNKNOWN_VEHICLE', field: 'make' });
    expect(errors[0].extensions.suggestions).toContain('Toyota');
  });

  it('names fields in errors and warnings as REST clients know them', async () => {
    const { errors } = await json(await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { estimate } }`, { input: { ...SAMPLE_INPUT, engine: 15 } }));
    expect(errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'engine' });
    const text = await json(await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { warnings } }`, { input: { ...SAMPLE_INPUT, engineText: '15 (Benzin)' } }));
    expect(text.data.vehicleValuation.warnings).toContain('engine "15 (Benzin)": 15 l is no engine size and was ignored');
    const { data } = await json(await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { warnings vehicle { bodyType } } }`, { input: { ...SAMPLE_INPUT, bodyType: 'spaceship' } }));
    expect(data.vehicleValuation.vehicle.bodyType).toBeNull();
    expect(data.vehicleValuation.warnings[0]).toMatch(/^body_type "spaceship" is not recognised and was ignored; accepted: sedan/);
  });

  it("values avtoelon.uz's words as REST does: trim from the name, engine and fuel from engineText, paint from condition", async () => {
    const input = {
      make: 'Chevrolet', model: 'Cobalt, 4 pozitsiya EVRO', year: 2019, mileage: 60000, engineText: '1.5 (Benzin)', transmission: 'Avtomat',
      bodyType: 'Sedan', drive: 'Oldi', colour: 'Oq', paint: 'Kraska toza', condition: 'original_paint', region: 'Toshkent',
    };
    const query = `query($input: VehicleValuationInput!) { vehicleValuation(input: $input) {
      estimate basis warnings
      vehicle { make model year trim engine fuel transmission bodyType drive region condition paint colour }
      marketLevel { valuationDate newestDataPeriod dataAgeMonths indexRatio intervalWidening }
    } }`;
    const { data, errors } = await json(await gql(query, { input }));
    expect(errors).toBeUndefined();
    const v = data.vehicleValuation;
    expect(v.vehicle).toEqual({
      make: 'Chevrolet', model: 'Cobalt', year: 2019, trim: 4, engine: 1.5, fuel: 'petrol', transmission: 'automatic',
      bodyType: 'sedan', drive: 'front', region: 'tashkent_city', condition: null, paint: 'original', colour: 'white',
    });
    expect(VEHICLE_BASES).toContain(v.basis);
    expect(v.marketLevel.valuationDate).toBe(new Date().toISOString().slice(0, 10));
    expect(v.marketLevel.newestDataPeriod).toMatch(/^\d{4}-\d{2}$/);
    expect(v.marketLevel.dataAgeMonths).toBeGreaterThanOrEqual(0);
    const rest = await json(await service.post('/api/predict/vehicle', SITE_VEHICLE_REQUEST));
    expect(v.estimate).toBe(rest.estimate);
    expect(v.warnings).toEqual(rest.warnings);
    // engine as a number and the fuel apart: the same car.
    const { engineText: _text, ...separate } = input;
    const apart = await json(await gql(query, { input: { ...separate, engine: 1.5, fuel: 'Benzin' } }));
    expect(apart.data.vehicleValuation.estimate).toBe(v.estimate);
    const dated = await json(await gql(query, { input: { ...input, valuationDate: '2025-06-30' } }));
    expect(dated.data.vehicleValuation.marketLevel.valuationDate).toBe('2025-06-30');
  });

  it('values a bulk in one call, with per-item errors in input order', async () => {
    const inputs = [SAMPLE_INPUT, { ...SAMPLE_INPUT, model: 'Cobalr' }, { ...SAMPLE_INPUT, year: 2016, mileage: 120000 }];
    const { data, errors } = await json(await gql(`query($inputs: [VehicleValuationInput!]!) { vehicleValuations(inputs: $inputs) { index valuation { estimate vehicle { model year } } error { code message field suggestions } } }`, { inputs }));
    expect(errors).toBeUndefined();
    const results = data.vehicleValuations;
    expect(results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2]);
    expect(results[1].valuation).toBeNull();
    expect(results[1].error).toMatchObject({ code: 'UNKNOWN_VEHICLE', field: 'model' });
    expect(results[1].error.suggestions).toContain('Cobalt');
    expect(results[0].error).toBeNull();
    expect(results[2].valuation.vehicle).toEqual({ model: 'Cobalt', year: 2016 });
    // Same input, same answer, whether valued alone or in bulk.
    const single = await json(await gql(`query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { estimate } }`, { input: SAMPLE_INPUT }));
    expect(results[0].valuation.estimate).toBe(single.data.vehicleValuation.estimate);
  });

  it('in bulk: a model the catalogue does not list is valued or refused for want of data, a typo is UNKNOWN_VEHICLE, a 1985 Cobalt INVALID_PARAMETER', async () => {
    const inputs = [{ make: 'Nissan', model: 'Pathfinder', year: 2015 }, { make: 'Nissan', model: 'Patrolo', year: 2015 }, { ...SAMPLE_INPUT, year: 1985 }];
    const { data, errors } = await json(await gql(`query($inputs: [VehicleValuationInput!]!) { vehicleValuations(inputs: $inputs) { index valuation { vehicle { make model } warnings } error { code field suggestions message } } }`, { inputs }));
    expect(errors).toBeUndefined();
    const [unlisted, typo, early] = data.vehicleValuations;
    if (unlisted.error) expect(unlisted.error).toMatchObject({ code: 'INSUFFICIENT_MARKET_DATA', field: 'model' });
    else expect(unlisted.valuation.vehicle).toEqual({ make: 'Nissan', model: null });
    expect(typo.error).toMatchObject({ code: 'UNKNOWN_VEHICLE', field: 'model' });
    expect(typo.error.suggestions).toContain('Patrol');
    expect(early.error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'year', message: 'Chevrolet Cobalt was made from 2011; year 1985 is before that' });
  });

  it('gives a bulk item without market data its own error, and more than 1,000 inputs are refused', async () => {
    const { data } = await json(await gql(`query($inputs: [VehicleValuationInput!]!) { vehicleValuations(inputs: $inputs) { index valuation { estimate } error { code field } } }`, { inputs: [{ make: 'Haval', model: 'Jolion', year: 2023 }, SAMPLE_INPUT] }));
    expect(data.vehicleValuations[0].error).toEqual({ code: 'INSUFFICIENT_MARKET_DATA', field: 'model' });
    expect(data.vehicleValuations[1].valuation.estimate).toBeGreaterThan(0);
    const { errors } = await json(await gql(`query($inputs: [VehicleValuationInput!]!) { vehicleValuations(inputs: $inputs) { index } }`, { inputs: Array.from({ length: 1001 }, () => SAMPLE_INPUT) }));
    expect(errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'inputs' });
  });

  it('lists the catalogue: Chevrolet with the Cobalt, its years and listing counts', async () => {
    const { data, errors } = await json(await gql('{ vehicleCatalog { make listings otherModels models { model listings years { from to } basis accuracyClass } } }'));
    expect(errors).toBeUndefined();
    const chevrolet = data.vehicleCatalog.find((m: { make: string }) => m.make === 'Chevrolet');
    expect(chevrolet.listings).toBeGreaterThan(1000);
    const cobalt = chevrolet.models.find((m: { model: string }) => m.model === 'Cobalt');
    expect(cobalt.listings).toBeGreaterThan(100);
    expect(cobalt.listings).toBeLessThanOrEqual(chevrolet.listings);
    expect(cobalt.years.from).toBeLessThanOrEqual(2019);
    expect(cobalt.years.to).toBeGreaterThanOrEqual(2019);
    // How each model, and a model of the make the catalogue does not list, is valued.
    for (const make of data.vehicleCatalog) {
      expect([null, ...VEHICLE_BASES]).toContain(make.otherModels);
      for (const model of make.models) {
        expect([null, ...VEHICLE_BASES]).toContain(model.basis);
        expect([null, 'high', 'good', 'fair', 'low']).toContain(model.accuracyClass);
      }
    }
  });

  it('vehicleMarketIndex: the series of the model in service, by segment; an unknown segment is INVALID_PARAMETER', async () => {
    const selection = 'segment makes points { period index low high listings } movesPerYear { from to change }';
    const { data, errors } = await json(await gql(`{ vehicleMarketIndex { ${selection} } }`));
    expect(errors).toBeUndefined();
    const all = data.vehicleMarketIndex;
    expect(Array.isArray(all)).toBe(true);
    expectSeries(all);
    for (const segment of VEHICLE_SEGMENTS) {
      const one = await json(await gql(`query($s: String) { vehicleMarketIndex(segment: $s) { ${selection} } }`, { s: segment.toUpperCase() }));
      expect(one.errors).toBeUndefined();
      expect(one.data.vehicleMarketIndex).toEqual(all.filter((s: { segment: string }) => s.segment === segment));
    }
    const { errors: refused } = await json(await gql('{ vehicleMarketIndex(segment: "martian") { segment } }'));
    expect(refused[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'segment' });
    expect(refused[0].message).toMatch(/accepted: domestic, russian, foreign/);
  });

  it('reports the model in service with held-out metrics overall and per make/model group', async () => {
    const { data, errors } = await json(await gql('{ vehicleModel { version trainedAt dataSnapshot evaluation intervalCoverage metrics { n r2 mape medianApe ppe10 intervalCoverage intervalCoverageBounds95 { low high } } groups { group accuracyClass metrics { n mape intervalCoverage } } featureImportance { feature importance } members { name algorithm weight } } }'));
    expect(errors).toBeUndefined();
    const model = data.vehicleModel;
    expect(model.version).toBe(service.stack.vehicleModelVersion);
    expect(model.intervalCoverage).toBe(0.9);
    expect(model.metrics.n).toBeGreaterThan(100);
    expect(model.metrics.mape).toBeGreaterThan(0);
    const cobalt = model.groups.find((g: { group: string }) => g.group === 'Chevrolet Cobalt');
    expect(cobalt.metrics.n).toBeGreaterThan(10);
    expect(['high', 'good', 'fair', 'low']).toContain(cobalt.accuracyClass);
    expect(model.members.length).toBeGreaterThanOrEqual(2);
    expect(model.featureImportance.length).toBeGreaterThan(3);
  });
});

describe.each(SUBGRAPH_TRANSPORTS)('with the subgraphs called %s', (_name, transport) => {
  const service = useTestStack({ env: { SUBGRAPH_TRANSPORT: transport } });

  it('one request gets a home valuation and a vehicle valuation', async () => {
    const query = `query($home: HomeValuationInput!, $car: VehicleValuationInput!) {
      homeValuation(input: $home) { estimate location { district { name locationIndex { composite { score } } } } }
      vehicleValuation(input: $car) { estimate vehicle { make model } }
    }`;
    const { data, errors } = await json(await graphql(service)(query, { home: HOME_INPUT, car: SAMPLE_INPUT }));
    expect(errors).toBeUndefined();
    const home = await json(await service.post('/api/predict/home', SAMPLE_HOME_REQUEST));
    const car = await json(await service.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST));
    expect(data.homeValuation.estimate).toBe(home.estimate);
    expect(typeof data.homeValuation.location.district.locationIndex.composite.score).toBe('number');
    expect(data.vehicleValuation.estimate).toBe(car.estimate);
    expect(data.vehicleValuation.vehicle).toEqual({ make: 'Chevrolet', model: 'Cobalt' });
  });
});

describe('with no vehicle model promoted', () => {
  let emptyArtifacts: string;
  const service = useTestStack(() => ({ vehicleArtifactsRoot: (emptyArtifacts = mkdtempSync(join(tmpdir(), 'no-vehicle-model-'))) }));
  afterAll(() => rmSync(emptyArtifacts, { recursive: true, force: true }));

  it('still starts and values homes; vehicles get 503 SERVICE_UNAVAILABLE', async () => {
    expect(service.stack.vehicleModelVersion).toBeNull();
    expect(service.stack.logs.join('\n')).toMatch(/no vehicle model is promoted/);
    expect((await service.post('/api/predict/home', SAMPLE_HOME_REQUEST)).status).toBe(200);
    await expectError(await service.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST), 503, 'SERVICE_UNAVAILABLE');
    const { errors } = await json(await graphql(service)('{ vehicleModel { version } }'));
    expect(errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    // Input errors are still found without a model.
    await expectError(await service.post('/api/predict/vehicle', { ...SAMPLE_VEHICLE_REQUEST, year: 'new' }), 400, 'INVALID_PARAMETER', 'year');
  });
});

/** The series' shape and relations (the numbers are the runtime's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectSeries(series: any[]): void {
  for (const s of series) {
    expect(typeof s.segment).toBe('string');
    expect(s.makes.length).toBeGreaterThan(0);
    const periods = s.points.map((p: { period: string }) => p.period);
    expect([...periods].sort()).toEqual(periods);
    for (const p of s.points) {
      expect(p.period).toMatch(/^\d{4}-\d{2}$/);
      expect(p.low).toBeLessThanOrEqual(p.index);
      expect(p.high).toBeGreaterThanOrEqual(p.index);
      expect(p.listings).toBeGreaterThanOrEqual(0);
    }
    for (const m of s.movesPerYear) expect(m.from < m.to).toBe(true);
  }
}

describe('the vehicle subgraph filters the market index of the model in service by segment', () => {
  const series: VehicleMarketIndexSeries[] = [
    { segment: 'domestic', makes: ['Chevrolet', 'Daewoo', 'Ravon'], points: [{ period: '2022-06', index: 0.93, low: 0.9, high: 0.96, listings: 9000 }, { period: '2023-08', index: 1, low: 1, high: 1, listings: 8000 }], movesPerYear: [{ from: '2022-06', to: '2023-08', change: 0.062 }] },
    { segment: 'foreign', makes: ['Kia', 'Hyundai'], points: [{ period: '2022-06', index: 1, low: 1, high: 1, listings: 700 }], movesPerYear: [] },
    { segment: 'electric', makes: ['BYD'], points: [], movesPerYear: [] },
  ];
  const runtime = { marketIndex: () => series } as unknown as VehicleRuntime;
  const run = async (segment?: string) => {
    const schema = await buildVehicleSchema();
    return execute({ schema, source: 'query($s: String) { vehicleMarketIndex(segment: $s) { segment makes points { period index low high listings } movesPerYear { from to change } } }', variableValues: { s: segment }, contextValue: createVehicleContext(runtime, await memoryObservationBook('vehicle'), {}) });
  };

  it('all series without a segment, one with; a segment of the model\'s own is accepted too', async () => {
    const all = await run();
    expect(all.errors).toBeUndefined();
    expect(all.data!.vehicleMarketIndex).toEqual(series);
    expectSeries(all.data!.vehicleMarketIndex as never);
    expect((await run('Domestic')).data!.vehicleMarketIndex).toEqual([series[0]]);
    expect((await run('russian')).data!.vehicleMarketIndex).toEqual([]);
    expect((await run('electric')).data!.vehicleMarketIndex).toEqual([series[2]]);
    const refused = await run('martian');
    expect(refused.errors![0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'segment' });
    expect(refused.errors![0].message).toBe('segment "martian" is not a segment of the vehicle market index; accepted: domestic, russian, foreign, electric');
  });
});
