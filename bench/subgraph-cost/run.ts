/**
 * bench/subgraph-cost: what one valuation costs the residential (or, with --kind vehicle, the vehicle)
 * subgraph alone (issue 34, item 1), records on. The subgraph runs in a child process as in a split
 * deployment (`node dist/subgraphs/main.js residential`), called with the gateway's headers for an organisation
 * (so every valuation is recorded), first with single valuations (the REST route's operation), then
 * with 100-item `homeValuations` (`vehicleValuations`) calls. The child's CPU time is read from /proc before and after each
 * round: CPU per valuation does not depend on what the machine's neighbours take, req/s does.
 *
 * Usage: npm run build && node dist/bench/subgraph-cost/run.js
 *   [--kind residential|vehicle] [--duration 10] [--warmup 3] [--connections 16] [--items 100] [--store files|redis|postgres] [--only floor|single|bulk] [--profile DIR]
 *   [--builds DIR,DIR… --rounds 3]
 * (--store postgres uses DATABASE_URL, redis REDIS_URL; --profile writes the child's .cpuprofile to DIR:
 *  read it with `node dist/bench/profile-top.js DIR/<file>`. --builds compares compiled trees (each a
 *  folder holding subgraphs/main.js, e.g. a copy of an older dist inside this checkout so that it finds
 *  node_modules and the data): one subgraph per build, their rounds alternated, medians per build.)
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { VEHICLE_VALUATION_OPERATION } from '../../gateway/operations/vehicle';
import { option } from '../cli';
import { announced, processCpuMs as cpuMs, processRssMb as rssMb, stopChild } from '../proc';

const DURATION = Number(option('duration', '10'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '16'));
const ITEMS = Number(option('items', '100'));
const STORE = option('store', 'files');
const PROFILE_DIR = option('profile');
/** 'floor', 'single' or 'bulk' runs that round alone (a profile of one shape of call). */
const ONLY = option('only');
/** Compiled trees to compare (default: this one), and how many times each round is alternated between them. */
const BUILDS = (option('builds') ?? join(__dirname, '..', '..')).split(',');
const ROUNDS = Number(option('rounds', BUILDS.length > 1 ? '3' : '1'));

/** What each kind's rounds send: the REST route's operation, a sample input, and how a bulk call's items vary. */
const KINDS = {
  residential: {
    operation: HOME_VALUATION_OPERATION,
    field: 'homeValuation',
    input: { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida' } as Record<string, unknown>,
    item: (i: number) => ({ area: 40 + (i % 60), floor: 1 + (i % 9) }),
    inputType: 'HomeValuationInput',
  },
  vehicle: {
    operation: VEHICLE_VALUATION_OPERATION,
    field: 'vehicleValuation',
    input: { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60_000, transmission: 'automatic', fuel: 'petrol', bodyType: 'sedan' } as Record<string, unknown>,
    item: (i: number) => ({ year: 2012 + (i % 12), mileage: 20_000 + 5_000 * (i % 30) }),
    inputType: 'VehicleValuationInput',
  },
} as const;
const KIND = option('kind', 'residential') as keyof typeof KINDS;
if (!(KIND in KINDS)) throw new Error(`--kind is residential or vehicle, not ${KIND}`);
const { operation: OPERATION, field: FIELD, input: INPUT, item: ITEM, inputType: INPUT_TYPE } = KINDS[KIND];
/** The single operation's selection, reused for each bulk item: both rounds answer the same fields. */
const SELECTION = OPERATION.query.slice(OPERATION.query.indexOf(`${FIELD}(input: $input) {`) + `${FIELD}(input: $input) `.length).trim().replace(/\}\s*$/, '');
const BULK_QUERY = `query Bulk($inputs: [${INPUT_TYPE}!]!) { ${FIELD}s(inputs: $inputs) { index error { code message } valuation ${SELECTION} } }`;

async function startSubgraph(build: string, home: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, INTERNAL_TOKEN: 'bench-token', [`${KIND.toUpperCase()}_PORT`]: '0', VALUATION_HOME: home, NODE_ENV: 'production' };
  if (STORE !== 'redis') delete env.REDIS_URL;
  if (STORE !== 'postgres') delete env.DATABASE_URL;
  if (STORE === 'postgres' && !env.DATABASE_URL) throw new Error('--store postgres needs DATABASE_URL');
  if (STORE === 'redis' && !env.REDIS_URL) throw new Error('--store redis needs REDIS_URL');
  const execArgv = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = fork(join(build, 'subgraphs', 'main.js'), [KIND], { env, execArgv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [, url] = await announced(child, `the ${KIND} subgraph`, /listening on (\S+)/);
  return {
    url,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}

function load(url: string, body: string, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers: { 'content-type': 'application/json', 'x-internal-token': 'bench-token', 'x-organisation': 'bench-org', 'x-plan': 'standard', 'x-request-id': 'bench' },
    body,
  });
}

