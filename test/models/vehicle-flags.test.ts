/**
 * The flags of a vehicle valuation, checked by what the runtime does (models/vehicle/runtime.ts),
 * against the rules the model card documents (vehicleFlagRules): every documented flag is raised by
 * some request and no other flag is; each is raised past the threshold the card states and not
 * before it; and the flags the card marks as lowering the confidence score are the ones the
 * runtime counts when it reads the confidence rule.
 *
 * Valued on the version in service (its ONNX file) with its manifest copied, both members weighted
 * equally: served with one member carrying all the weight, the members never disagree, and
 * MODELS_DISAGREE could not be seen.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ensemble from '../../models/ensemble';
import { STALE_DATA_FLAG, STALE_DATA_MONTHS } from '../../models/ensemble/confidence';
import { periodIndex } from '../../models/ensemble/encoding';
import { currentVersion, readManifest, VEHICLE_DIR, type VehicleManifest } from '../../models/vehicle/manifest';
import { vehicleFlagRules, VEHICLE_CODE_FACTS } from '../../tools/cards/vehicle';
import { VehicleModelSet } from '../../models/vehicle/runtime';
import type { VehicleRequest, VehicleValue } from '../../models/vehicle/valuation';

// The confidence rule, watched: which flags the runtime counts when it reads it (jest hoists this above the imports).
jest.mock('../../models/ensemble', () => {
  const actual = jest.requireActual<typeof import('../../models/ensemble')>('../../models/ensemble');
  return { ...actual, confidence: jest.fn(actual.confidence) };
});
const confidenceRule = ensemble.confidence as jest.MockedFunction<typeof ensemble.confidence>;

const VERSION = currentVersion(VEHICLE_DIR)!;
const root = mkdtempSync(join(tmpdir(), 'vehicle-flags-'));
let models: VehicleModelSet;
let manifest: VehicleManifest;

/** A month `months` after YYYY-MM, as YYYY-MM-15. */
const monthAfter = (period: string, months: number) => {
  const index = periodIndex(period) + months;
  return `${2020 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-15`;
};

/** Mid-2023 (July), inside the data: age from mid model year is a whole number of years. */
const IN_DATA = '2023-07-15';
const COBALT: VehicleRequest = {
  make: 'Chevrolet', model: 'Cobalt', year: 2019, mileageKm: 60_000, engineLitres: null, fuel: null, transmission: null, body: null, drive: null,
  trim: null, defects: null, region: null, paint: null, colour: null, valuationDate: IN_DATA, askingPrice: null,
};

/** Values one request, with the flag count the runtime handed the confidence rule for it; null when it is refused (nothing to stand on). */
async function valueOrRefuse(request: VehicleRequest): Promise<(VehicleValue & { counted: number }) | null> {
  confidenceRule.mockClear();
  const [valued] = await models.value([request]);
  if (valued instanceof Error) return null;
  expect(confidenceRule).toHaveBeenCalledTimes(1);
  return { ...valued, counted: confidenceRule.mock.calls[0][3] };
}
async function value(request: VehicleRequest): Promise<VehicleValue & { counted: number }> {
  const valued = await valueOrRefuse(request);
  if (!valued) throw new Error(`${JSON.stringify(request)} was refused`);
  return valued;
}
const flagsOf = async (request: VehicleRequest) => (await value(request)).anomaly.flags;

beforeAll(async () => {
  const served = readManifest(VERSION, VEHICLE_DIR);
  expect(served.members.length).toBeGreaterThanOrEqual(2);
  mkdirSync(join(root, VERSION));
  writeFileSync(join(root, VERSION, 'manifest.json'), JSON.stringify({ ...served, members: served.members.map((m) => ({ ...m, weight: 1 / served.members.length })) }));
  symlinkSync(join(VEHICLE_DIR, VERSION, served.onnx.file), join(root, VERSION, served.onnx.file));
  models = await VehicleModelSet.load(VERSION, root, () => new Date(`${IN_DATA}T12:00:00Z`));
  manifest = models.manifest;
});
afterAll(async () => {
  await models?.close();
  rmSync(root, { recursive: true, force: true });
});

const rules = () => vehicleFlagRules(manifest);
const rule = (flag: string) => rules().find((r) => r.flag === flag);

/** Requests that between them raise every flag a valuation can carry, and many that raise none. */
function varied(): VehicleRequest[] {
  const { group, make } = manifest.market;
  const thin = Object.entries(group).find(([, m]) => m.listings >= manifest.minListings && m.listings < manifest.thinListings)!;
  const fewListings = Object.keys(make).find((m) => make[m] < manifest.bases.minMakeListings)!;
  const requests: VehicleRequest[] = [
    { ...COBALT, model: null },
    { ...COBALT, make: fewListings, model: null, body: 'sedan' },
    { ...COBALT, make: thin[0].split(' ')[0], model: thin[0].split(' ').slice(1).join(' '), year: thin[1].years.from },
    { ...COBALT, year: group['Chevrolet Cobalt'].years.from - 2, mileageKm: null },
    { ...COBALT, mileageKm: 900_000 },
    { ...COBALT, valuationDate: monthAfter(manifest.marketIndex.newestPeriod, VEHICLE_CODE_FACTS.staleMonths + 1) },
    { ...COBALT, askingPrice: 1 },
    { ...COBALT, askingPrice: 10_000_000 },
  ];
  // Groups of every size at both ends of their years, new and worn: the members disagree on some, and some are far from their median.
  for (const name of Object.keys(group).filter((_, i) => i % 12 === 0)) {
    const [carMake, ...model] = name.split(' ');
    for (const year of [group[name].years.from, group[name].years.to]) for (const mileageKm of [0, 400_000]) requests.push({ ...COBALT, make: carMake, model: model.join(' '), year, mileageKm });
  }
  return requests;
}

