/**
 * `npm run backtest` (issue 31) on an organisation's export: observations recorded through POST
 * /api/observations, exported by GET /api/observations, replayed by the CLI as a process, with a
 * bad line refused in place (its line and field named) and the report written as JSON and PDF.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pdfTexts } from '../support/pdf-text';
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'tools', 'backtest.js');
const FLAT = { district: 'Yunusabad', rooms: 2, floor: 3, total_floors: 9, market: 'resale' };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let stack: SharedTestStack;
let dir: string;
beforeAll(async () => {
  stack = await sharedTestStack();
  dir = mkdtempSync(join(tmpdir(), 'backtest-cli-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

it('replays an export of GET /api/observations: prices 10% under the model, re-anchored toward them; a bad line refused with its number and field', async () => {
  const bank = stack.newKey('enterprise');
  const observations = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
    const observedAt = daysAgo(90 - 3 * i);
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area: 45 + i, valuation_date: observedAt }, { 'x-api-key': stack.newKey() }));
    return { kind: 'home', ...FLAT, area: 45 + i, price_usd: Math.round(base.estimate * 0.9), observed_at: observedAt, price_type: 'sale', reference: `loan-${i}` };
  }));
  expect((await json(await stack.post('/api/observations', { observations }, { 'x-api-key': bank }))).accepted).toBe(30);
  const exported = await (await stack.fetch('/api/observations?kind=home', { headers: { 'x-api-key': bank } })).text();
  const lines = exported.trim().split('\n');
  expect(lines).toHaveLength(30);
  // Line 3 loses its date: refused there, the 30 others replayed.
  const broken = JSON.parse(lines[2]);
  delete broken.observed_at;
  const file = join(dir, 'observations-home.ndjson');
  writeFileSync(file, [...lines.slice(0, 2), JSON.stringify(broken), ...lines.slice(2)].join('\n') + '\n');

  const out = join(dir, 'report.json');
  const { stdout } = await run(process.execPath, [CLI, '--kind', 'home', '--observations', file, '--out', out], { env: { ...process.env, VALUATION_HOME: dir } });
  expect(stdout).toContain('31 home prices were submitted; 1 could not be scored');
  expect(stdout).toContain('line 3: MISSING_PARAMETER (observed_at): observed_at is required');
  expect(stdout).toMatch(/model alone\s+\d/);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  expect(report).toMatchObject({ kind: 'home', observations: 30, submitted: 31, refused: { count: 1, rows: [{ line: 3, code: 'MISSING_PARAMETER', field: 'observed_at' }] } });
  expect(report.overall.modelAlone.bias.median).toBeCloseTo(Math.log(0.9), 2);
  expect(report.overall.reanchored.medianApe).toBeLessThan(report.overall.modelAlone.medianApe);
  expect(report.rows.map((r: { reference: string }) => r.reference).sort()).toEqual(observations.map((o) => o.reference).sort());
  expect(report.byGroup.map((g: { group: string }) => g.group)).toEqual(['Tashkent › Yunusabad', 'Tashkent › Yunusabad › resale']);

  const pdf = join(dir, 'report.pdf');
  await run(process.execPath, [CLI, '--kind', 'home', '--observations', file, '--format', 'pdf', '--out', pdf], { env: { ...process.env, VALUATION_HOME: dir } });
  const [{ text }] = await pdfTexts([readFileSync(pdf)]);
  expect(text).toContain('Backtest of home valuations against observed prices');
  expect(text).toContain('−10.0%'); // the model alone's median bias: prices 10% below the valuations
  expect(text).toContain('By segment');

  const csv = join(dir, 'report.csv');
  await run(process.execPath, [CLI, '--kind', 'home', '--observations', file, '--format', 'csv', '--out', csv], { env: { ...process.env, VALUATION_HOME: dir } });
  const [rows, summary] = readFileSync(csv, 'utf8').split('\r\n\r\n');
  expect(rows.trim().split('\r\n')).toHaveLength(31);
  expect(summary).toMatch(/^section,level,group,model_n/);

  // Usage errors exit 2.
  await expect(run(process.execPath, [CLI, '--kind', 'boat', '--observations', file])).rejects.toMatchObject({ code: 2 });
}, 120_000);
