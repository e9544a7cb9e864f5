/** `npm run valuate`: a file of API requests in, one result or API error per line out, in order. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResidentialModelService } from '../../models/residential/serving';
import { valuateFile } from '../../models/residential/valuate-cli';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';

let dir: string;
let runtime: ResidentialModelService;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valuate-'));
  runtime = await ResidentialModelService.start({ pollMs: 60_000 });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

it('writes one line per request in input order, API errors in place of bad lines', async () => {
  const lines = [
    JSON.stringify(SAMPLE_HOME_REQUEST),
    '{"district": ',
    JSON.stringify({ ...SAMPLE_HOME_REQUEST, district: 'Atlantis' }),
    JSON.stringify({ ...SAMPLE_HOME_REQUEST, area: 'abc' }),
    JSON.stringify({ ...SAMPLE_HOME_REQUEST, passport: 'AA1234567' }),
    '',
    JSON.stringify({ ...SAMPLE_HOME_REQUEST, area: 120, rooms: 4 }),
  ];
  // Enough lines to cross a chunk boundary (1,000 per runtime call).
  for (let i = 0; i < 1500; i++) lines.push(JSON.stringify({ ...SAMPLE_HOME_REQUEST, area: 40 + (i % 100) }));
  writeFileSync(join(dir, 'in.jsonl'), lines.join('\n'));
  const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), runtime);
  expect(summary).toEqual({ lines: 1506, valued: 1502, failed: 4 });
  const out = readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(out).toHaveLength(1506);
  expect(out[0].estimate).toBeGreaterThan(0);
  expect(out[0].model_version).toBe(runtime.version);
  expect(out[1].error.code).toBe('INVALID_JSON');
  expect(out[2].error).toMatchObject({ code: 'UNKNOWN_DISTRICT', field: 'district' });
  expect(out[3].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'area', message: 'area must be a number' });
  expect(out[4].error).toMatchObject({ code: 'PERSONAL_DATA_NOT_ACCEPTED', field: 'passport' });
  expect(out[5].estimate).toBeGreaterThan(out[0].estimate);
  // Same request, same answer as the first line, whichever chunk it was valued in.
  const sameAsFirst = out.slice(6).find((r, i) => 40 + (i % 100) === 65);
  expect(sameAsFirst.estimate).toBe(out[0].estimate);
  expect(out[1505].estimate).toBeGreaterThan(0);
});