async function main(): Promise<void> {
  const homes = BUILDS.map(() => mkdtempSync(join(tmpdir(), 'subgraph-cost-')));
  const subgraphs = [];
  for (const [i, build] of BUILDS.entries()) subgraphs.push(await startSubgraph(build, homes[i]));
  const single = JSON.stringify({ query: OPERATION.query, variables: { input: INPUT } });
  const bulk = JSON.stringify({ query: BULK_QUERY, variables: { inputs: Array.from({ length: ITEMS }, (_, i) => ({ ...INPUT, ...ITEM(i) })) } });
  // Each reply is checked once: a round of errors would measure nothing. Builds must answer alike (ids and times aside).
  const answers = new Map<string, string>();
  for (const subgraph of subgraphs) {
    for (const body of [single, bulk]) {
      const reply = (await (await fetch(subgraph.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-token': 'bench-token', 'x-organisation': 'bench-org', 'x-plan': 'standard' }, body })).json()) as { data?: Record<string, unknown>; errors?: unknown };
      if (reply.errors || !reply.data) throw new Error(`the subgraph answered ${JSON.stringify(reply).slice(0, 300)}`);
      const answer = JSON.stringify(reply.data, (key, value: unknown) => (key === 'valuationId' || key === 'valuedAt' ? undefined : value));
      if (answers.has(body) && answers.get(body) !== answer) throw new Error(`${subgraph.url} answers otherwise than ${BUILDS[0]}`);
      answers.set(body, answer);
    }
  }
  // The floor: what the subgraph's HTTP and GraphQL server costs for a query that values nothing.
  const floor = JSON.stringify({ query: '{ __typename }' });
  const rounds = [['floor', 'floor: { __typename }', floor, 1], ['single', 'single valuation', single, 1], ['bulk', `${ITEMS}-item ${FIELD}s`, bulk, ITEMS]] as const;
  const rows: string[] = [];
  const perValuation = new Map<string, number[][]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [, name, body, perCall] of rounds.filter(([key]) => !ONLY || key === ONLY)) {
      for (const [b, subgraph] of subgraphs.entries()) {
        await load(subgraph.url, body, WARMUP);
        const before = cpuMs(subgraph.pid);
        const result = await load(subgraph.url, body, DURATION);
        const cpu = cpuMs(subgraph.pid) - before;
        const calls = result.requests.total;
        const perValuationUs = (cpu * 1000) / (calls * perCall);
        const runs = perValuation.get(name) ?? BUILDS.map(() => []);
        runs[b].push(perValuationUs);
        perValuation.set(name, runs);
        const build = BUILDS.length > 1 ? ` | ${BUILDS[b]}` : '';
        const line = `| ${name}${build} | ${Math.round(result.requests.average)} | ${Math.round(result.requests.average * perCall)} | ${result.latency.p50} | ${result.latency.p99} | ${perValuationUs.toFixed(0)} | ${Math.round(rssMb(subgraph.pid))} | ${result.errors} / ${result.non2xx} |`;
        console.error(line);
        rows.push(line);
      }
    }
  }
  for (const subgraph of subgraphs) await subgraph.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  console.log(`\n${KIND} subgraph alone, records ${STORE === 'files' ? 'in files' : `in ${STORE}`}, ${CONNECTIONS} connections, ${DURATION} s a round after ${WARMUP} s warm-up, ${new Date().toISOString()}, node ${process.version}\n`);
  console.log(`| round${BUILDS.length > 1 ? ' | build' : ''} | calls/s | valuations/s | p50 ms | p99 ms | CPU µs per valuation | RSS MB after | errors / non-2xx |`);
  console.log(`|---${BUILDS.length > 1 ? '|---' : ''}|---:|---:|---:|---:|---:|---:|---:|`);
  for (const row of rows) console.log(row);
  if (BUILDS.length > 1) {
    console.log(`\nCPU µs per valuation, median of ${ROUNDS} alternated rounds (ratio to ${BUILDS[0]})\n`);
    console.log(`| round | ${BUILDS.join(' | ')} |`);
    console.log(`|---|${BUILDS.map(() => '---:').join('|')}|`);
    for (const [name, runs] of perValuation) {
      const medians = runs.map(median);
      console.log(`| ${name} | ${medians.map((m, b) => `${m.toFixed(0)}${b > 0 ? ` (${(m / medians[0]).toFixed(2)})` : ''}`).join(' | ')} |`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
