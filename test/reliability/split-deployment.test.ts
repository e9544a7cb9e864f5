/**
 * The deployment meant for scale, started by the test (issue 17): every subgraph as its own process
 * (`node dist/subgraphs/main.js <name>`), two gateway replicas (`node dist/gateway/main.js`), two
 * batch workers and one Redis. Quotas hold across the replicas, a batchProgress subscription on
 * either replica sees a job submitted on the other, killing a replica loses nothing, and a subgraph
 * process serves its own /metrics (issue 18).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createGraphqlWsClient, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { KeyStore } from '../../gateway/auth/key-store';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';
import { ENTRY, startProcess, stopProcess, type StartedProcess } from '../support/processes';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { until } from '../support/wait';

const INTERNAL_TOKEN = randomBytes(24).toString('base64url');
const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const KEY_PREFIX = `test:split-deployment:${RUN}:`;
const TINY_PLAN = 'split-tiny';
const TINY_PER_DAY = 4;
const PROGRESS = 'subscription($id: ID!) { batchProgress(id: $id) { id status processed total final } }';
const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV'];
const LISTENING = /listening on (\S+)/;

describeWithRedis('the split deployment: subgraphs, two gateway replicas and two workers as processes, one Redis', () => {
  const home = mkdtempSync(join(tmpdir(), 'split-deployment-'));
  const plansFile = join(home, 'plans.json');
  const started: StartedProcess[] = [];
  const gateways: string[] = [];
  let replicaA: StartedProcess;
  let residentialUrl: string;
  let key: string;
  let tinyKey: string;
  const savedPlansFile = process.env.PLANS_FILE;

  beforeAll(async () => {
    writeFileSync(plansFile, JSON.stringify({ ...JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')), [TINY_PLAN]: { quota: { perMinute: 1000, perDay: TINY_PER_DAY }, valuations: { perMinute: 1000, perDay: 1000 }, maxBatchItems: 10, batchItemsPerDay: 10 } }));
    // The key store checks plans against the plans in force here: the same file as the processes'.
    process.env.PLANS_FILE = plansFile;
    const keys = new KeyStore({ file: join(home, 'keys.json') });
    key = keys.create({ org: `split-${RUN}`, plan: 'enterprise' }).key;
    tinyKey = keys.create({ org: `split-tiny-${RUN}`, plan: TINY_PLAN }).key;
    const env = { INTERNAL_TOKEN, REDIS_URL, BATCH_KEY_PREFIX: KEY_PREFIX, OBSERVATION_KEY_PREFIX: `${KEY_PREFIX}observations:`, OBSERVATION_METRICS_REFRESH_MS: '200', VALUATION_RECORD_KEY_PREFIX: `${KEY_PREFIX}valuations:`, VALUATION_HOME: home, PLANS_FILE: plansFile, APOLLO_TELEMETRY_DISABLED: '1', BATCH_LOCK_DURATION_MS: '2000', BATCH_STALLED_INTERVAL_MS: '1000' };
    const start = async (script: string, args: string[], extra: Record<string, string>, ready: RegExp) => {
      const process = await startProcess(script, args, { ...env, ...extra }, ready);
      started.push(process);
      return process;
    };
    const [residential, location, vehicle] = await Promise.all(
      ['residential', 'location', 'vehicle'].map((name) => start(ENTRY.subgraph, [name], { [`${name.toUpperCase()}_PORT`]: '0' }, LISTENING)),
    );
    residentialUrl = residential.ready;
    const urls = { RESIDENTIAL_URL: residential.ready, LOCATION_URL: location.ready, VEHICLE_URL: vehicle.ready };
    const [batch, observations, valuations] = await Promise.all([
      start(ENTRY.subgraph, ['batch'], { ...urls, BATCH_PORT: '0' }, LISTENING),
      start(ENTRY.subgraph, ['observations'], { ...urls, OBSERVATIONS_PORT: '0' }, LISTENING),
      start(ENTRY.subgraph, ['valuations'], { ...urls, VALUATIONS_PORT: '0' }, LISTENING),
    ]);
    const replicas = await Promise.all([0, 1].map(() => start(ENTRY.gateway, [], { ...urls, BATCH_URL: batch.ready, OBSERVATIONS_URL: observations.ready, VALUATIONS_URL: valuations.ready, PORT: '0' }, /gateway listening on (\S+)/)));
    replicaA = replicas[0];
    gateways.push(...replicas.map((r) => r.ready));
    await Promise.all([0, 1].map(() => start(ENTRY.worker, [], urls, /batch worker taking chunks/)));
  }, 180_000);

  afterAll(async () => {
    if (savedPlansFile === undefined) delete process.env.PLANS_FILE;
    else process.env.PLANS_FILE = savedPlansFile;
    await Promise.all(started.map((p) => stopProcess(p)));
    await deleteKeysUnder(KEY_PREFIX, REDIS_URL);
    rmSync(home, { recursive: true, force: true });
  });

  const post = (gateway: string, path: string, body: unknown, apiKey = key) =>
    fetch(gateway + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify(body) });

  async function submit(gateway: string, items: number, chunkSize: number): Promise<string> {
    const response = await post(gateway, '/api/batch', { items: Array.from({ length: items }, (_, i) => ({ address: `${ADDRESSES[i % ADDRESSES.length]}, ${i + 1}-uy` })), chunk_size: chunkSize });
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  }

  /** Every batchProgress event of a job, followed on `gateway`, until the final one. */
  function follow(gateway: string, id: string): Promise<{ final: boolean; status: string; processed: number; total: number }[]> {
    const client = createGraphqlWsClient({ url: `${gateway.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': key }, retryAttempts: 0, lazy: true });
    return new Promise((resolve, reject) => {
      const events: { final: boolean; status: string; processed: number; total: number }[] = [];
      client.subscribe<{ batchProgress: (typeof events)[number] }>(
        { query: PROGRESS, variables: { id } },
        {
          next: (result: ExecutionResult<{ batchProgress: (typeof events)[number] }>) => (result.errors ? reject(new Error(JSON.stringify(result.errors))) : events.push(result.data!.batchProgress)),
          error: reject,
          complete: () => {
            void client.dispose();
            resolve(events);
          },
        },
      );
    });
  }

  it("an organisation's daily quota holds across the replicas: the request after the allowance is refused on whichever replica it reaches", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= TINY_PER_DAY; i++) statuses.push((await post(gateways[i % 2], '/api/location/index', { lat: 41.31, lon: 69.28 }, tinyKey)).status);
    expect(statuses).toEqual([...Array(TINY_PER_DAY).fill(200), 429]);
    expect((await post(gateways[1], '/api/location/index', { lat: 41.31, lon: 69.28 }, tinyKey)).status).toBe(429);
  });

  it('a subscription on either replica follows a job submitted on the other to its final event', async () => {
    for (const [submitOn, followOn] of [[0, 1], [1, 0]]) {
      const id = await submit(gateways[submitOn], 200, 20);
      const events = await follow(gateways[followOn], id);
      expect(events.at(-1)).toMatchObject({ final: true, status: 'completed', processed: 200, total: 200 });
      expect(events.filter((e) => e.final)).toHaveLength(1);
    }
  }, 60_000);

  it("the residential subgraph's process serves its own /metrics, behind the internal token: the homes its organisations observed, and their live accuracy", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const observations = Array.from({ length: 5 }, (_, i) => ({ kind: 'home', district: 'Chilanzar', area: 50 + i, rooms: 2, floor: 3, total_floors: 9, price_usd: 60_000 + 1000 * i, observed_at: today }));
    const recorded = (await (await post(gateways[1], '/api/observations', { observations })).json()) as { accepted: number };
    expect(recorded.accepted).toBe(5);
    const metrics = `${residentialUrl.replace(/\/graphql$/, '')}/metrics`;
    expect((await fetch(metrics)).status).toBe(401);
    const series = `{organisation="split-${RUN}",kind="home"}`;
    const text = await until(
      async () => (await fetch(metrics, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } })).text(),
      (body) => body.includes(`observations_live_count${series} 5`),
    );
    expect(text).toContain(`observations_recorded_total${series} 5`);
    expect(text).toMatch(/^model_info\{kind="residential",version="[^"]+"\} 1$/m);
  });

  it('killing the replica that took a job loses nothing: the other serves it to completion, every item exactly once', async () => {
    const items = 3_000;
    const id = await submit(gateways[0], items, 100);
    await stopProcess(replicaA);
    const getJob = async () => (await fetch(`${gateways[1]}/api/batch/${id}`, { headers: { 'x-api-key': key } })).json() as Promise<{ status: string; processed: number; total: number }>;
    const ended = await until(getJob, (job) => job.status !== 'queued' && job.status !== 'running', 90_000, 200);
    expect(ended).toMatchObject({ status: 'completed', total: items, processed: items });
    const results = await fetch(`${gateways[1]}/api/batch/${id}/results`, { headers: { 'x-api-key': key } });
    const lines = (await results.text()).trim().split('\n').map((line) => JSON.parse(line) as { index: number; ok: boolean });
    expect(lines.map((l) => l.index)).toEqual(Array.from({ length: items }, (_, i) => i));
    expect(lines.filter((l) => l.ok).length).toBeGreaterThan(items * 0.9);
  }, 120_000);
});
