/**
 * The embedded file store at scale (issue 34, item 3): N home valuation records of a realistic size
 * (about 3 KB of JSON each: the request, its location, the estimate with its interval, confidence,
 * comparables and feature contributions) made over the last M months by many organisations,
 * appended as the service appends them (a call a valuation, many calls in flight, ids a little out
 * of order), then:
 *   1. RSS and heap after appending (the seals and merges done), and after reopening the store;
 *   2. get by id for ids drawn at random from what was appended: p50, p99;
 *   3. a month's page of an organisation (since/until the month, limit 100) and the page after it: p50, p99.
 * Reads are warm (the files are in the OS page cache as the appends left them).
 *
 * Run: npx tsc -p tsconfig.json && node --expose-gc dist/bench/valuation-records/file-store.js
 *        [--records 1000000] [--orgs 50] [--months 12] [--in-flight 64] [--dir <folder>] [--keep]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRecordStore, newRecordId, type ValuationRecord } from '../../subgraphs/common/valuation-records';
import { flag, option } from '../cli';

const RECORDS = Number(option('records', '1000000'));
const ORGS = Number(option('orgs', '50'));
const MONTHS = Number(option('months', '12'));
const IN_FLIGHT = Number(option('in-flight', '64'));
const GETS = 5000;
const PAGES = 1000;
const SAMPLE = 20_000;

const DISTRICTS = ['Chilanzar', 'Yunusabad', 'Mirzo Ulugbek', 'Yakkasaray', 'Shaykhantahur', 'Almazar', 'Uchtepa', 'Sergeli', 'Bektemir', 'Mirabad', 'Yashnabad', 'Olmazor'];
const FEATURES = ['area', 'rooms', 'floor', 'totalFloors', 'yearBuilt', 'market', 'condition', 'buildingType', 'metroDistance', 'schoolDistance', 'parkDistance', 'bazaarDistance', 'centreDistance', 'mahallaLevel', 'districtLevel', 'heating', 'ceilingHeight', 'balcony', 'parking', 'renovated'];

let seed = 12_345;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** A home valuation record as the service keeps it (about 3 KB of JSON). */
function homeRecord(made: number, keepUntil: string, i: number): ValuationRecord {
  const id = newRecordId(made);
  const district = DISTRICTS[i % DISTRICTS.length];
  const area = round(30 + random() * 120, 1);
  const estimate = Math.round(area * (700 + random() * 900));
  const lat = round(41.2 + random() * 0.2, 6);
  const lng = round(69.15 + random() * 0.25, 6);
  const request = {
    district,
    mahalla: `${district} mahalla ${1 + (i % 40)}`,
    area,
    rooms: 1 + (i % 5),
    floor: 1 + (i % 9),
    totalFloors: 9 + (i % 8),
    market: i % 2 ? 'resale' : 'new',
    buildingType: ['panel', 'brick', 'monolith'][i % 3],
    condition: ['needs-repair', 'average', 'renovated', 'designer'][i % 4],
    yearBuilt: 1965 + (i % 58),
    latitude: lat,
    longitude: lng,
  };
  const location = {
    districtId: `uz-tas-${i % 12}`,
    mahallaId: `m-${i % 480}`,
    coordinates: { latitude: lat, longitude: lng, precision: 'address' },
    distances: Object.fromEntries(['metro', 'school', 'kindergarten', 'clinic', 'park', 'bazaar', 'supermarket', 'centre', 'mosque', 'bus'].map((k) => [k, Math.round(100 + random() * 3000)])),
    levels: { mahalla: round(0.8 + random() * 0.4, 3), district: round(0.8 + random() * 0.4, 3) },
  };
  const valuation = {
    estimate,
    currency: 'USD',
    perSquareMetre: Math.round(estimate / area),
    interval: { low: Math.round(estimate * 0.9), high: Math.round(estimate * 1.1), coverage: 0.9 },
    confidence: { level: ['low', 'medium', 'high'][i % 3], score: round(random(), 3), reasons: ['comparables within 1 km', 'district well covered', 'area within the usual range'] },
    anomaly: { score: round(random() * 0.3, 3), flagged: false, reasons: [] as string[] },
    marketLevel: { index: round(0.9 + random() * 0.2, 4), period: new Date(made).toISOString().slice(0, 7), source: 'listings' },
    marketAdjustment: null,
    exchangeRate: { usdUzs: 12_650 + Math.round(random() * 200), date: new Date(made).toISOString().slice(0, 10) },
    comparables: Array.from({ length: 6 }, (_, c) => ({
      id: `lst_${(i * 7 + c).toString(36)}`,
      distanceMetres: Math.round(50 + random() * 1500),
      area: round(area * (0.8 + random() * 0.4), 1),
      rooms: request.rooms,
      price: Math.round(estimate * (0.85 + random() * 0.3)),
      listedOn: new Date(made - Math.round(random() * 90) * 86_400_000).toISOString().slice(0, 10),
      similarity: round(0.6 + random() * 0.4, 3),
    })),
    contributions: FEATURES.map((feature) => ({ feature, value: round((random() - 0.5) * estimate * 0.1, 0) })),
    modelVersion: '2026.11.14',
    valuedAt: new Date(made).toISOString(),
    warnings: [] as string[],
    valuationId: id,
  };
  return {
    id,
    kind: 'home',
    createdAt: new Date(made).toISOString(),
    keepUntil,
    requestId: `${(i * 2_654_435_761).toString(16).padStart(16, '0')}${i.toString(16).padStart(16, '0')}`,
    input: { request, location },
    valuation,
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x: number) => `${x.toFixed(2)} ms`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function memory(label: string): void {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  console.log(`${label}: RSS ${mib(m.rss)}, heap used ${mib(m.heapUsed)}, external+buffers ${mib(m.external + m.arrayBuffers)}`);
}

function diskBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) total += name.isDirectory() ? diskBytes(join(dir, name.name)) : statSync(join(dir, name.name)).size;
  return total;
}

