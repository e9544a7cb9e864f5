/** POST /api/predict/home, the fixed legacy contract, against the real running service. */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { expectError, json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
let key: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  key = stack.newKey('enterprise');
});

const predict = (body: unknown, headers: Record<string, string> = {}) => stack.post('/api/predict/home', body, { 'x-api-key': key, ...headers });

describe('the seed sample request', () => {
  it('gets 200 with estimate, calibrated interval, confidence, models and anomaly data', async () => {
    const response = await predict(SAMPLE_HOME_REQUEST);
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('v1.0');
    const body = await json(response);
    expect(body.currency).toBe('USD');
    // A 65 m² three-room flat in Chilanzar sells for tens of thousands of dollars, not hundreds or millions.
    expect(body.estimate).toBeGreaterThan(30_000);
    expect(body.estimate).toBeLessThan(200_000);
    expect(body.price_per_m2).toBeCloseTo(body.estimate / 65, -1);
    expect(body.interval.low).toBeLessThan(body.estimate);
    expect(body.interval.high).toBeGreaterThan(body.estimate);
    expect(body.interval.coverage).toBe(0.9);
    expect(['high', 'medium', 'low']).toContain(body.confidence.level);
    expect(body.confidence.score).toBeGreaterThanOrEqual(0);
    expect(body.confidence.score).toBeLessThanOrEqual(1);
    expect(body.models.length).toBeGreaterThanOrEqual(1);
    for (const m of body.models) expect(m.estimate).toBeGreaterThan(0);
    // Each member says its weight in the estimate served (issue 35, item 9); together they make the consensus.
    expect(body.models.reduce((sum: number, m: { weight: number }) => sum + m.weight, 0)).toBeCloseTo(1, 2);
    const served = body.models.filter((m: { weight: number }) => m.weight > 0).map((m: { estimate: number }) => m.estimate);
    expect(body.anomaly.model_spread).toBeCloseTo(served.length > 1 ? (Math.max(...served) - Math.min(...served)) / body.estimate : 0, 2);
    expect(body.anomaly.district_median_price_per_m2).toBeGreaterThan(300);
    expect(typeof body.anomaly.deviation_from_district_median).toBe('number');
    expect(Array.isArray(body.anomaly.flags)).toBe(true);
    expect(body.location.district).toBe('Chilanzar');
    expect(body.model_version).toBe(stack.modelVersion);
    expect(new Date(body.valued_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('values a bigger flat higher, other things equal (the model is not a constant)', async () => {
    const small = await json(await predict({ ...SAMPLE_HOME_REQUEST, area: 45, rooms: 2 }));
    const large = await json(await predict({ ...SAMPLE_HOME_REQUEST, area: 110, rooms: 4 }));
    expect(large.estimate).toBeGreaterThan(small.estimate * 1.5);
  });

  it('a district field holding more of the address is read as the district it names, with a warning; two districts are none', async () => {
    const response = await predict({ ...SAMPLE_HOME_REQUEST, district: 'Chilonzor tumani, Qatortol MFY' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.location.district).toBe('Chilanzar');
    expect(body.warnings).toContain('district "Chilonzor tumani, Qatortol MFY" read as Chilanzar; the rest of it was not used (a mahalla goes in mahalla)');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, district: 'Chilanzar, Yunusabad' }), 400, 'UNKNOWN_DISTRICT', 'district');
  });

  it('accepts district and category names in other scripts and spellings', async () => {
    const variants = [
      { district: 'Chilonzor tumani', qurilish_turi: 'Gishtli' },
      { district: 'Чиланзарский район', qurilish_turi: 'Кирпичный', renovation: 'Евроремонт' },
      { district: 'Чилонзор', qurilish_turi: 'Gʻishtli', mebel: 'да', sanuzel: 'раздельный' },
      { district: 'Chilanzr', renovation: 'euro' }, // a typo
      { district: 'г. Ташкент, Чиланзарский район' }, // with the city, as other sites write it
      { district: 'Toshkent shahri, Chilonzor tumani' },
    ];
    const base = await json(await predict(SAMPLE_HOME_REQUEST));
    for (const v of variants) {
      const response = await predict({ ...SAMPLE_HOME_REQUEST, ...v });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.location.district).toBe('Chilanzar');
      expect(Math.abs(body.estimate - base.estimate) / base.estimate).toBeLessThan(0.01);
    }
  });

  it("takes the flat's point (lat, lon): two points in the district are valued apart, a point in another district is dropped with a warning", async () => {
    const { mahalla: _mahalla, ...withoutMahalla } = SAMPLE_HOME_REQUEST;
    const plain = await json(await predict(withoutMahalla));
    const here = await json(await predict({ ...withoutMahalla, lat: 41.275, lon: 69.205 }));
    const there = await json(await predict({ ...withoutMahalla, lat: 41.255, lon: 69.19 }));
    expect(here.estimate).not.toBe(there.estimate);
    expect(here.warnings).toEqual([]);
    const elsewhere = await predict({ ...withoutMahalla, lat: 41.36, lon: 69.29 }); // Yunusabad
    expect(elsewhere.status).toBe(200);
    const body = await json(elsewhere);
    expect(body.warnings.join(' ')).toMatch(/lies in Yunusabad, not in Chilanzar/);
    expect(body.estimate).toBe(plain.estimate);
  });

  it('falls back to district level with a warning for an unknown mahalla', async () => {
    const body = await json(await predict({ ...SAMPLE_HOME_REQUEST, mahalla: 'Nonexistent Mahalla Name' }));
    expect(body.location.matched).toBe('district');
    expect(body.warnings.join(' ')).toMatch(/mahalla/);
  });
});

describe('bad input gets a clear 400 with code and field', () => {
  it('wrong type', async () => {
    const e = await expectError(await predict({ ...SAMPLE_HOME_REQUEST, area: 'abc' }), 400, 'INVALID_PARAMETER', 'area');
    expect(e.message).toBe('area must be a number');
  });
  it('missing required field', async () => {
    const { rooms, ...withoutRooms } = SAMPLE_HOME_REQUEST;
    expect(rooms).toBe(3);
    await expectError(await predict(withoutRooms), 400, 'MISSING_PARAMETER', 'rooms');
  });
  it('out-of-range numbers', async () => {
    const area = await expectError(await predict({ ...SAMPLE_HOME_REQUEST, area: 5 }), 400, 'INVALID_PARAMETER', 'area');
    expect(area.message).toBe('area must be between 10 and 1000');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, rooms: 21 }), 400, 'INVALID_PARAMETER', 'rooms');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, total_floors: 61 }), 400, 'INVALID_PARAMETER', 'total_floors');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, rooms: 2.5 }), 400, 'INVALID_PARAMETER', 'rooms');
  });
  it('a point needs both lat and lon, inside the city\'s range', async () => {
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, lat: 41.275 }), 400, 'INVALID_PARAMETER', 'lon');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, lon: 69.205 }), 400, 'INVALID_PARAMETER', 'lat');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, lat: 55.75, lon: 37.62 }), 400, 'INVALID_PARAMETER', 'lat');
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, lat: '41.3', lon: 69.2 }), 400, 'INVALID_PARAMETER', 'lat');
  });
  it('floor above total_floors', async () => {
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, floor: 12, total_floors: 9 }), 400, 'INVALID_PARAMETER', 'floor');
  });
  it('malformed JSON', async () => {
    await expectError(await predict('{"district": "Chilanzar", "area": '), 400, 'INVALID_JSON');
  });
  it('a prototype-pollution key is refused as invalid JSON', async () => {
    await expectError(await predict('{"__proto__": {"admin": true}, "district": "Chilanzar"}'), 400, 'INVALID_JSON');
  });
  it('unknown district, with suggestions', async () => {
    const e = await expectError(await predict({ ...SAMPLE_HOME_REQUEST, district: 'Samarkand' }), 400, 'UNKNOWN_DISTRICT', 'district');
    expect(Array.isArray(e.suggestions)).toBe(true);
    expect(e.suggestions.length).toBeGreaterThan(0);
  });
  it.each([['name', 'Aziz'], ['phone', '+998901234567'], ['passport', 'AA1234567'], ['pinfl', '12345678901234'], ['email', 'a@b.uz'], ['birth_date', '1990-01-01'], ['Full Name', 'X']])(
    'personal data field %s',
    async (field, value) => {
      await expectError(await predict({ ...SAMPLE_HOME_REQUEST, [field]: value }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', field);
    },
  );
  it('a phone number hidden in an unknown field', async () => {
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, comment: 'call 90 123 45 67' }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'comment');
  });
  it('a body that is not an object', async () => {
    await expectError(await predict([1, 2, 3]), 400, 'INVALID_PARAMETER');
  });
  it('bodies over 64 KB get 413', async () => {
    await expectError(await predict({ ...SAMPLE_HOME_REQUEST, padding: 'x'.repeat(70 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  });
  it('the service still answers after all that', async () => {
    expect((await predict(SAMPLE_HOME_REQUEST)).status).toBe(200);
  });
});

describe('an optional description that is not recognised is ignored with a warning, not refused (issue 35)', () => {
  const { renovation, qurilish_turi, mebel, sanuzel, ...basics } = SAMPLE_HOME_REQUEST;
  it.each([
    ['renovation', { renovation: 'xyzzy' }, { qurilish_turi, mebel, sanuzel }, /accepted: euro \(Евроремонт, .*needs_repair \(.*Ta'mirsiz/],
    ['qurilish_turi', { qurilish_turi: 'saman' }, { renovation, mebel, sanuzel }, /accepted: panel \(Панельный, Panelli\); brick/],
    ['sanuzel', { sanuzel: 'tashqarida' }, { renovation, qurilish_turi, mebel }, /accepted: separate \(/],
    ['mebel', { mebel: 'qisman' }, { renovation, qurilish_turi, sanuzel }, /accepted: yes\/no/],
    ['seller_type', { seller_type: 'broker-ish' }, { renovation, qurilish_turi, mebel, sanuzel }, /accepted: owner \(private, mulkdor/],
  ])('%s', async (field, unknown, rest, accepted) => {
    const withUnknown = await predict({ ...basics, ...rest, ...unknown });
    expect(withUnknown.status).toBe(200);
    const body = await json(withUnknown);
    const warning = body.warnings.find((w: string) => w.startsWith(`${field} "`));
    expect(warning).toMatch(new RegExp(`^${field} ".+" is not recognised and was ignored; accepted: `));
    expect(warning).toMatch(accepted);
    // Valued exactly as without the field.
    const without = await json(await predict({ ...basics, ...rest }));
    expect(body.estimate).toBe(without.estimate);
  });

  it.each(["Ta'mirsiz", 'Remontsiz', 'без ремонта', 'Требует ремонта', 'Таъмирсиз'])('"%s" reads as needs_repair', async (spelling) => {
    const spelled = await json(await predict({ ...SAMPLE_HOME_REQUEST, renovation: spelling }));
    const coded = await json(await predict({ ...SAMPLE_HOME_REQUEST, renovation: 'needs_repair' }));
    expect(spelled.warnings ?? []).toEqual(coded.warnings ?? []);
    expect(spelled.estimate).toBe(coded.estimate);
  });
});

describe('authentication', () => {
  it('401 without a key, with a wrong key, and with a revoked key (revoked in the key file, as the keys CLI does: the gateway sees it within a second)', async () => {
    await expectError(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST), 401, 'INVALID_API_KEY');
    await expectError(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': 'tvk_abcdefgh_notarealsecret000000000000000' }), 401, 'INVALID_API_KEY');
    const created = stack.keys.create({ org: 'revoked-org', plan: 'pilot' });
    expect((await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': created.key })).status).toBe(200);
    await stack.revokeKey(created.record.id, created.key);
    await expectError(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': created.key }), 401, 'INVALID_API_KEY');
  });

  it('every authenticated response carries RateLimit headers', async () => {
    const response = await predict(SAMPLE_HOME_REQUEST);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(response.headers.get(h)).toMatch(/^\d+$/);
    }
    const error = await predict({ ...SAMPLE_HOME_REQUEST, area: 'abc' });
    expect(error.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  });
});
