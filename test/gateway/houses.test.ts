/**
 * Houses (issue 15) through the real gateway: property_type and the house fields on the REST route
 * and in GraphQL, the reply's land figures, the warnings for fields that do not apply, and the 422
 * for a house where the model has too little market data. A flat is answered as before.
 * The valuations need the house model of models/artifacts/house; the refused district is read
 * from its manifest (test/support/houses.ts).
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { SAMPLE_HOME_REQUEST, SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { houseManifest, refusedHouseDistrict } from '../support/houses';
import { expectError, json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

const service = useSharedTestStack();
const predict = (body: unknown) => service.post('/api/predict/home', body);
const gql = (query: string, variables: Record<string, unknown> = {}) => service.post('/graphql', { query, variables });

const manifest = houseManifest();
const refused = refusedHouseDistrict(manifest);
/** Only when the model values every district is there no refusal to show (the tests say so where they skip it). */
const withRefusal = refused ? it : it.skip;

/** Relative width of a reply's interval. */
const width = (body: { estimate: number; interval: { low: number; high: number } }) => (body.interval.high - body.interval.low) / body.estimate;

describe('a house on POST /api/predict/home', () => {
  it('gets 200 with property_type house, an estimate inside its interval and the land figures', async () => {
    const response = await predict(SAMPLE_HOUSE_REQUEST);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.property_type).toBe('house');
    expect(body.estimate).toBeGreaterThanOrEqual(body.interval.low);
    expect(body.estimate).toBeLessThanOrEqual(body.interval.high);
    expect(body.interval.low).toBeLessThan(body.interval.high);
    expect(body.land_price_per_sotka).toBeGreaterThan(0);
    expect(body.anomaly.land_share).toBeGreaterThanOrEqual(0);
    expect(body.anomaly.land_share).toBeLessThanOrEqual(1);
    expect(body.anomaly.district_median_price_per_sotka).toBeGreaterThan(0);
    // Issue 35, item 8: the district median is of whole houses per sotka of plot; the like-for-like figure is the house's own estimate per sotka.
    expect(body.anomaly.deviation_from_district_median_per_sotka).toBeCloseTo(body.estimate / SAMPLE_HOUSE_REQUEST.land_area / body.anomaly.district_median_price_per_sotka - 1, 2);
    expect(body.land_price_per_sotka).toBeLessThan(body.estimate / SAMPLE_HOUSE_REQUEST.land_area); // the plot alone, not the whole house
    expect(body.location.district).toBe('Yunusabad');
    expect(body.model_version).toBe(manifest!.version);
    expect(body.warnings).toEqual([]);
  });

  it('without land_area: valued without the plot, with a wider relative interval and a warning', async () => {
    const withPlot = await json(await predict(SAMPLE_HOUSE_REQUEST));
    const { land_area: _plot, ...withoutLand } = SAMPLE_HOUSE_REQUEST;
    const response = await predict(withoutLand);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.property_type).toBe('house');
    expect(body.warnings).toContain('land_area not given: valued without the plot, with a wider interval');
    expect(width(body)).toBeGreaterThan(width(withPlot));
    expect(body.land_price_per_sotka).toBeNull();
    expect(body.anomaly.land_share).toBeNull();
    expect(body.anomaly.deviation_from_district_median_per_sotka).toBeNull();
    expect(body.estimate).toBeGreaterThanOrEqual(body.interval.low);
    expect(body.estimate).toBeLessThanOrEqual(body.interval.high);
  });

  it('takes the plot as land_area_m2 too; both given, they may differ by 1% at most', async () => {
    const { land_area: _plot, ...withoutLand } = SAMPLE_HOUSE_REQUEST;
    const sotka = await json(await predict(SAMPLE_HOUSE_REQUEST));
    const m2 = await json(await predict({ ...withoutLand, land_area_m2: 600 }));
    expect(m2.estimate).toBe(sotka.estimate);
    expect(m2.warnings).toEqual([]);
    expect((await predict({ ...SAMPLE_HOUSE_REQUEST, land_area_m2: 605 })).status).toBe(200);
    const e = await expectError(await predict({ ...SAMPLE_HOUSE_REQUEST, land_area_m2: 700 }), 400, 'INVALID_PARAMETER', 'land_area_m2');
    expect(e.message).toMatch(/land_area/);
  });

  it('needs no floor; its storeys (total_floors) are 1 to 5', async () => {
    const { total_floors: _storeys, ...withoutStoreys } = SAMPLE_HOUSE_REQUEST;
    expect((await predict(withoutStoreys)).status).toBe(200);
    const e = await expectError(await predict({ ...SAMPLE_HOUSE_REQUEST, total_floors: 6 }), 400, 'INVALID_PARAMETER', 'total_floors');
    expect(e.message).toMatch(/between 1 and 5/);
  });

  it('takes the gas, water and sewerage yes/no fields', async () => {
    const response = await predict({ ...SAMPLE_HOUSE_REQUEST, gas: 'ha', water: true, sewerage: "yo'q", renovation: 'Evro', qurilish_turi: "G'ishtli" });
    expect(response.status).toBe(200);
    expect((await json(response)).warnings).toEqual([]);
    // A word that is neither yes nor no is ignored with a warning (issue 35), and the house valued as without it.
    const unsure = await json(await predict({ ...SAMPLE_HOUSE_REQUEST, gas: 'maybe' }));
    expect(unsure.warnings).toEqual([`gas "maybe" is not recognised and was ignored; accepted: yes/no: ha/yo'q, да/нет, true/false`]);
    expect(unsure.estimate).toBe((await json(await predict(SAMPLE_HOUSE_REQUEST))).estimate);
  });

  it('ignores the fields that do not apply to a house, with a warning each', async () => {
    const plain = await json(await predict(SAMPLE_HOUSE_REQUEST));
    const response = await predict({ ...SAMPLE_HOUSE_REQUEST, floor: 1, market: 'resale', mebel: 'ha', sanuzel: 'alohida', seller_type: 'owner' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.warnings).toEqual(['floor', 'market', 'mebel', 'sanuzel', 'seller_type'].map((f) => `${f} does not apply to a house: ignored`));
    expect(body.estimate).toBe(plain.estimate);
  });

  it.each([
    'house', 'House', 'cottage', 'villa', 'hovli', 'Uy-joy', 'uy joy', 'xususiy uy', 'ҳовли', 'уй-жой', 'хусусий уй', 'частный дом', 'Дом', 'коттедж', 'дача',
  ])('reads property_type %s as a house', async (spelling) => {
    const response = await predict({ ...SAMPLE_HOUSE_REQUEST, property_type: spelling });
    expect(response.status).toBe(200);
    expect((await json(response)).property_type).toBe('house');
  });

  withRefusal('in a district with too few house listings: 422 INSUFFICIENT_MARKET_DATA naming district', async () => {
    const e = await expectError(await predict({ ...SAMPLE_HOUSE_REQUEST, district: refused }), 422, 'INSUFFICIENT_MARKET_DATA', 'district');
    expect(e.message).toMatch(new RegExp(`house listings in ${refused}`));
  });
});

