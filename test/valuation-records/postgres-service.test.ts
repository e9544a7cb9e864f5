/**
 * Issue 34, item 3, over HTTP to the real gateway: with DATABASE_URL, valuations are recorded and
 * observed prices kept in PostgreSQL, read back through REST, and found again by a service started
 * afresh on the same database (another replica, or the same one after a restart).
 */
import { Pool } from 'pg';
import { smallestBySampleKey } from '../../subgraphs/common/valuation-records';
import { ValuationRecorder } from '../../subgraphs/common/valuation-recorder';
import { DATABASE_URL, describeWithPostgres, TestSchemas } from '../support/postgres';
import { json, startTestStack, type TestStack } from '../support/stack';

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const today = () => new Date().toISOString().slice(0, 10);

describeWithPostgres('valuation records and observations in PostgreSQL, through the service', () => {
  const schemas = new TestSchemas();
  const schema = schemas.next();
  const org = `pg-bank-${process.pid}`;
  let pool: Pool;
  const stacks: TestStack[] = [];
  const start = async () => {
    const stack = await startTestStack({ databaseUrl: DATABASE_URL, env: { DATABASE_SCHEMA: schema } });
    stacks.push(stack);
    return { stack, key: stack.keys.create({ org, plan: 'standard' }).key };
  };
  beforeAll(() => {
    pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  });
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
    await pool.end();
    await schemas.dropAll();
    delete process.env.DATABASE_SCHEMA;
  });

  it('records a valuation and keeps observations there, and a service started again finds both', async () => {
    const first = await start();
    const valued = await json(await first.stack.post('/api/predict/home', FLAT, { 'x-api-key': first.key }));
    expect(valued.valuation_id).toMatch(/^val_/);
    const recorded = await json(
      await first.stack.post('/api/observations', { observations: [{ kind: 'home', ...FLAT, price_usd: 61_000, observed_at: today(), price_type: 'sale', reference: 'loan-1' }] }, { 'x-api-key': first.key }),
    );
    expect(recorded.accepted).toBe(1);

    // The rows are in the database, in the month's partition, under the caller's organisation.
    const month = today().slice(0, 7).replace('-', '_');
    const { rows: records } = await pool.query(`SELECT org, record->'valuation'->>'estimate' AS estimate FROM ${schema}.valuations_home_${month} WHERE id = $1`, [valued.valuation_id]);
    expect(records).toEqual([{ org, estimate: String(valued.estimate) }]);
    const { rows: observations } = await pool.query(`SELECT org, kind, record->>'reference' AS reference FROM ${schema}.observations`);
    expect(observations).toEqual([{ org, kind: 'home', reference: 'loan-1' }]);
    await first.stack.stop();
    stacks.pop();

    // A fresh service (new process state, new key for the same organisation) reads both back.
    const second = await start();
    const again = await second.stack.fetch(`/api/valuations/${valued.valuation_id}`, { headers: { 'x-api-key': second.key } });
    expect(again.status).toBe(200);
    expect((await json(again)).valuation.estimate).toBe(valued.estimate);
    const exported = (await (await second.stack.fetch('/api/observations?kind=home', { headers: { 'x-api-key': second.key } })).text()).trim().split('\n').map((line) => JSON.parse(line));
    expect(exported.map((o) => o.reference)).toEqual(['loan-1']);
    // A review sample is drawn in the database (each kind's table its own, merged by key), as every store draws it.
    const more = [
      (await json(await second.stack.post('/api/predict/home', { ...FLAT, area: 72 }, { 'x-api-key': second.key }))).valuation_id,
      (await json(await second.stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 }, { 'x-api-key': second.key }))).valuation_id,
    ];
    const all = [valued.valuation_id, ...more].map((id: string) => ({ id }));
    const sample = await json(await second.stack.fetch(`/api/valuations/sample?period=${today()}&n=2&seed=pg-audit`, { headers: { 'x-api-key': second.key } }));
    expect(sample).toMatchObject({ population: 3, seed: 'pg-audit' });
    expect(sample.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual(smallestBySampleKey('pg-audit', 2, all).map((r) => r.id).sort());
    // Another organisation sees neither.
    const stranger = second.stack.newKey();
    expect((await second.stack.fetch(`/api/valuations/${valued.valuation_id}`, { headers: { 'x-api-key': stranger } })).status).toBe(404);
  });

  it("reads a record by id from the homes' store first, and the vehicles' only for an id the homes do not have", async () => {
    const { stack, key } = await start();
    const headers = { 'x-api-key': key };
    const home = (await json(await stack.post('/api/predict/home', FLAT, headers))).valuation_id;
    const car = (await json(await stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 }, headers))).valuation_id;
    // The kinds whose store each read asks, in order (the subgraphs run in this process).
    const asked: string[] = [];
    const get = jest.spyOn(ValuationRecorder.prototype, 'get').mockImplementation(function (this: ValuationRecorder, org: string, id: string) {
      asked.push(this.kind);
      return this.store.get(org, id);
    });
    try {
      const kindsAsked = async (id: string, status: number) => {
        asked.length = 0;
        const response = await stack.fetch(`/api/valuations/${id}`, { headers });
        expect(response.status).toBe(status);
        if (status === 200) expect((await json(response)).valuation_id).toBe(id);
        return [...asked];
      };
      expect(await kindsAsked(home, 200)).toEqual(['home']);
      expect(await kindsAsked(car, 200)).toEqual(['home', 'vehicle']);
      expect(await kindsAsked(`val_${'0'.repeat(26)}`, 404)).toEqual(['home', 'vehicle']);
    } finally {
      get.mockRestore();
    }
  });
});
