/**
 * bench/observations/point-in-time: the service numbers of issue 31, on the whole service
 * (bench/rest-home's server process, all-in-one, files store):
 *   1. 1,000 flats in one GraphQL homeValuations call, re-anchored on 10,000 observations of the
 *      past year, dated today against dated at a past day no valuation used before (so its one fit
 *      is in the time), alternated round by round: wall time, and the ratio of the medians;
 *   2. two organisations: one values a flat today at 8 connections (autocannon), alone, while the
 *      other values flats today 2 at a time (the control), and while the other values them at a
 *      new past date every call (a fit each): the first one's latency in each;
 *   3. a backtest of as many prices through POST /api/backtest, from the upload to the report.
 * Usage: node dist/bench/observations/point-in-time.js [--observations 10000] [--rounds 7] [--duration 5]
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median } from '../../models/ensemble/metrics';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { option } from '../cli';
import { daysAgo as day, DISTRICTS, flatObservations } from './flat-observations';

interface Urls { gateway: string; key: string; otherKey: string }

const OBSERVATIONS = Number(option('observations', '10000'));
const ROUNDS = Number(option('rounds', '7'));
const DURATION = Number(option('duration', '5'));
/** 1,000 flats as GraphQL inputs, dated `valuationDate`. */
function portfolio(valuationDate: string) {
  return Array.from({ length: 1000 }, (_, i) => {
    const totalFloors = 5 + (i % 12);
    return { district: DISTRICTS[i % DISTRICTS.length], area: 30 + (i % 100), rooms: 1 + (i % 4), floor: 1 + (i % totalFloors), totalFloors, market: i % 2 ? 'resale' : 'new', valuationDate };
  });
}