describe('a flat, as before', () => {
  it('the reply says apartment, with nulls for the land figures', async () => {
    const body = await json(await predict(SAMPLE_HOME_REQUEST));
    expect(body.property_type).toBe('apartment');
    expect(body.land_price_per_sotka).toBeNull();
    expect(body.anomaly.district_median_price_per_sotka).toBeNull();
    expect(body.anomaly.land_share).toBeNull();
    expect(body.warnings).toEqual([]);
  });

  it.each(['apartment', 'Apartment', 'flat', 'kvartira', 'квартира', 'Квартира'])('reads property_type %s as an apartment, valued as without it', async (spelling) => {
    const plain = await json(await predict(SAMPLE_HOME_REQUEST));
    const body = await json(await predict({ ...SAMPLE_HOME_REQUEST, property_type: spelling }));
    expect(body.property_type).toBe('apartment');
    expect(body.estimate).toBe(plain.estimate);
    expect(body.interval).toEqual(plain.interval);
  });

  it('floor and total_floors stay required: 400 MISSING_PARAMETER naming each', async () => {
    const { floor: _floor, ...withoutFloor } = SAMPLE_HOME_REQUEST;
    const { total_floors: _total, ...withoutTotal } = SAMPLE_HOME_REQUEST;
    const e = await expectError(await predict(withoutFloor), 400, 'MISSING_PARAMETER', 'floor');
    expect(e.message).toMatch(/^floor is required for an apartment/);
    await expectError(await predict({ ...withoutFloor, property_type: 'apartment' }), 400, 'MISSING_PARAMETER', 'floor');
    await expectError(await predict(withoutTotal), 400, 'MISSING_PARAMETER', 'total_floors');
  });

  it('ignores the house fields, with a warning each', async () => {
    const plain = await json(await predict(SAMPLE_HOME_REQUEST));
    const body = await json(await predict({ ...SAMPLE_HOME_REQUEST, land_area: 6, land_area_m2: 600, gas: 'ha', water: 'ha', sewerage: 'ha' }));
    expect(body.warnings).toEqual(['land_area', 'land_area_m2', 'gas', 'water', 'sewerage'].map((f) => `${f} does not apply to an apartment: ignored`));
    expect(body.estimate).toBe(plain.estimate);
  });

  it('an unknown property_type: 400 INVALID_PARAMETER listing the accepted values', async () => {
    const e = await expectError(await predict({ ...SAMPLE_HOME_REQUEST, property_type: 'castle' }), 400, 'INVALID_PARAMETER', 'property_type');
    expect(e.message).toMatch(/"castle" is not recognised; accepted: apartment or house/);
  });
});

