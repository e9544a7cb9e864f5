/**
 * bench/peers: the service's gateway against Hive Gateway, with and without the Hive Router runtime
 * (the Rust query planner), on the same supergraph and the same subgraph processes (issue 34, item 2).
 *
 * A split deployment: each subgraph the shapes touch (residential, location) in a process of its own
 * (`node dist/subgraphs/main.js <name>`, as bench/subgraph-cost starts one), and three gateways in
 * front of them, each a process: ours (`node dist/gateway/main.js`, called with an API key), Hive
 * Gateway (`hive-gateway supergraph`, from bench/peers/node_modules: run bench/peers/install.sh first)
 * and Hive Gateway with `--hive-router-runtime`. Hive gets schema/supergraph.graphql with the
 * subgraph URLs rewritten to the running ones, no inflight deduplication, and the headers our gateway
 * sends every subgraph call (bench/peers/gateway.config.mjs), so the subgraphs do the same work for
 * each (valuations recorded for the same organisation).
 *
 * Three shapes: a single homeValuation (the REST route's operation), a federated valuation (residential,
 * then location's entities for its district and mahalla), and a 100-item homeValuations. Rounds
 * alternate the gateways (ours, hive, hive+router-runtime, repeat) for each shape; autocannon runs in
 * this process. Each gateway's and the subgraphs' CPU time is read from /proc before and after each
 * load: CPU per request does not depend on what the machine's neighbours take, req/s does.
 *
 * Usage: npm run build && bash bench/peers/install.sh && node dist/bench/peers/run.js
 *   [--duration 10] [--warmup 2] [--rounds 3] [--connections 32] [--items 100]
 *   [--only single,federated,bulk] [--gateways ours,hive,hive-rr] [--subgraphs needed|all]
 *   [--store files|redis] [--profile DIR] [--baseline DIR]
 * (--store redis gives every process REDIS_URL, as a deployment of several gateways would run; --profile
 *  writes each gateway's .cpuprofile to DIR: read one with `node dist/bench/profile-top.js DIR/<file>`;
 *  --baseline DIR also runs the gateway of another built checkout at DIR, to A/B a change of ours)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { SUPERGRAPH_PATH } from '../../platform/schema-files';
import { SUBGRAPHS, urlVariable } from '../../subgraphs/registry';
import { option } from '../cli';
import { announced, stopChild, processCpuMs as cpuMs, processRssMb as rssMb } from '../proc';
import { freePort } from '../../test/support/redis-server';

/** Another checkout's root, built (`npx tsc`): its gateway runs too, as 'baseline', to A/B a change of ours in the same run. */
const BASELINE = option('baseline');
const DURATION = Number(option('duration', '10'));
const WARMUP = Number(option('warmup', '2'));
const ROUNDS = Number(option('rounds', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const ITEMS = Number(option('items', '100'));
const ONLY = option('only')?.split(',');
const GATEWAYS = [...option('gateways', 'ours,hive,hive-rr').split(','), ...(BASELINE ? ['baseline'] : [])];
const STORE = option('store', 'files');
const PROFILE_DIR = option('profile');
/** 'needed' starts the subgraphs the shapes call; 'all' every subgraph of the registry. */
const SUBGRAPH_SET = option('subgraphs', 'needed');

const ROOT = join(__dirname, '..', '..', '..');
const PEERS = join(ROOT, 'bench', 'peers');
const INTERNAL_TOKEN = 'bench-peers-token';
const ORG = 'bench';
const PLAN = 'bench';
/** A port nothing listens on: the URL of a subgraph this run does not start (no shape calls it). */
const ABSENT_URL = 'http://127.0.0.1:9/graphql';

const INPUT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida' };
/** The single operation's selection, reused for each bulk item: both answer the same fields. */
const SELECTION = HOME_VALUATION_OPERATION.query.slice(HOME_VALUATION_OPERATION.query.indexOf('homeValuation(input: $input) {') + 'homeValuation(input: $input) '.length).trim().replace(/\}\s*$/, '');
const BULK_QUERY = `query Bulk($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index error { code message } valuation ${SELECTION} } }`;
/** Residential's valuation, then location's District and Mahalla entities (their location index and names), with residential's own fields of both. */
const FEDERATED_QUERY = /* GraphQL */ `
  query Federated($input: HomeValuationInput!) {
    homeValuation(input: $input) {
      estimate currency pricePerM2 interval { low high coverage } confidence { level score }
      anomaly { districtMedianPricePerM2 mahallaMedianPricePerM2 }
      location {
        districtName mahallaName mahallaId matched
        district { name names { uzbekLatin russian } centroid { lat lon } locationIndex { composite { score complete } subindexes { name score } } modelAccuracy { mape } }
        mahalla { id name cyrillic centre { lat lon } locationIndex { composite { score } } marketStatistics { medianPricePerM2 } }
      }
      valuationId
    }
  }`;

interface Shape {
  key: 'single' | 'federated' | 'bulk';
  name: string;
  body: string;
  /** Subgraphs its plan calls. */
  subgraphs: string[];
}

const SHAPES: Shape[] = [
  { key: 'single', name: 'single homeValuation', body: JSON.stringify({ query: HOME_VALUATION_OPERATION.query, variables: { input: INPUT } }), subgraphs: ['residential'] },
  { key: 'federated', name: 'federated (residential + location)', body: JSON.stringify({ query: FEDERATED_QUERY, variables: { input: INPUT } }), subgraphs: ['residential', 'location'] },
  {
    key: 'bulk',
    name: `${ITEMS}-item homeValuations`,
    body: JSON.stringify({ query: BULK_QUERY, variables: { inputs: Array.from({ length: ITEMS }, (_, i) => ({ ...INPUT, area: 40 + (i % 60), floor: 1 + (i % 9) })) } }),
    subgraphs: ['residential'],
  },
];

interface Running {
  name: string;
  url: string;
  child: ChildProcess;
  /** Headers each request to it carries. */
  headers: Record<string, string>;
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, VALUATION_HOME: home, PLANS_FILE: join(home, 'plans.json'), NODE_ENV: 'production', APOLLO_TELEMETRY_DISABLED: '1', INTERNAL_TOKEN };
  delete env.DATABASE_URL;
  if (STORE !== 'redis') delete env.REDIS_URL;
  else if (!env.REDIS_URL) throw new Error('--store redis needs REDIS_URL');
  return env;
}