async function main(): Promise<void> {
  const server = fork(join(__dirname, '..', 'rest-home', 'server.js'), { stdio: 'inherit', execArgv: process.env.BENCH_SERVER_ARGS ? process.env.BENCH_SERVER_ARGS.split(' ') : [], env: { ...process.env, BENCH_MAX_BATCH_ITEMS: String(OBSERVATIONS) } });
  const urls = await new Promise<Urls>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Urls));
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const post = (path: string, body: unknown, key: string) => fetch(`${urls.gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  for (const [key, seed] of [[urls.key, 1], [urls.otherKey, 2]] as const) {
    const response = await post('/api/observations', { observations: flatObservations(OBSERVATIONS, seed, 365) }, key);
    const reply = (await response.json()) as { accepted: number };
    if (response.status !== 200 || reply.accepted !== OBSERVATIONS) throw new Error(`recording failed: HTTP ${response.status}`);
  }

  // 1. 1,000 flats today against at a new past date.
  const query = 'query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { estimate marketAdjustment { asOf observationsUsed } } error { code } } }';
  const valueAll = async (valuationDate: string) => {
    const started = performance.now();
    const reply = (await (await post('/graphql', { query, variables: { inputs: portfolio(valuationDate) } }, urls.key)).json()) as { data: { homeValuations: { valuation: { marketAdjustment: { asOf: string } | null } | null }[] } };
    const ms = performance.now() - started;
    const adjusted = reply.data.homeValuations.filter((r) => r.valuation?.marketAdjustment?.asOf === valuationDate).length;
    if (adjusted !== 1000) throw new Error(`${1000 - adjusted} of 1,000 valuations at ${valuationDate} were not re-anchored as of it`);
    return ms;
  };
  await valueAll(day(0)); // warm-up: today's fit and the code paths
  const times = { today: [] as number[], past: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.today.push(await valueAll(day(0)));
    times.past.push(await valueAll(day(40 + round * 11)));
    console.error(`round ${round + 1}: today ${times.today.at(-1)!.toFixed(0)} ms, at ${day(40 + round * 11)} ${times.past.at(-1)!.toFixed(0)} ms`);
  }

  // 2. One organisation's latency alone, and while the other values at a new past date every call.
  const load = () => autocannon({ url: `${urls.gateway}/api/predict/home`, method: 'POST', connections: 8, duration: DURATION, headers: { 'content-type': 'application/json', 'x-api-key': urls.otherKey }, body: JSON.stringify(SAMPLE_HOME_REQUEST) });
  await load();
  const alone = await load();
  // The other organisation's calls, 2 at a time, each at a new past date (a fit each) or, as a control, today (no fit).
  const alongside = async (newDates: boolean) => {
    let calls = 0;
    let stop = false;
    const caller = async (offset: number) => {
      for (let back = 2 + offset; !stop && back < 365; back += 2) {
        await post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, ...(newDates ? { valuation_date: day(back) } : {}) }, urls.key);
        calls++;
      }
    };
    const running = Promise.all([caller(0), caller(1)]);
    const result = await load();
    stop = true;
    await running;
    return { result, calls };
  };
  const control = await alongside(false);
  const { result: loaded, calls: fits } = await alongside(true);

  // 3. A backtest of OBSERVATIONS prices through POST /api/backtest: upload, scoring job, replay, report.
  const backtestStarted = performance.now();
  const upload = flatObservations(OBSERVATIONS, 3, 365).map((o) => JSON.stringify(o)).join('\n');
  const submitted = await fetch(`${urls.gateway}/api/backtest?kind=home`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': urls.key }, body: upload });
  const { id } = (await submitted.json()) as { id: string };
  if (submitted.status !== 202) throw new Error(`backtest refused: HTTP ${submitted.status}`);
  let report: { observations: number; fits: number } | null = null;
  let scoredAt = 0;
  while (!report) {
    const read = (await (await fetch(`${urls.gateway}/api/backtest/${id}`, { headers: { 'x-api-key': urls.key } })).json()) as { status: string; report: { observations: number; fits: number } | null };
    if (read.status === 'failed') throw new Error('the backtest job failed');
    if (read.status === 'completed' && !scoredAt) scoredAt = performance.now();
    report = read.report;
    if (!report) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const backtestMs = performance.now() - backtestStarted;
  server.send('stop');
  await new Promise((resolve) => server.once('exit', resolve));

  console.log(`\n${new Date().toISOString()}, node ${process.version}, ${OBSERVATIONS.toLocaleString('en')} observations per organisation over the past year\n`);
  console.log('| 1,000 flats in one homeValuations call, re-anchored | median ms | runs (ms) |');
  console.log('|---|---:|---|');
  console.log(`| dated today (the day's fit kept) | ${median(times.today).toFixed(0)} | ${times.today.map((t) => t.toFixed(0)).join(', ')} |`);
  console.log(`| dated at a past day first used by that call (one fit in the time) | ${median(times.past).toFixed(0)} | ${times.past.map((t) => t.toFixed(0)).join(', ')} |`);
  console.log(`\nratio past / today: ${(median(times.past) / median(times.today)).toFixed(2)} (aim: at most 1.2)`);
  console.log(`\nA backtest of ${OBSERVATIONS.toLocaleString('en')} prices through POST /api/backtest (NDJSON upload, scoring job, replay with ${report.fits} fits, report): ${(backtestMs / 1000).toFixed(1)} s (job completed after ${((scoredAt - backtestStarted) / 1000).toFixed(1)} s; ${report.observations.toLocaleString('en')} replayed; aim: under 60 s)`);
  console.log('\n| one organisation, POST /api/predict/home today, 8 connections | req/s | mean ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  console.log(`| alone | ${Math.round(alone.requests.average)} | ${alone.latency.average.toFixed(2)} | ${alone.latency.p99} |`);
  console.log(`| while the other values ${control.calls} flats today, 2 at a time (control: no fit) | ${Math.round(control.result.requests.average)} | ${control.result.latency.average.toFixed(2)} | ${control.result.latency.p99} |`);
  console.log(`| while the other values at ${fits} new past dates, 2 at a time (a fit each) | ${Math.round(loaded.requests.average)} | ${loaded.latency.average.toFixed(2)} | ${loaded.latency.p99} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
