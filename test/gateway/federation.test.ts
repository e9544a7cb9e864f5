/**
 * The District and Mahalla entities across the subgraphs (docs/ARCHITECTURE.md, "A GraphQL query"), through the
 * gateway over HTTP: location owns them, residential extends them with market figures and model
 * accuracy, and HomeValuation.location resolves through them. Once with the subgraphs in process,
 * once called over loopback HTTP (SUBGRAPH_TRANSPORT=http); then a hot swap seen by the entities.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execute, parse } from 'graphql';
import { runModelCli } from '../../tools/models/residential/model-cli';
import { MIN_MAHALLA_ROWS } from '../../models/residential/market';
import { DISTRICT_NAMES } from '../../models/vocabulary';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { artifactsWithTwoVersions } from '../support/artifacts';
import { json, startTestStack, type TestStack } from '../support/stack';

const SAMPLE_INPUT = {
  district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9,
  renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida',
};

const VALUATION_WITH_LOCATION_INDEX = /* GraphQL */ `
  query($input: HomeValuationInput!) {
    homeValuation(input: $input) {
      estimate
      anomaly { districtMedianPricePerM2 mahallaMedianPricePerM2 }
      marketLevel { indexRatio }
      location {
        district { name locationIndex { composite { score } } modelAccuracy { mape } marketStatistics { listings medianPricePerM2 } }
        mahalla { id name locationIndex { composite { score } } marketStatistics { medianPricePerM2 } }
        districtName mahallaName mahallaId matched
      }
    }
  }`;

const ALL_DISTRICT_NAMES = Object.values(DISTRICT_NAMES).sort();

