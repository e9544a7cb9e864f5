/**
 * How much of avtoelon.uz's own vocabulary the vehicle API accepts: every raw row of the 2020 file
 * (the site's Russian form) and the 2022 file (its Uzbek form) becomes one API request with the
 * cells exactly as the site wrote them (name, "1.5 (Бензин)", "Avtomat", "Oq", "Toshkent" …), and
 * goes through `npm run valuate`'s path (REST body checks, normaliser, runtime). Counts the lines
 * valued and refused, by error code and field. The rows are training rows, so only the refusals
 * mean anything here, not the accuracy.
 * Run: npm run build && node dist/bench/models/vehicle-site-vocabulary.js
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCsv } from '../../models/ingest/csv';
import { parseMileage } from '../../models/vehicle/ingest/parse';
import { valuateFile } from '../../models/valuate-file';
import { currentVersion, VEHICLE_DIR } from '../../models/vehicle/manifest';
import { VehicleModelSet } from '../../models/vehicle/runtime';

type Cells = Record<string, string>;
const blank = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : s.trim());
// The ingestion's reading of the site's mileage cell ("66 000 km", "71000.0"), as a bank's system would send it.
const mileage = (s: string | undefined) => {
  const km = parseMileage(s ?? '');
  return km === null ? undefined : Math.round(km);
};

/** A raw row as a bank copying the site's form would send it. */
const FILES: { label: string; path: string; delimiter?: string; request(r: Cells): Record<string, unknown> }[] = [
  {
    label: 'avtoelon 2020 (Russian form)',
    path: 'vehicles/avtoelon_2020.csv',
    delimiter: ';',
    request: (r) => ({
      make: r['brand'], model: r['name'], year: Number(r['year']), mileage: mileage(r['Пробег']), engine: blank(r['Объем двигателя, л']),
      body_type: blank(r['Кузов']), transmission: blank(r['Коробка передач']), colour: blank(r['Цвет']), drive: blank(r['Привод']), region: blank(r['Город']),
    }),
  },
  {
    label: 'avtoelon 2022 (Uzbek form)',
    path: 'vehicles/avtoelon_2022.csv',
    // The one cell names make and model ("Land Rover Range Rover"): both fields get it, as the API reads a model with its make in front.
    request: (r) => {
      return {
        make: r['name'], model: r['name'], year: Number(r['Yili']), mileage: mileage(r['Yurgani']), engine: blank(r['Dvigatel hajmi, l']),
        body_type: blank(r['Kuzov']), transmission: blank(r['Uzatish qutisi']), colour: blank(r['Rangi']), drive: blank(r['Uzatma']),
        condition: r['Kami bor'] === 'Ha' ? 'Kami bor' : undefined, region: blank(r['Shahar']),
      };
    },
  },
];

async function main(): Promise<void> {
  const version = currentVersion();
  if (!version) throw new Error('no promoted vehicle version');
  const runtime = await VehicleModelSet.load(version, VEHICLE_DIR);
  const dir = mkdtempSync(join(tmpdir(), 'vehicle-vocabulary-'));
  console.log(`vehicle ${version}; one API request per raw row, the site's cells as written\n`);
  console.log('| file | lines | valued | 400 (input) | 422 (no market data) | 400 by code and field |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const file of FILES) {
    const rows = loadCsv(file.path, file.delimiter ? { delimiter: file.delimiter } : undefined).rows as Cells[];
    const input = join(dir, 'in.jsonl');
    const output = join(dir, 'out.jsonl');
    writeFileSync(input, rows.map((r) => JSON.stringify(file.request(r))).join('\n'));
    const summary = await valuateFile(input, output, { vehicle: async () => runtime }, { defaultKind: 'vehicle' });
    const errors = readFileSync(output, 'utf8').trim().split('\n').map((line) => JSON.parse(line).error).filter(Boolean);
    const refused = errors.filter((e) => e.code !== 'INSUFFICIENT_MARKET_DATA');
    const tally = new Map<string, number>();
    for (const e of refused) tally.set(`${e.code} ${e.field}`, (tally.get(`${e.code} ${e.field}`) ?? 0) + 1);
    const share = (n: number) => `${n} (${((100 * n) / summary.lines).toFixed(2)}%)`;
    const byCode = [...tally].sort(([, a], [, b]) => b - a).map(([k, n]) => `${k}: ${n}`).join(', ') || '–';
    console.log(`| ${file.label} | ${summary.lines} | ${share(summary.valued)} | ${share(refused.length)} | ${share(errors.length - refused.length)} | ${byCode} |`);
  }
  await runtime.close();
}

void main();