const profileArgv = (): string[] => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);

async function startSubgraphs(home: string, names: string[]): Promise<{ urls: Record<string, string>; pids: Record<string, number>; children: ChildProcess[] }> {
  const urls: Record<string, string> = {};
  const pids: Record<string, number> = {};
  const children: ChildProcess[] = [];
  // In the registry's order: a subgraph comes after those it calls, whose URLs it is given.
  for (const { name } of SUBGRAPHS.filter((s) => names.includes(s.name))) {
    const env = { ...baseEnv(home), [`${name.toUpperCase()}_PORT`]: '0', ...Object.fromEntries(Object.entries(urls).map(([peer, url]) => [urlVariable(peer), url])) };
    const child = fork(join(ROOT, 'dist', 'subgraphs', 'main.js'), [name], { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    children.push(child);
    urls[name] = (await announced(child, `the ${name} subgraph`, /listening on (\S+)/))[1];
    pids[name] = child.pid!;
    console.error(`${name} subgraph: ${urls[name]} (pid ${child.pid})`);
  }
  return { urls, pids, children };
}

/** An API key of organisation `bench` on the bench plan, in the key file under VALUATION_HOME (before the gateway reads it). */
async function createKey(home: string): Promise<string> {
  process.env.VALUATION_HOME = home;
  process.env.PLANS_FILE = join(home, 'plans.json');
  const { KeyStore } = await import('../../gateway/auth/key-store');
  return new KeyStore().create({ org: ORG, plan: PLAN, label: 'bench/peers' }).key;
}

async function startOurs(home: string, subgraphUrls: Record<string, string>, name = 'ours', root = ROOT): Promise<Running> {
  const key = await createKey(home);
  const env: NodeJS.ProcessEnv = { ...baseEnv(home), HOST: '127.0.0.1', PORT: '0' };
  for (const { name } of SUBGRAPHS) env[urlVariable(name)] = subgraphUrls[name] ?? ABSENT_URL;
  const child = fork(join(root, 'dist', 'gateway', 'main.js'), [], { env, execArgv: profileArgv(), stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [, url] = await announced(child, `the ${name} gateway`, /gateway listening on (\S+)/);
  return { name, url: `${url}/graphql`, child, headers: { 'x-api-key': key } };
}

/** schema/supergraph.graphql with each subgraph's URL set to the running one (the others to a closed port). */
function writeSupergraph(home: string, subgraphUrls: Record<string, string>): string {
  const file = join(home, 'supergraph.graphql');
  const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8').replace(/@join__graph\(name: "([^"]+)", url: "[^"]*"\)/g, (_all, name: string) => `@join__graph(name: "${name}", url: "${subgraphUrls[name] ?? ABSENT_URL}")`);
  writeFileSync(file, sdl);
  return file;
}

function hiveBin(): string {
  const bin = join(PEERS, 'node_modules', '.bin', 'hive-gateway');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run bash bench/peers/install.sh first (or --gateways ours)`);
  return realpathSync(bin);
}

async function startHive(name: string, supergraph: string, routerRuntime: boolean): Promise<Running> {
  const port = await freePort();
  // The headers our gateway sends every subgraph call for this organisation (gateway/graph/subgraph-data-source.ts).
  const subgraphHeaders = { 'x-internal-token': INTERNAL_TOKEN, 'x-organisation': ORG, 'x-plan': PLAN, 'x-request-id': `bench-${name}` };
  const args = [...profileArgv(), hiveBin(), 'supergraph', supergraph, '-c', join(PEERS, 'gateway.config.mjs'), '--host', '127.0.0.1', '--port', String(port), ...(routerRuntime ? ['--hive-router-runtime'] : [])];
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', PATH: process.env.PATH, HOME: process.env.HOME, BENCH_SUBGRAPH_HEADERS: JSON.stringify(subgraphHeaders) };
  // node itself (not a shell or npx) so that the pid is the gateway's: its CPU is what is read.
  const child = spawn(process.execPath, args, { cwd: PEERS, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  child.stdout!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}/graphql`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${name} did not answer within a minute:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (routerRuntime && !/Router Runtime/i.test(log)) throw new Error(`${name}: Hive Gateway did not say it uses the Hive Router runtime:\n${log}`);
  if (/Falling back to the default runtime/.test(log)) throw new Error(`${name}: @graphql-hive/router-runtime did not load:\n${log}`);
  return { name, url, child, headers: {} };
}

/** What a reply says, without what differs between two valuations of the same home (id, time). */
function comparable(body: unknown): string {
  return JSON.stringify(body, (key, value) => (key === 'valuationId' || key === 'valuedAt' ? undefined : value));
}

/** Each gateway answers each shape with data and no error, and the same data as the first gateway. */
async function checkReplies(gateways: Running[], shapes: Shape[]): Promise<void> {
  for (const shape of shapes) {
    let first: { gateway: string; body: string } | undefined;
    for (const gateway of gateways) {
      const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', ...gateway.headers }, body: shape.body });
      const reply = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
      if (!response.ok || reply.errors || !reply.data) throw new Error(`${gateway.name} answered ${shape.key} with HTTP ${response.status}: ${JSON.stringify(reply).slice(0, 400)}`);
      if (shape.key === 'bulk') {
        const items = reply.data.homeValuations as { error: unknown }[];
        if (items.length !== ITEMS || items.some((item) => item.error)) throw new Error(`${gateway.name}: the bulk reply has errors or the wrong length`);
      }
      const body = comparable(reply.data);
      if (!first) first = { gateway: gateway.name, body };
      else if (body !== first.body) console.error(`warning: ${gateway.name} and ${first.gateway} answer ${shape.key} differently`);
    }
  }
}

function load(gateway: Running, shape: Shape, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: gateway.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers: { 'content-type': 'application/json', ...gateway.headers },
    body: shape.body,
  });
}

interface Sample {
  /** Calls completed in the measured load. */
  calls: number;
  rps: number;
  p50: number;
  p99: number;
  /** The gateway process's CPU µs per request. */
  gatewayUs: number;
  /** The subgraph processes' CPU µs per request (the same work whatever the gateway). */
  subgraphUs: number;
  errors: number;
  non2xx: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
  const shapes = SHAPES.filter((s) => !ONLY || ONLY.includes(s.key));
  if (shapes.length === 0) throw new Error(`--only takes ${SHAPES.map((s) => s.key).join(', ')}`);
  for (const name of GATEWAYS) if (!['ours', 'hive', 'hive-rr', 'baseline'].includes(name)) throw new Error(`--gateways takes ours, hive, hive-rr (not ${name})`);
  const home = mkdtempSync(join(tmpdir(), 'bench-peers-'));
  // A plan no benchmark can exhaust: quotas are counted but never refuse.
  const unlimited = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };
  writeFileSync(join(home, 'plans.json'), JSON.stringify({ [PLAN]: { quota: unlimited, valuations: unlimited, maxBatchItems: Math.max(1000, ITEMS), batchItemsPerDay: 1_000_000_000 } }));
  const needed = SUBGRAPH_SET === 'all' ? SUBGRAPHS.map((s) => s.name) : [...new Set(shapes.flatMap((s) => s.subgraphs))];
  const children: ChildProcess[] = [];
  try {
    const subgraphs = await startSubgraphs(home, needed);
    children.push(...subgraphs.children);
    const supergraph = writeSupergraph(home, subgraphs.urls);
    const gateways: Running[] = [];
    for (const name of GATEWAYS) {
      const gateway =
        name === 'ours' ? await startOurs(home, subgraphs.urls) : name === 'baseline' ? await startOurs(home, subgraphs.urls, name, BASELINE) : await startHive(name, supergraph, name === 'hive-rr');
      children.push(gateway.child);
      gateways.push(gateway);
      console.error(`${name}: ${gateway.url} (pid ${gateway.child.pid})`);
    }
    await checkReplies(gateways, shapes);

    // Every gateway and subgraph warmed on every shape before anything is measured: else the first
    // gateway of round 1 pays for the subgraphs' JIT warm-up (a quarter of its req/s on the first shape).
    for (const shape of shapes) for (const gateway of gateways) if (WARMUP > 0) await load(gateway, shape, 2 * WARMUP);

    const samples = new Map<string, Sample[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const shape of shapes) {
        for (const gateway of gateways) {
          if (WARMUP > 0) await load(gateway, shape, WARMUP);
          const subgraphPids = shape.subgraphs.map((name) => subgraphs.pids[name]);
          const gatewayBefore = cpuMs(gateway.child.pid!);
          const subgraphBefore = subgraphPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
          const result = await load(gateway, shape, DURATION);
          const calls = Math.max(1, result.requests.total);
          const sample: Sample = {
            calls: result.requests.total,
            // Completed calls over the time measured (autocannon's average of per-second counts is 0 when a call takes longer than a second).
            rps: result.requests.total / (result.duration || DURATION),
            p50: result.latency.p50,
            p99: result.latency.p99,
            gatewayUs: ((cpuMs(gateway.child.pid!) - gatewayBefore) * 1000) / calls,
            subgraphUs: ((subgraphPids.reduce((sum, pid) => sum + cpuMs(pid), 0) - subgraphBefore) * 1000) / calls,
            errors: result.errors + result.timeouts,
            non2xx: result.non2xx,
          };
          const key = `${shape.key}/${gateway.name}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
          if (sample.calls < 100) console.error(`warning: ${gateway.name} completed ${sample.calls} ${shape.key} calls in ${DURATION} s: too few for steady figures (raise --duration)`);
          console.error(`round ${round} ${shape.key} ${gateway.name}: ${sample.calls} calls, ${sample.rps.toFixed(1)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, gateway ${sample.gatewayUs.toFixed(0)} µs/req, subgraphs ${sample.subgraphUs.toFixed(0)} µs/req, errors ${sample.errors}, non-2xx ${sample.non2xx}`);
        }
      }
    }
    const rss = gateways.map((g) => `${g.name} ${Math.round(rssMb(g.child.pid!))} MB`).join(', ');

    console.log(`\n${ROUNDS} round(s) of ${DURATION} s per gateway and shape (after ${WARMUP} s warm-up each, and ${2 * WARMUP} s each before round 1), ${CONNECTIONS} connections, medians over rounds; subgraphs ${needed.join(', ')} (records ${STORE === 'redis' ? 'in Redis' : 'in files'}); ${new Date().toISOString()}, node ${process.version}, ${versions()}\n`);
    console.log('| shape | gateway | calls | req/s | p50 ms | p99 ms | gateway CPU µs/req | subgraphs CPU µs/req | errors / non-2xx | ours ÷ this (req/s) |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const shape of shapes) {
      const ours = samples.get(`${shape.key}/ours`);
      for (const gateway of gateways) {
        const s = samples.get(`${shape.key}/${gateway.name}`)!;
        const rps = median(s.map((x) => x.rps));
        const ratio = ours && gateway.name !== 'ours' ? `${(median(ours.map((x) => x.rps)) / rps).toFixed(2)}x` : '';
        console.log(`| ${shape.name} | ${label(gateway.name)} | ${median(s.map((x) => x.calls))} | ${rps < 100 ? rps.toFixed(1) : Math.round(rps)} | ${median(s.map((x) => x.p50))} | ${median(s.map((x) => x.p99))} | ${median(s.map((x) => x.gatewayUs)).toFixed(0)} | ${median(s.map((x) => x.subgraphUs)).toFixed(0)} | ${s.reduce((n, x) => n + x.errors, 0)} / ${s.reduce((n, x) => n + x.non2xx, 0)} | ${ratio} |`);
      }
    }
    console.log(`\nGateway RSS after the run: ${rss}.`);
  } finally {
    await Promise.all(children.reverse().map(stopChild));
    rmSync(home, { recursive: true, force: true });
  }
}

function label(name: string): string {
  return { ours: 'ours', hive: 'Hive Gateway', 'hive-rr': 'Hive Gateway + router-runtime', baseline: `ours, built in ${BASELINE}` }[name] ?? name;
}

/** The installed peer versions (bench/peers/node_modules), as the table's caption says them. */
function versions(): string {
  const version = (pkg: string, root = PEERS) => {
    try {
      return (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'not installed';
    }
  };
  return `@graphql-hive/gateway ${version('@graphql-hive/gateway')}, @graphql-hive/router-runtime ${version('@graphql-hive/router-runtime')} (query planner ${version('@graphql-hive/router-query-planner')}), @apollo/gateway ${version('@apollo/gateway', ROOT)}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