describe.each([
  ['in process', 'local'],
  ['over HTTP', 'http'],
])('with the subgraphs called %s', (_name, transport) => {
  let stack: TestStack;
  let key: string;
  beforeAll(async () => {
    stack = await startTestStack({ env: { SUBGRAPH_TRANSPORT: transport } });
    key = stack.newKey('enterprise');
  });
  afterAll(() => stack.stop());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
    const response = await stack.post('/graphql', { query, variables }, { 'x-api-key': key });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  async function accuracyByDistrict(): Promise<Map<string, { accuracyClass: string; mape: number }>> {
    const { residentialModel } = await gql('{ residentialModel { districts { district accuracyClass metrics { mape } } } }');
    return new Map(residentialModel.districts.map((d: { district: string; accuracyClass: string; metrics: { mape: number } }) => [d.district, { accuracyClass: d.accuracyClass, mape: d.metrics.mape }]));
  }

  it('returns a valuation with the location index of its district and mahalla in one query', async () => {
    const { homeValuation: v } = await gql(VALUATION_WITH_LOCATION_INDEX, { input: SAMPLE_INPUT });
    const rest = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
    expect(v.estimate).toBe(rest.estimate);
    expect(v.location.matched).toBe('mahalla');
    expect(v.location.districtName).toBe('Chilanzar');
    expect(v.location.district.name).toBe('Chilanzar');
    expect(v.location.mahalla.id).toBe('chilanzar/katartal');
    expect(v.location.mahallaId).toBe(v.location.mahalla.id);
    expect(v.location.mahalla.name).toBe('Katartal'); // a location-owned field of the entity
    expect(v.location.mahallaName).toBe(v.location.mahalla.name);
    expect(typeof v.location.district.locationIndex.composite.score).toBe('number');
    expect(typeof v.location.mahalla.locationIndex.composite.score).toBe('number');

    // The same figures as asking each subgraph on its own.
    const { district } = await gql('{ district(name: "Chilanzar") { locationIndex { composite { score } } } }');
    expect(v.location.district.locationIndex.composite.score).toBe(district.locationIndex.composite.score);
    expect(v.location.district.modelAccuracy.mape).toBe((await accuracyByDistrict()).get('Chilanzar')!.mape);
    // The place's statistics are at the newest month's level; the valuation's anomaly check at its date's (index ratio, rounded to 3 places).
    const atValuationDate = (median: number) => median * v.marketLevel.indexRatio;
    expect(Math.abs(v.anomaly.districtMedianPricePerM2 - atValuationDate(v.location.district.marketStatistics.medianPricePerM2))).toBeLessThanOrEqual(2);
    expect(v.location.district.marketStatistics.listings).toBeGreaterThan(0);
    expect(Math.abs(v.anomaly.mahallaMedianPricePerM2 - atValuationDate(v.location.mahalla.marketStatistics.medianPricePerM2))).toBeLessThanOrEqual(2);
  });

  it('values at district level with mahalla null when the mahalla is not recognised', async () => {
    const { homeValuation: v } = await gql(VALUATION_WITH_LOCATION_INDEX, { input: { ...SAMPLE_INPUT, mahalla: 'Atlantis' } });
    expect(v.location.matched).toBe('district');
    expect(v.location.mahalla).toBeNull();
    expect(v.location.mahallaId).toBeNull();
    expect(typeof v.location.district.locationIndex.composite.score).toBe('number');
  });

  it('lists the 12 districts with fields from both subgraphs', async () => {
    const { districts } = await gql('{ districts { name mahallas { id } modelAccuracy { accuracyClass } marketStatistics { medianPricePerM2 } } }');
    expect(districts.map((d: { name: string }) => d.name).sort()).toEqual(ALL_DISTRICT_NAMES);
    const accuracy = await accuracyByDistrict();
    for (const d of districts) {
      expect(d.mahallas.length).toBeGreaterThan(0); // location
      expect(d.modelAccuracy.accuracyClass).toBe(accuracy.get(d.name)!.accuracyClass); // residential
      expect(d.marketStatistics.medianPricePerM2).toBeGreaterThan(0); // residential
    }
  });

  it('gives mahalla market figures only where the model kept a median', async () => {
    const { districts } = await gql('{ districts { mahallas { id marketStatistics { listings medianPricePerM2 } } } }');
    const mahallas = districts.flatMap((d: { mahallas: unknown[] }) => d.mahallas) as { id: string; marketStatistics: { listings: number; medianPricePerM2: number } | null }[];
    const withFigures = mahallas.filter((m) => m.marketStatistics !== null);
    expect(withFigures.length).toBeGreaterThan(0);
    expect(withFigures.length).toBeLessThan(mahallas.length);
    for (const m of withFigures) expect(m.marketStatistics!.listings).toBeGreaterThanOrEqual(MIN_MAHALLA_ROWS);
  });

  it('finds a district by its Russian name and adds its model accuracy', async () => {
    const { district } = await gql('{ district(name: "Чиланзарский район") { name modelAccuracy { mape } } }');
    expect(district.name).toBe('Chilanzar');
    expect(district.modelAccuracy.mape).toBe((await accuracyByDistrict()).get('Chilanzar')!.mape);
  });

  it('resolves residential entity references by key, and an unknown key to null', async () => {
    const { schema, context } = stack.residential.inProcess;
    const representations = [
      { __typename: 'District', name: 'Mirzo-Ulugbek' }, { __typename: 'District', name: 'Narnia' },
      { __typename: 'Mahalla', id: 'chilanzar/katartal' }, { __typename: 'Mahalla', id: 'chilanzar/atlantis' },
    ];
    const result = await execute({
      schema,
      document: parse('query($r: [_Any!]!) { _entities(representations: $r) { ... on District { name modelAccuracy { n } } ... on Mahalla { id marketStatistics { listings } } } }'),
      variableValues: { r: representations },
      contextValue: context({}),
    });
    expect(result.errors).toBeUndefined();
    const [district, unknownDistrict, mahalla, unknownMahalla] = result.data!._entities as ({ name?: string; modelAccuracy?: { n: number }; id?: string; marketStatistics?: { listings: number } } | null)[];
    expect(district!.name).toBe('Mirzo-Ulugbek');
    expect(district!.modelAccuracy!.n).toBeGreaterThan(0);
    expect(unknownDistrict).toBeNull();
    expect(mahalla!.id).toBe('chilanzar/katartal');
    expect(mahalla!.marketStatistics!.listings).toBeGreaterThanOrEqual(MIN_MAHALLA_ROWS);
    expect(unknownMahalla).toBeNull();
  });
});

describe('after a hot swap', () => {
  const artifacts = artifactsWithTwoVersions();
  let stack: TestStack;
  let key: string;
  beforeAll(async () => {
    // The copy differs from the original in Chilanzar's figures, so the switch is visible.
    const manifestPath = join(artifacts.root, artifacts.copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.evaluation.headline.districts.chilanzar.mape = 0.4321;
    manifest.market.district.chilanzar.n = 4321;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    stack = await startTestStack({ artifactsRoot: artifacts.root, env: { SUBGRAPH_TRANSPORT: 'local' } });
    key = stack.newKey('enterprise');
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(artifacts.root, { recursive: true, force: true });
  });

  it('reads the district figures of the version in service', async () => {
    const query = async (q: string) => (await json(await stack.post('/graphql', { query: q }, { 'x-api-key': key }))).data;
    const chilanzar = async () => (await query('{ district(name: "Chilanzar") { modelAccuracy { mape } marketStatistics { listings } } }')).district;
    expect((await chilanzar()).modelAccuracy.mape).not.toBe(0.4321);
    expect(runModelCli(['promote', artifacts.copy], () => undefined, artifacts.root)).toBe(0);
    // (TestStack spreads the running stack, so its modelVersion is a snapshot: ask the graph.)
    const until = Date.now() + 8000;
    while ((await query('{ residentialModel { version } }')).residentialModel.version !== artifacts.copy && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await chilanzar()).toEqual({ modelAccuracy: { mape: 0.4321 }, marketStatistics: { listings: 4321 } });
  });
});
