/**
 * comparableListings (issue 19) through the real gateway: the training flats nearest to a flat in its
 * district, best first, prices as listed and brought to the valuation date; the input read as
 * homeValuation reads it; a house gets none.
 */
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
let key: string;
beforeAll(async () => {
  stack = await sharedTestStack();
  key = stack.newKey();
});

const FIELDS = 'source period district mahalla mahallaId area rooms floor totalFloors market renovation buildingType priceUsd priceAtValuationDateUsd distanceKm score';
const gql = async (query: string, variables: Record<string, unknown> = {}) => json(await stack.post('/graphql', { query, variables }, { 'x-api-key': key }));
const comparables = (input: Record<string, unknown>, n?: number) =>
  gql(`query($i: HomeValuationInput!, $n: Int) { comparableListings(input: $i, n: $n) { ${FIELDS} } }`, { i: input, n });

const CHILANZAR = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 };

describe('comparableListings', () => {
  it('gives five Chilanzar flats near a 65 m² 3-room flat, best first', async () => {
    const { data, errors } = await comparables(CHILANZAR);
    expect(errors).toBeUndefined();
    const found = data.comparableListings;
    expect(found).toHaveLength(5);
    for (const c of found) {
      expect(c.district).toBe('Chilanzar');
      expect(c.area).toBeGreaterThan(55);
      expect(c.area).toBeLessThan(78);
      expect(c.rooms).toBe(3);
      expect(c.period).toMatch(/^20\d\d-(0[1-9]|1[0-2])$/);
      expect(c.source).toMatch(/^(uybor|olx) 20\d\d/);
      expect(c.priceUsd).toBeGreaterThan(15_000);
      expect(c.priceUsd).toBeLessThan(400_000);
      expect(c.priceAtValuationDateUsd / c.priceUsd).toBeGreaterThan(0.7);
      expect(c.priceAtValuationDateUsd / c.priceUsd).toBeLessThan(2.5);
      if (c.mahallaId) expect(c.mahalla).toEqual(expect.any(String));
    }
    for (let i = 1; i < found.length; i++) expect(found[i].score).toBeGreaterThanOrEqual(found[i - 1].score);
    // The same question, the same answer.
    expect((await comparables(CHILANZAR)).data.comparableListings).toEqual(found);
  });

  it('reads the input as homeValuation does: any spelling, a mahalla places the flat', async () => {
    const spelled = await comparables({ ...CHILANZAR, district: 'Чиланзарский район', mahalla: 'Qatortol' });
    expect(spelled.errors).toBeUndefined();
    expect(spelled.data.comparableListings.every((c: { district: string }) => c.district === 'Chilanzar')).toBe(true);
    // With its mahalla's centre as the point, distances appear.
    expect(spelled.data.comparableListings.some((c: { distanceKm: number | null }) => c.distanceKm !== null)).toBe(true);
  });

  it('brings the prices to the valuation date by the index: six months past the newest data, held at its level', async () => {
    const { data: index } = await gql('{ marketIndex(district: "Chilanzar") { newestPeriod } }');
    const { newestPeriod } = index.marketIndex;
    const [year, month] = newestPeriod.split('-').map(Number);
    const later = `${month > 6 ? year + 1 : year}-${String(((month + 5) % 12) + 1).padStart(2, '0')}-01`;
    const atNewest = (await comparables({ ...CHILANZAR, valuationDate: `${newestPeriod}-15` })).data.comparableListings;
    const atLater = (await comparables({ ...CHILANZAR, valuationDate: later })).data.comparableListings;
    // Every listing is older than both dates, so the ranking is the same and only the level moves.
    expect(atLater.map((c: { priceUsd: number; area: number }) => [c.priceUsd, c.area])).toEqual(atNewest.map((c: { priceUsd: number; area: number }) => [c.priceUsd, c.area]));
    atNewest.forEach((c: { priceAtValuationDateUsd: number }, i: number) => {
      expect(atLater[i].priceAtValuationDateUsd).toBe(c.priceAtValuationDateUsd);
    });
  });

  it('takes n from 1 to 20', async () => {
    expect((await comparables(CHILANZAR, 20)).data.comparableListings).toHaveLength(20);
    expect((await comparables(CHILANZAR, 1)).data.comparableListings).toHaveLength(1);
    for (const n of [0, 21]) {
      const { errors } = await comparables(CHILANZAR, n);
      expect(errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'n' });
    }
  });

  it("answers a bad input with homeValuation's errors", async () => {
    const unknown = await comparables({ ...CHILANZAR, district: 'Chilanzor-Yunus' });
    expect(unknown.data).toBeNull();
    expect(unknown.errors[0].extensions).toMatchObject({ code: 'UNKNOWN_DISTRICT', field: 'district' });
    const valuation = await gql('query($i: HomeValuationInput!) { homeValuation(input: $i) { estimate } }', { i: { ...CHILANZAR, district: 'Chilanzor-Yunus' } });
    expect(unknown.errors[0].message).toBe(valuation.errors[0].message);
    const { floor: _floor, ...withoutFloor } = CHILANZAR;
    expect((await comparables(withoutFloor)).errors[0].extensions).toMatchObject({ code: 'MISSING_PARAMETER', field: 'floor' });
  });

  it('gives a house no comparables, without an error', async () => {
    const { data, errors } = await comparables({ propertyType: 'house', district: 'Yunusabad', area: 200, landArea: 6, rooms: 5, totalFloors: 2 });
    expect(errors).toBeUndefined();
    expect(data.comparableListings).toEqual([]);
  });

  it('needs an API key like any query', async () => {
    const response = await stack.post('/graphql', { query: `{ comparableListings(input: { district: "Chilanzar", area: 65, rooms: 3, floor: 4, totalFloors: 9 }) { priceUsd } }` });
    expect(response.status).toBe(401);
  });
});
