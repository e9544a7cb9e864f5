/**
 * bench/attacks: issue 33's attacks, one at a time, each run by organisation A at the rate its plan
 * allows (or refused, as it is), while organisation B values homes one after another; what B's
 * median and p99 become, the service's peak RSS, and what A got.
 *
 *   npm run bench:attacks -- [--attack name[,name…]] [--out attacks.json] [--baseline-s 10] [--max-attack-s 75]
 *        [--redis redis://127.0.0.1:6379]
 *
 * The service runs all-in-one in a child process (./server.ts: gateway, subgraphs and batch worker
 * in one process, so its RSS is the whole service's), with the shipped plans for A. B runs on a
 * worker thread (./bank.ts). Per attack: its setup (bodies built, observations recorded) first,
 * unmeasured; then B's samples while the attack runs (at least 3 s) and the RSS sampled every
 * 200 ms. An attack is cut at --max-attack-s: what it had sent by then is what was measured.
 * Prints a markdown table and writes the JSON to --out. BENCH_PROFILE_DIR=dir writes the service's
 * CPU profile there (node --cpu-prof), read with dist/bench/profile-top.js.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { option } from '../cli';
import { flatObservations } from '../observations/flat-observations';
import type { BankSample } from './bank';
import type { AttackServer } from './server';

const BASELINE_S = Number(option('baseline-s', '10'));
const MAX_ATTACK_S = Number(option('max-attack-s', '75'));
const OUT = option('out');
const REDIS = option('redis', process.env.REDIS_URL ?? '');
const MIN_WINDOW_MS = 3000;

/** What the attacks share: the server, A's keys, and whether the attack's time is up. */
interface Context {
  server: AttackServer;
  /** True once the attack has run --max-attack-s: stop sending. */
  expired(): boolean;
}

interface Attack {
  name: string;
  what: string;
  /** Unmeasured: bodies built, data recorded. Returns what `run` needs. */
  prepare?(ctx: Context): Promise<unknown>;
  /** The attack; returns what A got, one outcome (a status, a close code) per request. */
  run(ctx: Context, prepared: unknown): Promise<string[]>;
}

