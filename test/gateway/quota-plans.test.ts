import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REPORTS, getPlan, InvalidPlansFileError, loadPlans, planNames, UnknownPlanError } from '../../platform/plans';

const savedPlansFile = process.env.PLANS_FILE;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'plans-'));
  delete process.env.PLANS_FILE;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (savedPlansFile === undefined) delete process.env.PLANS_FILE;
  else process.env.PLANS_FILE = savedPlansFile;
});

function plansFile(contents: unknown): string {
  const file = join(dir, `plans-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(contents));
  return file;
}

test('the shipped plans carry the agreed limits', () => {
  expect(planNames()).toEqual(['pilot', 'standard', 'enterprise', 'development']);
  expect(getPlan('pilot')).toEqual({
    name: 'pilot',
    quota: { perMinute: 60, perDay: 5_000 },
    valuations: { perMinute: 1_000, perDay: 20_000 },
    reports: { perMinute: 10, perDay: 500 },
    maxBatchItems: 10_000,
    batchItemsPerDay: 50_000,
    valuationRecordDays: 180,
    maxStoredObservations: 10_000,
    maxSubscriptions: 20,
  });
  expect(getPlan('standard')).toEqual({
    name: 'standard',
    quota: { perMinute: 600, perDay: 100_000 },
    valuations: { perMinute: 10_000, perDay: 1_000_000 },
    reports: { perMinute: 60, perDay: 5_000 },
    maxBatchItems: 100_000,
    batchItemsPerDay: 1_000_000,
    valuationRecordDays: 1_095,
    maxStoredObservations: 100_000,
    maxSubscriptions: 100,
  });
  expect(getPlan('enterprise')).toEqual({
    name: 'enterprise',
    quota: { perMinute: 6_000, perDay: 5_000_000 },
    valuations: { perMinute: 100_000, perDay: 20_000_000 },
    reports: { perMinute: 300, perDay: 50_000 },
    maxBatchItems: 1_000_000,
    batchItemsPerDay: 10_000_000,
    valuationRecordDays: 2_555,
    maxStoredObservations: 250_000,
    maxSubscriptions: 1_000,
  });
  // The first start's local key: the standard plan's rates, so the README can be followed (issue 35), with short retention.
  expect(getPlan('development')).toMatchObject({ quota: getPlan('standard').quota, valuations: getPlan('standard').valuations, valuationRecordDays: 30 });
  // One interactive request at the plan's largest bulk size fits the minute's valuations.
  for (const name of planNames()) expect(getPlan(name).valuations.perMinute).toBeGreaterThanOrEqual(1_000);
  // A day's batch allowance holds at least one submission of the largest size.
  for (const name of planNames()) expect(getPlan(name).batchItemsPerDay).toBeGreaterThanOrEqual(getPlan(name).maxBatchItems);
});

test('an unknown plan names the known ones', () => {
  expect(() => getPlan('gold')).toThrow(UnknownPlanError);
  expect(() => getPlan('gold')).toThrow("unknown plan 'gold' (known plans: pilot, standard, enterprise, development)");
});

test('PLANS_FILE points to another plans file', () => {
  process.env.PLANS_FILE = plansFile({ trial: { quota: { perMinute: 1, perDay: 2 }, valuations: { perMinute: 5, perDay: 6 }, maxBatchItems: 3, batchItemsPerDay: 4 } });
  expect(planNames()).toEqual(['trial']);
  expect(getPlan('trial').quota).toEqual({ perMinute: 1, perDay: 2 });
  // A plan without `reports` renders the standard plan's (issue 33, finding 4).
  expect(getPlan('trial').reports).toEqual(DEFAULT_REPORTS);
  expect(() => getPlan('pilot')).toThrow(UnknownPlanError);
});

test.each([
  ['a zero limit', { pilot: { quota: { perMinute: 0, perDay: 2 }, valuations: { perMinute: 1, perDay: 2 }, maxBatchItems: 3, batchItemsPerDay: 3 } }, '/pilot/quota/perMinute'],
  ['a missing batch size', { pilot: { quota: { perMinute: 1, perDay: 2 }, valuations: { perMinute: 1, perDay: 2 }, batchItemsPerDay: 3 } }, 'maxBatchItems'],
  ['no valuation limits', { pilot: { quota: { perMinute: 1, perDay: 2 }, maxBatchItems: 3, batchItemsPerDay: 3 } }, 'valuations'],
  ['a fractional limit', { pilot: { quota: { perMinute: 1.5, perDay: 2 }, valuations: { perMinute: 1, perDay: 2 }, maxBatchItems: 3, batchItemsPerDay: 3 } }, 'integer'],
  ['no plans', {}, 'fewer than 1'],
])('rejects a plans file with %s', (_case, contents, problem) => {
  const file = plansFile(contents);
  expect(() => loadPlans(file)).toThrow(InvalidPlansFileError);
  expect(() => loadPlans(file)).toThrow(problem);
});

test('rejects a file that is not JSON', () => {
  const file = join(dir, 'broken.json');
  writeFileSync(file, '{ pilot: ');
  expect(() => loadPlans(file)).toThrow(InvalidPlansFileError);
});
