/**
 * bench/rest-home: the same home valuation through four doors, one after another in one run,
 * at 32 connections each (autocannon in this process, the service in a child process):
 *   1. bare node:http handler (the ceiling)   2. residential subgraph called directly
 *   3. GraphQL through the gateway            4. POST /api/predict/home (REST → GraphQL → subgraph)
 * Usage: npm run bench:rest-home [-- --duration 15 --connections 32 --only 4 --profile DIR]
 * (--only runs one target; --profile writes the server's CPU profile to DIR, for finding where time goes)
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { option } from '../cli';

interface Urls { bare: string; subgraph: string; gateway: string; internalToken: string; key: string }

const DURATION = Number(option('duration', '15'));
const CONNECTIONS = Number(option('connections', '32'));
const WARMUP = Number(option('warmup', '3'));
const ONLY = Number(option('only', '0'));
const PROFILE_DIR = option('profile');

const GRAPHQL_INPUT = {
  district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9,
  renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida',
};

function targets(u: Urls) {
  const graphqlBody = JSON.stringify({ query: HOME_VALUATION_OPERATION.query, variables: { input: GRAPHQL_INPUT } });
  return [
    { name: 'bare node:http handler (ceiling)', url: u.bare, headers: {}, body: JSON.stringify(SAMPLE_HOME_REQUEST) },
    { name: 'residential subgraph, direct', url: u.subgraph, headers: { 'x-internal-token': u.internalToken }, body: graphqlBody },
    { name: 'GraphQL through the gateway', url: `${u.gateway}/graphql`, headers: { 'x-api-key': u.key }, body: graphqlBody },
    { name: 'POST /api/predict/home', url: `${u.gateway}/api/predict/home`, headers: { 'x-api-key': u.key }, body: JSON.stringify(SAMPLE_HOME_REQUEST) },
  ];
}

function load(t: ReturnType<typeof targets>[number], duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: t.url, method: 'POST', connections: CONNECTIONS, duration,
    headers: { 'content-type': 'application/json', ...t.headers }, body: t.body,
  });
}

/**
 * The server process's CPU time (user + system, ms) from /proc (Linux; undefined elsewhere). On a
 * shared machine req/s follows what the neighbours take, while CPU time per request barely does
 * (time stolen by other guests is not counted), so an A/B of two builds compares this as well.
 */
function serverCpuMs(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const TICK_MS = 10; // USER_HZ is 100 on Linux
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const execArgv = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const server = fork(join(__dirname, 'server.js'), { stdio: 'inherit', execArgv });
  const urls = await new Promise<Urls>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Urls));
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const rows: { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; cpuUs?: number }[] = [];
  for (const t of targets(urls).filter((_, i) => !ONLY || i + 1 === ONLY)) {
    await load(t, WARMUP);
    const cpuBefore = serverCpuMs(server.pid);
    const r = await load(t, DURATION);
    const cpuAfter = serverCpuMs(server.pid);
    const cpuUs = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / r.requests.total;
    rows.push({ name: t.name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, cpuUs });
    console.error(`${t.name}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, server CPU ${cpuUs?.toFixed(0) ?? 'n/a'} µs/req, errors ${r.errors}, non-2xx ${r.non2xx}`);
  }
  server.send('stop');
  await new Promise((resolve) => server.once('exit', resolve));
  const ceiling = rows[0].rps;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per target after ${WARMUP} s warm-up, ${new Date().toISOString()}, node ${process.version}\n`);
  console.log('| target | req/s | share of ceiling | p50 ms | p99 ms | server CPU µs/req | errors / non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${Math.round(r.rps)} | ${((r.rps / ceiling) * 100).toFixed(0)}% | ${r.p50} | ${r.p99} | ${r.cpuUs?.toFixed(0) ?? 'n/a'} | ${r.errors} / ${r.non2xx} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