const post = (ctx: Context, path: string, body: string | Buffer, headers: Record<string, string>) =>
  fetch(`${ctx.server.gateway}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(MAX_ATTACK_S * 1000 + 60_000) });

/** A request's outcome: its status once the whole reply is read, or how it failed. */
async function outcome(request: Promise<Response>): Promise<string> {
  try {
    const response = await request;
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ? `error ${cause.code}` : `error ${(error as Error).name}`;
  }
}

/** `n` requests made by `one`, `concurrency` at a time, until the time is up. */
async function inParallel(ctx: Context, n: number, concurrency: number, one: (i: number) => Promise<string>): Promise<string[]> {
  const got: string[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n && !ctx.expired()) got.push(await one(next++));
  }));
  return got;
}

/** A GraphQL request's outcome: its status, and the code of its first error if any (a refusal may come with 200). */
async function graphql(ctx: Context, key: string, query: string, variables: Record<string, unknown> = {}): Promise<string> {
  try {
    const response = await post(ctx, '/graphql', JSON.stringify({ query, variables }), { 'content-type': 'application/json', 'x-api-key': key });
    const text = await response.text();
    let code: unknown;
    try {
      code = (JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;
    } catch {
      code = undefined;
    }
    return code ? `${response.status} ${String(code)}` : String(response.status);
  } catch (error) {
    return `error ${(error as Error).name}`;
  }
}

/** Observations recorded for A's enterprise organisation so far (the observation attacks read them). */
let recorded = 0;

const ndjson = (n: number, seed: number) => flatObservations(n, seed, 180).map((o) => JSON.stringify(o)).join('\n');

/** Records observations for A (enterprise) until it has `n`: setup for the attacks that read them. */
async function ensureObservations(ctx: Context, n: number): Promise<void> {
  while (recorded < n) {
    const count = Math.min(20_000, n - recorded);
    const response = await fetch(`${ctx.server.gateway}/api/observations`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': ctx.server.attacker.enterprise }, body: ndjson(count, 1000 + recorded) });
    const text = await response.text();
    if (response.status !== 200) {
      // Refused (a plan's allowance, a storage quota): the attack reads what was recorded.
      console.error(`setup: recording ${count} observations answered ${response.status} (${text.slice(0, 200)}); going on with ${recorded}`);
      return;
    }
    recorded += count;
  }
}

/** One WebSocket's life: what it is sent, and how it ends (its close code, or what it was told). */
function socket(ctx: Context, use: (ws: WebSocket, done: (outcome: string) => void) => void): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${ctx.server.gateway.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { maxPayload: 256 * 1024 * 1024 });
    let settled = false;
    const done = (result: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => done('no answer'), MAX_ATTACK_S * 1000);
    ws.once('error', (error) => done(`error ${(error as { code?: string }).code ?? error.message}`));
    ws.once('close', (code) => done(`close ${code}`));
    ws.once('open', () => use(ws, done));
  });
}

const ATTACKS: Attack[] = [
  {
    name: 'unauth-bodies',
    what: '60 × 19.5 MB JSON to POST /api/observations without a key, 4 at a time',
    prepare: async () => Buffer.from(`{"observations":[${Array.from({ length: 60_000 }, () => JSON.stringify(flatObservations(1, 7, 30)[0]).padEnd(320, ' ')).join(',')}]}`),
    run: (ctx, body) => inParallel(ctx, 60, 4, () => outcome(post(ctx, '/api/observations', body as Buffer, { 'content-type': 'application/json' }))),
  },
  {
    name: 'ws-large',
    what: '4 WebSockets each sending one 49 MB message before connection_init',
    prepare: async () => Buffer.alloc(49 * 1024 * 1024, 'x'),
    run: (ctx, message) => Promise.all(Array.from({ length: 4 }, () => socket(ctx, (ws) => ws.send(message as Buffer)))),
  },
  {
    name: 'upload-100k',
    what: 'one 100,000-row NDJSON observation upload (enterprise)',
    prepare: async () => ndjson(100_000, 5),
    run: async (ctx, body) => {
      const got = await outcome(post(ctx, '/api/observations', body as string, { 'content-type': 'application/x-ndjson', 'x-api-key': ctx.server.attacker.enterprise }));
      if (got === '200') recorded += 100_000;
      return [got];
    },
  },
  {
    name: 'aliases',
    what: '20 aliases of observations(limit: 10000) in one GraphQL request (enterprise, 100,000 observations kept)',
    prepare: (ctx) => ensureObservations(ctx, 100_000),
    run: async (ctx) => {
      const fields = Array.from({ length: 20 }, (_, i) => `a${i}: observations(kind: HOME, limit: 10000, offset: ${i * 5000}) { id observedAt recordedAt priceUsd priceType reference groups }`).join(' ');
      return [await graphql(ctx, ctx.server.attacker.enterprise, `{ ${fields} }`)];
    },
  },
  {
    name: 'exports',
    what: '3 exports of GET /api/observations at once (enterprise, 100,000 observations kept)',
    prepare: (ctx) => ensureObservations(ctx, 100_000),
    run: (ctx) => Promise.all(Array.from({ length: 3 }, () => outcome(fetch(`${ctx.server.gateway}/api/observations?kind=home`, { headers: { 'x-api-key': ctx.server.attacker.enterprise } })))),
  },
  {
    name: 'pdf-300',
    what: '300 PDF reports of one valuation, 4 at a time (standard)',
    prepare: async (ctx) => {
      const response = await post(ctx, '/api/predict/home', JSON.stringify(SAMPLE_HOME_REQUEST), { 'content-type': 'application/json', 'x-api-key': ctx.server.attacker.standard });
      return ((await response.json()) as { valuation_id: string }).valuation_id;
    },
    run: (ctx, id) => inParallel(ctx, 300, 4, () => outcome(fetch(`${ctx.server.gateway}/api/valuations/${id as string}/report`, { headers: { 'x-api-key': ctx.server.attacker.standard } }))),
  },
  {
    name: 'live-accuracy',
    what: '4 live-accuracy reports at once over 20,000 observations (enterprise)',
    prepare: (ctx) => ensureObservations(ctx, 20_000),
    run: (ctx) => Promise.all(Array.from({ length: 4 }, (_, i) =>
      graphql(ctx, ctx.server.attacker.enterprise, 'query($level: String) { liveAccuracy(kind: HOME, level: $level) { asOf level driftRule } }', { level: i % 2 ? 'segment' : 'district' }))),
  },
  {
    name: 'subscribes',
    what: '5,000 subscribes on one WebSocket (standard)',
    run: async (ctx) => {
      const replies = new Map<string, number>();
      const closed = await socket(ctx, (ws, done) => {
        ws.on('message', (data) => {
          const message = JSON.parse(String(data)) as { type: string };
          replies.set(message.type, (replies.get(message.type) ?? 0) + 1);
          if (message.type !== 'connection_ack') return;
          for (let i = 0; i < 5000; i++) ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription($id: ID!) { batchProgress(id: $id) { id status processed total final } }', variables: { id: `no-such-job-${i}` } } }));
          setTimeout(() => done('kept open'), 5000);
        });
        ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': ctx.server.attacker.standard } }));
      });
      return [closed, ...[...replies].map(([type, n]) => `${type} ×${n}`)];
    },
  },
];

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: readonly BankSample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed = samples.filter((s) => s.status !== 200).length;
  return { n: samples.length, failed, median: round1(percentile(ms, 50)), p99: round1(percentile(ms, 99)), max: round1(ms[ms.length - 1] ?? NaN) };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Outcomes counted: "401 ×60", "200 ×60, 429 ×240". */
function counted(outcomes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  return [...counts].map(([o, n]) => (n === 1 ? o : `${o} ×${n}`)).join(', ');
}

async function main(): Promise<void> {
  const chosen = option('attack')?.split(',');
  const unknown = chosen?.filter((name) => !ATTACKS.some((a) => a.name === name)) ?? [];
  if (unknown.length) throw new Error(`unknown attack ${unknown.join(', ')}: one of ${ATTACKS.map((a) => a.name).join(', ')}`);
  // In the list's order: the attacks that read 100,000 observations come after the upload that records them.
  const attacks = ATTACKS.filter((a) => !chosen || chosen.includes(a.name));

  const child = fork(join(__dirname, 'server.js'), { stdio: 'inherit', execArgv: process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [], env: { ...process.env, BENCH_REDIS_URL: REDIS, BATCH_KEY_PREFIX: `attacks-${process.pid}:` } });
  const server = await new Promise<AttackServer>((done, fail) => {
    child.once('message', (m) => done(m as AttackServer));
    child.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  const pid = child.pid!;
  const bank = new Worker(join(__dirname, 'bank.js'), { workerData: { url: server.gateway, key: server.bank, body: JSON.stringify(SAMPLE_HOME_REQUEST) } });
  const take = () => new Promise<BankSample[]>((done) => {
    bank.once('message', done);
    bank.postMessage('take');
  });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await pause(3000); // warm-up
  await take();
  await pause(BASELINE_S * 1000);
  const baseline = { ...summary(await take()), rssMb: Math.round(rssMb(pid)) };
  console.error(`baseline: B median ${baseline.median} ms, p99 ${baseline.p99} ms over ${baseline.n} valuations; RSS ${baseline.rssMb} MB`);

  const results = [];
  for (const attack of attacks) {
    const started = Date.now();
    const ctx: Context = { server, expired: () => Date.now() - started > MAX_ATTACK_S * 1000 };
    const prepared = await attack.prepare?.({ ...ctx, expired: () => false });
    await take(); // B's samples from the setup are not the attack's
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200);
    const began = Date.now();
    ctx.expired = () => Date.now() - began > MAX_ATTACK_S * 1000;
    const got = await attack.run(ctx, prepared);
    const elapsed = Date.now() - began;
    if (elapsed < MIN_WINDOW_MS) await pause(MIN_WINDOW_MS - elapsed);
    clearInterval(sampler);
    const b = summary(await take());
    const result = {
      attack: attack.name, what: attack.what, seconds: round1(elapsed / 1000), cut: ctx.expired(),
      b, medianRatio: Math.round((b.median / baseline.median) * 100) / 100, p99OverBaselineMs: round1(b.p99 - baseline.p99),
      maxRssMb: Math.round(Math.max(peak, rssMb(pid))), got: counted(got),
    };
    results.push(result);
    console.error(`${attack.name}: ${result.seconds} s, B median ${b.median} ms (×${result.medianRatio}), p99 ${b.p99} ms, max RSS ${result.maxRssMb} MB; A got ${result.got}`);
    await pause(1000); // let the service settle before the next one
  }

  bank.postMessage('stop');
  child.send('stop');
  await new Promise((r) => child.once('exit', r));

  const lines = [
    `Baseline: B's sequential POST /api/predict/home, median ${baseline.median} ms, p99 ${baseline.p99} ms (${baseline.n} valuations over ${BASELINE_S} s); service RSS ${baseline.rssMb} MB.`,
    '',
    '| attack | B median (ms) | B p99 (ms) | ratio to baseline (median; p99 − baseline p99) | max RSS (MB) | what A got |',
    '|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.what} | ${r.b.median} | ${r.b.p99} | ×${r.medianRatio}; ${r.p99OverBaselineMs >= 0 ? '+' : ''}${r.p99OverBaselineMs} ms | ${r.maxRssMb} | ${r.got}${r.cut ? ` (cut at ${MAX_ATTACK_S} s)` : ''} |`),
  ];
  console.log(lines.join('\n'));
  if (OUT) {
    const machine = { cores: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version };
    writeFileSync(resolve(OUT), JSON.stringify({ date: new Date().toISOString(), machine, maxAttackSeconds: MAX_ATTACK_S, baseline, attacks: results }, null, 2) + '\n');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