test('every flag the card documents is raised by some request, and no other; each counted by the confidence rule as the card says', async () => {
  const raised = new Set<string>();
  let valued = 0;
  for (const request of varied()) {
    const result = await valueOrRefuse(request);
    if (!result) continue;
    valued++;
    const { anomaly, counted } = result;
    for (const flag of anomaly.flags) {
      raised.add(flag);
      expect([flag, rule(flag)?.flag]).toEqual([flag, flag]);
    }
    // Raised before the confidence is read, the stale data excepted: counted; the rest are not.
    expect([request, anomaly.flags, counted]).toEqual([request, anomaly.flags, anomaly.flags.filter((f) => rule(f)!.scored).length]);
  }
  expect(valued).toBeGreaterThan(50);
  expect([...raised].sort()).toEqual(rules().map((r) => r.flag).sort());
});

test('the stale-data flag: past the months the card states after the newest listings, and not at them', async () => {
  expect(VEHICLE_CODE_FACTS.staleMonths).toBe(STALE_DATA_MONTHS);
  const newest = manifest.marketIndex.newestPeriod;
  expect(await flagsOf({ ...COBALT, valuationDate: monthAfter(newest, VEHICLE_CODE_FACTS.staleMonths) })).not.toContain(STALE_DATA_FLAG);
  const stale = await value({ ...COBALT, valuationDate: monthAfter(newest, VEHICLE_CODE_FACTS.staleMonths + 1) });
  expect(stale.anomaly.flags).toContain(STALE_DATA_FLAG);
  expect(rule(STALE_DATA_FLAG)!.scored).toBe(false);
});

test("UNUSUAL_MILEAGE: more than the card's kilometres per year of age, counted from mid model year", async () => {
  // July 2023 is 2023.5; a 2019 car's mid model year 2019.5: four years of age.
  const limit = VEHICLE_CODE_FACTS.unusualKmPerYear * 4;
  expect(await flagsOf({ ...COBALT, mileageKm: Math.round(limit * 1.02) })).toContain('UNUSUAL_MILEAGE');
  expect(await flagsOf({ ...COBALT, mileageKm: Math.round(limit * 0.98) })).not.toContain('UNUSUAL_MILEAGE');
  // A car of this year: half a year at least.
  const newCar = { ...COBALT, year: 2023, mileageKm: VEHICLE_CODE_FACTS.unusualKmPerYear * 0.5 * 1.02 };
  expect(await flagsOf(newCar)).toContain('UNUSUAL_MILEAGE');
  expect(await flagsOf({ ...newCar, mileageKm: VEHICLE_CODE_FACTS.unusualKmPerYear * 0.5 * 0.98 })).not.toContain('UNUSUAL_MILEAGE');
});

test('YEAR_OUTSIDE_MODEL_DATA: more than one year outside the model years of its listings', async () => {
  const { from, to } = manifest.market.group['Chevrolet Cobalt'].years;
  for (const [year, flagged] of [[from - 2, true], [from - 1, false], [to + 1, false], [to + 2, true]] as const) {
    expect([year, (await flagsOf({ ...COBALT, year, mileageKm: null })).includes('YEAR_OUTSIDE_MODEL_DATA')]).toEqual([year, flagged]);
  }
});

test('FAR_FROM_GROUP_MEDIAN: the estimate more than 50% above or below the median price of its make, model and year', async () => {
  const { estimate } = await value(COBALT);
  const year = manifest.market.group['Chevrolet Cobalt'].medianPriceByYear;
  const saved = year[String(COBALT.year)];
  try {
    for (const [ratio, flagged] of [[1.55, true], [1.45, false], [0.55, false], [0.45, true]] as const) {
      year[String(COBALT.year)] = { ...saved, median: estimate / ratio };
      const valued = await value(COBALT);
      expect(valued.anomaly.deviationFromGroupMedian).toBeCloseTo(ratio - 1, 1);
      expect([ratio, valued.anomaly.flags.includes('FAR_FROM_GROUP_MEDIAN')]).toEqual([ratio, flagged]);
    }
  } finally {
    year[String(COBALT.year)] = saved;
  }
});

test("MODELS_DISAGREE: the members' estimates spread by more than 20% of the estimate", async () => {
  const spreads = (await models.value(varied())).flatMap((valued) => (valued instanceof Error ? [] : [[valued.anomaly.modelSpread, valued.anomaly.flags.includes('MODELS_DISAGREE')] as const]));
  // Rounded to 3 decimals in the reply: a spread on the threshold itself cannot be told apart.
  const judged = spreads.filter(([spread]) => Math.abs(spread - 0.2) > 0.001);
  expect(judged.filter(([, flagged]) => flagged).length).toBeGreaterThan(3);
  expect(judged.filter(([, flagged]) => !flagged).length).toBeGreaterThan(3);
  for (const [spread, flagged] of judged) expect([spread, flagged]).toEqual([spread, spread > 0.2]);
});