describe('houses in GraphQL', () => {
  const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro' };
  const HOUSE = { propertyType: 'hovli', district: 'Yunusabad', area: 200, landArea: 6, rooms: 5, totalFloors: 2, gas: true };
  const FIELDS = 'propertyType estimate pricePerM2 landPricePerSotka interval { low high } anomaly { districtMedianPricePerSotka deviationFromDistrictMedianPerSotka landShare } warnings';

  it('homeValuations values a flat, a house and a refused house in input order', async () => {
    const inputs = [FLAT, HOUSE, { ...HOUSE, district: refused ?? 'Yunusabad' }, { ...FLAT, floor: null }];
    const { data, errors } = await json(await gql(`query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { ${FIELDS} } error { code field message } } }`, { inputs }));
    expect(errors).toBeUndefined();
    const [flat, house, refusedHouse, noFloor] = data.homeValuations;
    expect(data.homeValuations.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3]);
    expect(flat.valuation).toMatchObject({ propertyType: 'apartment', landPricePerSotka: null, anomaly: { districtMedianPricePerSotka: null, deviationFromDistrictMedianPerSotka: null, landShare: null } });
    expect(house.valuation.propertyType).toBe('house');
    expect(house.valuation.landPricePerSotka).toBeGreaterThan(0);
    expect(house.valuation.anomaly.landShare).toBeGreaterThanOrEqual(0);
    expect(house.valuation.anomaly.landShare).toBeLessThanOrEqual(1);
    // The same house alone and in bulk: the same answer.
    const single = await json(await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: HOUSE }));
    expect(house.valuation.estimate).toBe(single.data.homeValuation.estimate);
    if (refused) {
      expect(refusedHouse.valuation).toBeNull();
      expect(refusedHouse.error).toMatchObject({ code: 'INSUFFICIENT_MARKET_DATA', field: 'district' });
    } else {
      // The model values every district: nothing to refuse.
      expect(refusedHouse.valuation.propertyType).toBe('house');
    }
    expect(noFloor.error).toMatchObject({ code: 'MISSING_PARAMETER', field: 'floor' });
  });

  withRefusal('homeValuation of a refused house: a GraphQL error with code INSUFFICIENT_MARKET_DATA', async () => {
    const { data, errors } = await json(await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: { ...HOUSE, district: refused } }));
    expect(data).toBeNull();
    expect(errors[0].extensions).toMatchObject({ code: 'INSUFFICIENT_MARKET_DATA', field: 'district' });
  });

  it('a flat without floor: MISSING_PARAMETER naming floor, as the REST route says', async () => {
    const { totalFloors: _total, ...withoutTotal } = FLAT;
    const { errors } = await json(await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: withoutTotal }));
    expect(errors[0].extensions).toMatchObject({ code: 'MISSING_PARAMETER', field: 'total_floors' });
  });

  it('residentialModel.houses is the house model in service', async () => {
    const { data, errors } = await json(await gql('{ residentialModel { version houses { version trainedAt minListings intervalCoverage metrics { n mape r2 } districts { district listings accuracyClass } members { name weight } } } }'));
    expect(errors).toBeUndefined();
    const { houses } = data.residentialModel;
    expect(houses.version).toBe(manifest!.version);
    expect(houses.minListings).toBe(manifest!.minListings);
    expect(houses.metrics.n).toBeGreaterThan(0);
    expect(houses.members.length).toBeGreaterThanOrEqual(1);
    const yunusabad = houses.districts.find((d: { district: string }) => d.district === 'Yunusabad');
    expect(yunusabad.listings).toBe(manifest!.market.yunusabad.n);
  });
});

describe('a batch item with a house', () => {
  it('is valued with its land figures, in the NDJSON and the CSV results', async () => {
    const house = { property_type: 'house', area: 200, land_area: 6, rooms: 5, total_floors: 2, gas: 'ha' };
    const items = [
      { address: 'Yunusobod 8 kvartal', home: house },
      { address: 'Chilonzor tumani, Qatortol MFY', home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } },
      ...(refused ? [{ address: `${refused} tumani`, home: house }] : []),
    ];
    const submitted = await service.post('/api/batch', { items });
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    const headers = { 'x-api-key': service.key };
    await until(async () => json(await service.stack.fetch(`/api/batch/${id}`, { headers })), (job) => job.status === 'completed', 45_000);
    const lines = (await (await service.stack.fetch(`/api/batch/${id}/results`, { headers })).text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].ok).toBe(true);
    expect(lines[0].result.home).toMatchObject({ property_type: 'house', currency: 'USD' });
    expect(lines[0].result.home.land_price_per_sotka).toBeGreaterThan(0);
    expect(lines[1].result.home).toMatchObject({ property_type: 'apartment', land_price_per_sotka: null });
    if (refused) {
      expect(lines[2]).toMatchObject({ ok: false, result: null, error: { code: 'INSUFFICIENT_MARKET_DATA' } });
    }
    const csv = await (await service.stack.fetch(`/api/batch/${id}/results?format=csv`, { headers })).text();
    const rows = parseCsv(csv, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ property_type: 'house', land_price_per_sotka: String(lines[0].result.home.land_price_per_sotka) });
    expect(rows[1]).toMatchObject({ property_type: 'apartment', land_price_per_sotka: '' });
  });
});
