/**
 * bench/observations/service: the issue's two service numbers for observations (issue 18), on the
 * whole service (bench/rest-home's server process, all-in-one):
 *   1. recording 10,000 home observations in one POST /api/observations (scored against the model
 *      at their dates, stored, the organisation's model refitted on its next valuation): wall time;
 *   2. POST /api/predict/home for an organisation with those observations (each valuation adjusted)
 *      against one without any, alternated round by round: req/s, mean and p99 latency.
 * Usage: node dist/bench/observations/service.js [--observations 10000] [--rounds 5] [--duration 5]
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median } from '../../models/ensemble/metrics';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { option } from '../cli';
import { flatObservations } from './flat-observations';

interface Urls { gateway: string; key: string; otherKey: string }

const OBSERVATIONS = Number(option('observations', '10000'));
const ROUNDS = Number(option('rounds', '5'));
const DURATION = Number(option('duration', '5'));
async function main(): Promise<void> {
  const server = fork(join(__dirname, '..', 'rest-home', 'server.js'), { stdio: 'inherit', env: { ...process.env, BENCH_MAX_BATCH_ITEMS: String(OBSERVATIONS) } });
  const urls = await new Promise<Urls>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Urls));
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const post = (path: string, body: unknown, key: string) => fetch(`${urls.gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });

  // 1. Recording: three calls of OBSERVATIONS each (the organisation's model grows with each).
  const recordMs: number[] = [];
  for (let run = 0; run < 3; run++) {
    const body = { observations: flatObservations(OBSERVATIONS, run, 90) };
    const started = performance.now();
    const response = await post('/api/observations', body, urls.key);
    const reply = (await response.json()) as { accepted: number; rejected: unknown[] };
    recordMs.push(performance.now() - started);
    if (response.status !== 200 || reply.accepted !== OBSERVATIONS) throw new Error(`recording failed: HTTP ${response.status}, ${JSON.stringify(reply).slice(0, 300)}`);
  }
  // The first valuation after recording refits the organisation's model: timed on its own.
  const refitStarted = performance.now();
  const adjusted = (await (await post('/api/predict/home', SAMPLE_HOME_REQUEST, urls.key)).json()) as { market_adjustment: { observations: number } | null };
  const refitMs = performance.now() - refitStarted;
  if (!adjusted.market_adjustment) throw new Error('the valuation after recording was not adjusted');

  // 2. Valuation latency, with and without observations, alternated.
  const load = (key: string) => autocannon({ url: `${urls.gateway}/api/predict/home`, method: 'POST', connections: 8, duration: DURATION, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(SAMPLE_HOME_REQUEST) });
  const rows: Record<'with' | 'without', { rps: number[]; mean: number[]; p99: number[] }> = { with: { rps: [], mean: [], p99: [] }, without: { rps: [], mean: [], p99: [] } };
  await load(urls.otherKey); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, key] of [['without', urls.otherKey], ['with', urls.key]] as const) {
      const r = await load(key);
      if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rows[name].rps.push(r.requests.average);
      rows[name].mean.push(r.latency.average);
      rows[name].p99.push(r.latency.p99);
      console.error(`round ${round + 1} ${name}: ${Math.round(r.requests.average)} req/s, mean ${r.latency.average} ms, p99 ${r.latency.p99} ms`);
    }
  }
  server.send('stop');
  await new Promise((resolve) => server.once('exit', resolve));

  console.log(`\n${new Date().toISOString()}, node ${process.version}, ${OBSERVATIONS.toLocaleString('en')} observations a call\n`);
  console.log(`| recording ${OBSERVATIONS.toLocaleString('en')} home observations (POST /api/observations), 3 calls | ${recordMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} | median ${(median(recordMs) / 1000).toFixed(2)} s |`);
  console.log(`| first valuation after them (refits the organisation's model on ${(adjusted.market_adjustment.observations ?? 0).toLocaleString('en')}+ observations) | ${refitMs.toFixed(0)} ms | |`);
  console.log('\n| POST /api/predict/home, 8 connections | req/s (median) | mean latency ms (median) | p99 ms (median) |');
  console.log('|---|---:|---:|---:|');
  for (const name of ['without', 'with'] as const) {
    console.log(`| ${name} observations | ${Math.round(median(rows[name].rps))} | ${median(rows[name].mean).toFixed(2)} | ${median(rows[name].p99)} |`);
  }
  console.log(`\nlatency ratio (mean, with / without): ${(median(rows.with.mean) / median(rows.without.mean)).toFixed(2)}; throughput ratio: ${(median(rows.with.rps) / median(rows.without.rps)).toFixed(2)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
