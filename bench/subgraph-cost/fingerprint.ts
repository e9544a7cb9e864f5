/**
 * bench/subgraph-cost/fingerprint: whether two builds of the residential subgraph answer and record
 * alike, byte for byte (issue 34, item 1: a change to the valuation path must not change a number
 * or a record). Each build's subgraph runs as bench/subgraph-cost runs it (a child, records in files),
 * with ./fixed-clock.js preloaded (a stopped clock, counted random bytes: the same ids and times in
 * every run); a fixed sequence of calls is sent one after the other: observed prices for one
 * organisation (its valuations are re-anchored), single valuations and a 114-item call of flats with
 * and without their market, houses, soʻm, bad inputs, for that organisation and another. Printed: a hash
 * of each reply, of all the replies and of the record log's bytes; the builds differ if any does.
 *
 * Usage: npm run build && node dist/bench/subgraph-cost/fingerprint.js [--builds DIR,DIR…] [--show N]
 * (DIR: a compiled tree holding subgraphs/main.js, inside this checkout; default this one. --show N
 * prints reply N of the first build.)
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { option } from '../cli';
import { announced, stopChild } from '../proc';

const BUILDS = (option('builds') ?? join(__dirname, '..', '..')).split(',');
const SHOW = option('show');

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

const SELECTION = HOME_VALUATION_OPERATION.query.slice(HOME_VALUATION_OPERATION.query.indexOf('homeValuation(input: $input) {') + 'homeValuation(input: $input) '.length).trim().replace(/\}\s*$/, '');
const BULK = `query Bulk($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index error { code message field suggestions } valuation ${SELECTION} } }`;
const RECORD = 'mutation Record($o: [JSONObject!]!) { recordHomeObservations(observations: $o) }';

const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida' };
/** Inputs covering the paths of a valuation: market known or not, house, soʻm (the table's rate and the client's), dates past and beyond the data, asking price, misspellings, points, bad fields. */
const INPUTS: Record<string, unknown>[] = [
  FLAT,
  { ...FLAT, market: 'resale' },
  { ...FLAT, market: 'new', valuationDate: '2025-03-15' },
  { ...FLAT, currency: 'UZS' },
  { ...FLAT, currency: 'UZS', exchangeRate: 12_650.5, askingPrice: 80_000 },
  { district: 'Yunusabad', area: 48.5, rooms: 2, floor: 9, totalFloors: 9 },
  { district: 'yunusobod', mahalla: 'nowhere', area: 120, rooms: 4 },
  { district: 'Mirzo Ulugbek', lat: 41.33, lon: 69.33, area: 75, rooms: 3, floor: 1, totalFloors: 12, renovation: 'Qora suvoq', market: 'new', valuationDate: '2027-06-01' },
  { district: 'Sergeli', area: 35, rooms: 1, floor: 2, totalFloors: 4, renovation: "O'rtacha", buildingType: 'Panelli', sellerType: 'owner', askingPrice: 30_000, valuationDate: '2024-01-31' },
  { propertyType: 'hovli', district: 'Yunusabad', area: 200, landArea: 6, rooms: 5, totalFloors: 2, gas: true },
  { propertyType: 'house', district: 'Chilanzar', area: 150, landAreaM2: 400, rooms: 4, gas: true, water: true, sewerage: false, currency: 'UZS' },
  { propertyType: 'house', district: 'Bektemir', area: 90, landArea: 3, rooms: 3 },
  { district: 'Atlantis', area: 50, rooms: 2 },
  { district: 'Chilanzar', area: -5, rooms: 2 },
];
const BULK_INPUTS = [...Array.from({ length: 100 }, (_, i) => ({ ...FLAT, area: 40 + (i % 60), floor: 1 + (i % 9), ...(i % 3 === 0 && { market: i % 2 ? 'new' : 'resale' }), ...(i % 7 === 0 && { currency: 'UZS' }) })), ...INPUTS];
/** Observed prices for the first organisation: its valuations of these groups are re-anchored. */
const OBSERVATIONS = Array.from({ length: 24 }, (_, i) => ({
  fields: { district: i % 2 ? 'Chilanzar' : 'Yunusabad', area: 50 + i, rooms: 2 + (i % 3), floor: 1 + (i % 8), totalFloors: 9, market: i % 3 ? 'resale' : 'new' },
  priceUsd: 55_000 + 1_500 * i,
  observedAt: `2026-${String(1 + (i % 10)).padStart(2, '0')}-15`,
  priceType: 'sale',
}));

