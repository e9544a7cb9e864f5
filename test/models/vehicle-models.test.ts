/** The vehicle models: the feature module, and the served version (committed artifact) through its runtime. */
import { encodeVehicles, fitVehicleEncoding, vehicleGroup, VEHICLE_FEATURE_COUNT, VEHICLE_FEATURE_NAMES, type VehicleFeatureSource } from '../../models/vehicle/features';
import { currentVersion, readManifest } from '../../models/vehicle/manifest';
import { VehicleModelSet } from '../../models/vehicle/runtime';
import { InsufficientMarketDataError, type VehicleRequest, type VehicleValue } from '../../models/vehicle/valuation';

const col = (name: string) => VEHICLE_FEATURE_NAMES.indexOf(name as (typeof VEHICLE_FEATURE_NAMES)[number]);
const car = (over: Partial<VehicleFeatureSource> = {}): VehicleFeatureSource => ({
  make: 'Chevrolet', model: 'Cobalt', year: 2019, mileageKm: 60_000, engineLitres: 1.5, fuel: 'petrol', transmission: 'manual',
  body: 'sedan', drive: 'front', trim: null, defects: false, region: 'tashkent_city', period: '2023-08', ...over,
});
const request = (over: Partial<VehicleRequest> = {}): VehicleRequest => {
  const { period: _period, ...rest } = car();
  return { ...rest, paint: null, colour: null, valuationDate: null, askingPrice: null, ...over };
};

describe('vehicle features', () => {
  const rows = [car(), car({ year: 2015, period: '2022-06' }), car({ make: 'Daewoo', model: 'Nexia 2' }), car({ make: 'Lada', model: '2106' })];
  const encoding = fitVehicleEncoding(rows, [9.5, 9.0, 8.8, 7.5], 2);

  it('shares the badge family between Daewoo and Chevrolet, and falls back to the make for an unseen model', () => {
    expect(vehicleGroup({ make: 'Daewoo', model: 'Nexia 2' })).toBe('Chevrolet Nexia 2');
    const [unseen] = [encodeVehicles([car({ model: 'Tahoe' })], encoding, new Float64Array(VEHICLE_FEATURE_COUNT))];
    expect(unseen[col('model_prior')]).toBe(unseen[col('make_prior')]);
    expect(unseen[col('model_log_count')]).toBe(0);
  });

  it('marks missing values as NaN, never zero, and values a later period as the newest trained on', () => {
    const X = encodeVehicles([car({ mileageKm: null, fuel: null, period: '2026-11' })], encoding, new Float64Array(VEHICLE_FEATURE_COUNT));
    expect(Number.isNaN(X[col('log_mileage')])).toBe(true);
    expect(Number.isNaN(X[col('fuel')])).toBe(true);
    const newest = encodeVehicles([car()], encoding, new Float64Array(VEHICLE_FEATURE_COUNT));
    expect(X[col('period_index')]).toBe(newest[col('period_index')]);
    expect(newest[col('age_at_listing')]).toBeCloseTo(2023 + 7 / 12 - 2019, 10);
  });
});

describe('the served vehicle version (committed artifact)', () => {
  const version = currentVersion()!;
  const manifest = readManifest(version);
  let models: VehicleModelSet;
  let then: VehicleModelSet;
  beforeAll(async () => {
    models = await VehicleModelSet.load(version);
    then = await VehicleModelSet.load(version, undefined, () => new Date('2023-09-15T00:00:00Z'));
  });
  afterAll(async () => {
    await models.close();
    await then.close();
  });

  it('records the data snapshot, the headline per make/model group with counts, and the drift allowance', () => {
    expect(manifest.dataSnapshot.files.map((f) => f.path).join()).toMatch(/avtoelon_2022.*avtoelon_chevrolet_2023/);
    expect(manifest.evaluation.headline.groups['Chevrolet Cobalt'].n).toBeGreaterThan(1000);
    expect(manifest.intervals.drift?.raised.length).toBeGreaterThan(0);
    expect(manifest.evaluation.kfold.overall.intervalCoverage).toBeGreaterThanOrEqual(0.88);
    expect(manifest.evaluation.kfold.overall.intervalCoverage).toBeLessThanOrEqual(0.92);
    expect(manifest.evaluation.kfoldWithDriftAllowance.intervalCoverage).toBeGreaterThan(manifest.evaluation.kfold.overall.intervalCoverage);
  });

  it('values a 2019 Cobalt with 60,000 km with a calibrated interval and each member\'s estimate', async () => {
    const [value] = (await models.value([request()])) as VehicleValue[];
    expect(value.estimate).toBeGreaterThan(7_000);
    expect(value.estimate).toBeLessThan(20_000);
    expect(value.interval.low).toBeLessThan(value.estimate);
    expect(value.interval.high).toBeGreaterThan(value.estimate);
    expect(value.interval.coverage).toBe(0.9);
    expect(value.models.map((m) => m.name)).toEqual(manifest.members.map((m) => m.name));
    expect(value.anomaly.marketListings).toBeGreaterThan(1000);
    expect(value.anomaly.groupMedianPrice).toBeGreaterThan(5_000);
  });

  it('says the market data is old: flagged, a wider interval and lower confidence than when the data was fresh', async () => {
    const [now] = (await models.value([request()])) as VehicleValue[];
    const [fresh] = (await then.value([request()])) as VehicleValue[];
    expect(now.anomaly.flags).toContain('MARKET_DATA_OLDER_THAN_12_MONTHS');
    expect(fresh.anomaly.flags).not.toContain('MARKET_DATA_OLDER_THAN_12_MONTHS');
    expect(now.interval.high - now.interval.low).toBeGreaterThan(fresh.interval.high - fresh.interval.low);
    expect(now.confidence.score).toBeLessThan(fresh.confidence.score);
  });

  it('refuses a make with no market data and never gives a thin model a high confidence', async () => {
    const [byd, thin, cobalt] = await then.value([
      request({ make: 'BYD', model: 'Song Plus' }),
      request({ make: 'Chevrolet', model: thinModel(), year: manifest.market.group[`Chevrolet ${thinModel()}`].years.to }),
      request(),
    ]);
    expect(byd).toBeInstanceOf(InsufficientMarketDataError);
    expect((byd as InsufficientMarketDataError).listings).toBe(0);
    expect((thin as VehicleValue).anomaly.flags).toContain('THIN_MODEL_DATA');
    expect((thin as VehicleValue).confidence.level).not.toBe('high');
    expect((cobalt as VehicleValue).estimate).toBeGreaterThan(0);
  });

  it('flags an asking price outside the interval', async () => {
    const [value] = (await then.value([request({ askingPrice: 100_000 })])) as VehicleValue[];
    expect(value.anomaly.flags).toContain('ASKING_PRICE_ABOVE_INTERVAL');
  });

  /** A Chevrolet model with enough listings to be valued but fewer than the thin-data threshold. */
  function thinModel(): string {
    const entry = Object.entries(manifest.market.group).find(([g, m]) => g.startsWith('Chevrolet ') && m.listings >= manifest.minListings && m.listings < manifest.thinListings);
    return entry![0].slice('Chevrolet '.length);
  }
});