async function timed(n: number, one: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await one(i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const dir = option('dir') ?? mkdtempSync(join(tmpdir(), 'bench-file-store-'));
  console.log(`# Valuation records in files (node ${process.version}, ${new Date().toISOString()}): ${RECORDS.toLocaleString('en')} records, ${ORGS} organisations, ${MONTHS} months, ${IN_FLIGHT} calls in flight, in ${dir}`);
  memory('before opening');
  const end = Date.now() - 60_000;
  const start = end - MONTHS * 30 * 86_400_000;
  const step = (end - start) / RECORDS;
  const keepUntil = new Date(end + 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  const sample: { org: string; id: string }[] = [];

  let store = await FileRecordStore.open(dir, (m) => console.log(`  (${m})`));
  let json = 0;
  const began = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < RECORDS) {
      const i = next++;
      // Made in time order but recorded up to 5 s late: ids arrive a little out of order.
      const record = homeRecord(start + i * step - random() * 5000, keepUntil, i);
      const org = `org-${Math.floor(random() * ORGS)}`;
      if (i % 1000 === 0) json += Buffer.byteLength(JSON.stringify(record));
      if (sample.length < SAMPLE) sample.push({ org, id: record.id });
      else if (random() < SAMPLE / (i + 1)) sample[Math.floor(random() * SAMPLE)] = { org, id: record.id };
      await store.append(org, [record]);
      if (i > 0 && i % 100_000 === 0) console.log(`  ${i.toLocaleString('en')} appended, ${((Date.now() - began) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const appendSeconds = (Date.now() - began) / 1000;
  console.log(`record JSON: ${(json / Math.ceil(RECORDS / 1000)).toFixed(0)} bytes on average`);
  console.log(`appended: ${(RECORDS / appendSeconds).toFixed(0)} records/s (${appendSeconds.toFixed(0)} s)`);
  memory('after appending');
  await store.settled();
  console.log(`seals and merges done ${((Date.now() - began) / 1000 - appendSeconds).toFixed(0)} s later; on disk ${mib(diskBytes(dir))}; in memory ${JSON.stringify(store.memory())}`);
  memory('after appending, seals and merges done');
  await store.close();

  const opening = Date.now();
  store = await FileRecordStore.open(dir, (m) => console.log(`  (${m})`));
  console.log(`reopened in ${Date.now() - opening} ms`);
  memory('after reopening');

  const gets = await timed(GETS, async () => {
    const { org, id } = sample[Math.floor(random() * sample.length)];
    if ((await store.get(org, id))?.id !== id) throw new Error(`lost ${id}`);
  });
  console.log(`get by id: p50 ${ms(quantile(gets, 0.5))}, p99 ${ms(quantile(gets, 0.99))} (${GETS} gets)`);

  const months: string[] = [];
  for (let m = new Date(start); m.getTime() < end; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) months.push(m.toISOString().slice(0, 7));
  const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const afters: number[] = [];
  let listed = 0;
  const pages = await timed(PAGES, async () => {
    const org = `org-${Math.floor(random() * ORGS)}`;
    // A whole month (not the first or last, which are partial).
    const month = months[1 + Math.floor(random() * Math.max(1, months.length - 2))];
    const query = { since: `${month}-01`, until: lastDay(month), limit: 100 };
    const page = await store.list(org, query);
    listed += page.length;
    if (page.length === 100) {
      const t = process.hrtime.bigint();
      await store.list(org, { ...query, before: page[page.length - 1].id });
      afters.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  });
  afters.sort((a, b) => a - b);
  console.log(`a month's page (limit 100): p50 ${ms(quantile(pages, 0.5))}, p99 ${ms(quantile(pages, 0.99))} (${PAGES} pages, ${(listed / PAGES).toFixed(0)} records each on average)`);
  if (afters.length > 0) console.log(`the page after it: p50 ${ms(quantile(afters, 0.5))}, p99 ${ms(quantile(afters, 0.99))}`);
  console.log(`in memory after the reads: ${JSON.stringify(store.memory())}`);
  memory('after the reads');
  await store.close();
  if (!flag('keep') && option('dir') === undefined) rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
