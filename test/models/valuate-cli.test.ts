/** `npm run valuate`: a file of API requests (homes, vehicles or both) in, one result or API error per line out, in order. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResidentialModelService } from '../../models/residential/serving';
import { valuateFile } from '../../models/valuate-file';
import { currentVersion, VEHICLE_DIR } from '../../models/vehicle/manifest';
import { VehicleModelSet } from '../../models/vehicle/runtime';
import { SAMPLE_HOME_REQUEST, SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST, SITE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { refusedHouseDistrict } from '../support/houses';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readOutput = (): any[] => readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

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
  const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => runtime });
  expect(summary).toEqual({ lines: 1506, valued: 1502, failed: 4 });
  const out = readOutput();
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

it('answers vehicle lines with SERVICE_UNAVAILABLE when no vehicle model is given, and values the homes', async () => {
  writeFileSync(join(dir, 'in.jsonl'), [JSON.stringify({ kind: 'vehicle', ...SAMPLE_VEHICLE_REQUEST }), JSON.stringify(SAMPLE_HOME_REQUEST), JSON.stringify({ kind: 'boat' })].join('\n'));
  const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => runtime });
  expect(summary).toEqual({ lines: 3, valued: 1, failed: 2 });
  const out = readOutput();
  expect(out[0].error.code).toBe('SERVICE_UNAVAILABLE');
  expect(out[1].estimate).toBeGreaterThan(0);
  expect(out[2].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'kind' });
});

it('values house lines beside flat lines; a house the model refuses, and a flat without floor, are error lines', async () => {
  const refused = refusedHouseDistrict();
  const { floor: _floor, ...withoutFloor } = SAMPLE_HOME_REQUEST;
  const lines = [
    JSON.stringify(SAMPLE_HOUSE_REQUEST),
    JSON.stringify({ ...SAMPLE_HOUSE_REQUEST, district: refused ?? SAMPLE_HOUSE_REQUEST.district }),
    JSON.stringify(withoutFloor),
    JSON.stringify(SAMPLE_HOME_REQUEST),
  ];
  writeFileSync(join(dir, 'in.jsonl'), lines.join('\n'));
  const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => runtime });
  expect(summary).toEqual({ lines: 4, valued: refused ? 2 : 3, failed: refused ? 2 : 1 });
  const out = readOutput();
  expect(out[0]).toMatchObject({ property_type: 'house', warnings: [] });
  expect(out[0].land_price_per_sotka).toBeGreaterThan(0);
  if (refused) expect(out[1].error).toMatchObject({ code: 'INSUFFICIENT_MARKET_DATA', field: 'district' });
  expect(out[2].error).toMatchObject({ code: 'MISSING_PARAMETER', field: 'floor' });
  expect(out[3]).toMatchObject({ property_type: 'apartment', land_price_per_sotka: null });
});

describe('with a vehicle model', () => {
  const version = currentVersion();
  // The vehicle artifacts come from `npm run train`; without them there is nothing to value vehicles with.
  const maybe = version ? it : it.skip;
  let vehicles: VehicleModelSet | undefined;
  afterAll(() => vehicles?.close());

  maybe('values vehicle lines (--kind vehicle, or a kind field per line) beside home lines, in order', async () => {
    vehicles = await VehicleModelSet.load(version!, VEHICLE_DIR);
    const lines = [
      JSON.stringify(SAMPLE_VEHICLE_REQUEST),
      JSON.stringify({ ...SAMPLE_VEHICLE_REQUEST, make: 'Toyta' }),
      JSON.stringify({ kind: 'home', ...SAMPLE_HOME_REQUEST }),
      JSON.stringify({ ...SAMPLE_VEHICLE_REQUEST, mileage: -5 }),
      JSON.stringify({ ...SAMPLE_VEHICLE_REQUEST, model: 'Шевроле Кобальт', make: 'шевроле' }),
    ];
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n'));
    let homeLoads = 0;
    const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => (homeLoads++, runtime), vehicle: async () => vehicles! }, { defaultKind: 'vehicle' });
    expect(summary).toEqual({ lines: 5, valued: 3, failed: 2 });
    expect(homeLoads).toBe(1);
    const out = readOutput();
    expect(out[0].vehicle).toMatchObject({ make: 'Chevrolet', model: 'Cobalt', year: 2019 });
    expect(out[0].model_version).toBe(vehicles.version);
    expect(out[0].interval.low).toBeLessThanOrEqual(out[0].estimate);
    expect(out[1].error).toMatchObject({ code: 'UNKNOWN_VEHICLE', field: 'make' });
    expect(out[1].error.suggestions).toContain('Toyota');
    expect(out[2].location.district).toBe('Chilanzar');
    expect(out[3].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'mileage' });
    expect(out[4].estimate).toBe(out[0].estimate);
  });

  maybe("reads vehicle lines in avtoelon.uz's words as the API does, dated by --valuation-date unless a line has its own", async () => {
    vehicles ??= await VehicleModelSet.load(version!, VEHICLE_DIR);
    const lines = [
      JSON.stringify(SITE_VEHICLE_REQUEST),
      JSON.stringify({ ...SITE_VEHICLE_REQUEST, paint: undefined, condition: 'Pyatno bor', fuel: 'plutonium', valuation_date: '2025-01-15' }),
      JSON.stringify({ ...SAMPLE_VEHICLE_REQUEST, year: 1985 }),
      JSON.stringify({ make: 'Nissan', model: 'Pathfinder', year: 2015 }),
    ];
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n'));
    const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { vehicle: async () => vehicles! }, { defaultKind: 'vehicle', valuationDate: '2025-06' });
    expect(summary.lines).toBe(4);
    const [site, spots, early, unlisted] = readOutput();
    expect(site.vehicle).toMatchObject({ model: 'Cobalt', trim: 4, engine: 1.5, fuel: 'petrol', paint: 'original', colour: 'white' });
    expect(site.market_level.valuation_date).toBe('2025-06-01');
    expect(spots.vehicle).toMatchObject({ paint: 'spots', condition: null, fuel: 'petrol' });
    expect(spots.market_level.valuation_date).toBe('2025-01-15');
    expect(spots.warnings).toEqual([
      'condition "Pyatno bor" is a paint condition: read as paint spots; condition says nothing about defects',
      expect.stringMatching(/^fuel "plutonium" is not recognised and was ignored; accepted: petrol/),
    ]);
    expect(early.error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'year', message: 'Chevrolet Cobalt was made from 2011; year 1985 is before that' });
    // Valued on the make's level, or refused for want of data; never an input error.
    if (unlisted.error) expect(unlisted.error.code).toBe('INSUFFICIENT_MARKET_DATA');
    else expect(unlisted.vehicle).toMatchObject({ make: 'Nissan', model: null });
  });
});

it('answers a line in the currency it asks for, as the API does', async () => {
  const dated = { ...SAMPLE_HOME_REQUEST, valuation_date: '2025-04-17' };
  writeFileSync(join(dir, 'in.jsonl'), [JSON.stringify(dated), JSON.stringify({ ...dated, currency: 'uzs' }), JSON.stringify({ ...dated, currency: 'EUR' })].join('\n'));
  const summary = await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => runtime });
  expect(summary).toEqual({ lines: 3, valued: 2, failed: 1 });
  const [usd, uzs, eur] = readOutput();
  expect('exchange_rate' in usd).toBe(false);
  // The CBU's official rate of 2025-04-17.
  expect(uzs).toMatchObject({ currency: 'UZS', exchange_rate: { usd_to_uzs: 12_994.59, date: '2025-04-17' } });
  expect(uzs.estimate).toBe(Math.round((usd.estimate * 12_994.59) / 1000) * 1000);
  expect(eur.error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'currency' });
});

describe('npm run valuate: a malformed --valuation-date', () => {
  it('stops the run before any line, naming the option, with exit code 2 and no output file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'valuate-date-'));
    try {
      const input = join(dir, 'in.jsonl');
      const output = join(dir, 'out.jsonl');
      writeFileSync(input, `${JSON.stringify(SAMPLE_HOME_REQUEST)}\n`);
      const cli = join(__dirname, '..', '..', 'tools', 'models', 'valuate-cli.js');
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, [cli, '--input', input, '--output', output, '--valuation-date', '2026-13-45'], (error, _stdout, stderr) => resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stderr }));
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--valuation-date "2026-13-45" must be/);
      expect(existsSync(output)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