interface Call {
  org: string;
  body: { query: string; variables: Record<string, unknown> };
}

const CALLS: Call[] = [
  ...['org-a', 'org-b'].flatMap((org) => [
    ...(org === 'org-a' ? [{ org, body: { query: RECORD, variables: { o: OBSERVATIONS } } }] : []),
    ...INPUTS.map((input) => ({ org, body: { query: HOME_VALUATION_OPERATION.query, variables: { input } } })),
    { org, body: { query: BULK, variables: { inputs: BULK_INPUTS } } },
  ]),
];

async function fingerprint(build: string): Promise<{ replies: string[]; records: string }> {
  const home = mkdtempSync(join(tmpdir(), 'subgraph-fingerprint-'));
  const env: NodeJS.ProcessEnv = { ...process.env, INTERNAL_TOKEN: 'bench-token', RESIDENTIAL_PORT: '0', VALUATION_HOME: home, NODE_ENV: 'production' };
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  const child = fork(join(build, 'subgraphs', 'main.js'), ['residential'], { env, execArgv: ['--require', join(__dirname, 'fixed-clock.js')], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  try {
    const [, url] = await announced(child, 'the residential subgraph', /listening on (\S+)/);
    const replies: string[] = [];
    for (const call of CALLS) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-token': 'bench-token', 'x-organisation': call.org, 'x-plan': 'standard', 'x-request-id': `req-${replies.length}` }, body: JSON.stringify(call.body) });
      replies.push(`${response.status} ${await response.text()}`);
    }
    await stopChild(child);
    const logs = listFiles(home).filter((f) => /log\.\d+\.ndjson$/.test(f)).sort();
    return { replies, records: logs.map((f) => readFileSync(f, 'utf8')).join('') };
  } finally {
    await stopChild(child);
    rmSync(home, { recursive: true, force: true });
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

async function main(): Promise<void> {
  const prints: { build: string; replies: string; records: string; each: string[] }[] = [];
  for (const build of BUILDS) {
    const { replies, records } = await fingerprint(build);
    if (SHOW !== undefined && prints.length === 0) console.log(replies[Number(SHOW)]);
    const errors = replies.filter((r) => !r.startsWith('200 ') || r.includes('"errors"')).length;
    const print = { build, replies: sha(replies.join('\n')), records: sha(records), recordLines: records.split('\n').length - 1, recordBytes: Buffer.byteLength(records), calls: replies.length, withErrors: errors, each: replies.map(sha) };
    console.log(`${build}: replies ${print.replies}, records ${print.records} (${print.recordLines} lines, ${print.recordBytes} bytes), ${print.calls} calls (${errors} answered with GraphQL errors)`);
    prints.push(print);
  }
  for (const print of prints.slice(1)) {
    const differing = print.each.map((h, i) => (h === prints[0].each[i] ? null : i)).filter((i) => i !== null);
    if (differing.length > 0 || print.records !== prints[0].records) {
      console.log(`${print.build} differs from ${prints[0].build}: replies ${differing.join(', ') || 'none'}${print.records !== prints[0].records ? ', records' : ''}`);
      process.exitCode = 1;
    }
  }
  if (prints.length > 1 && !process.exitCode) console.log('the builds answer and record alike, byte for byte');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
