/** The vehicle models: the feature module, and the served version (committed artifact) through its runtime. */
import { encodeVehicles, fitVehicleEncoding, vehicleGroup, VEHICLE_FEATURE_COUNT, VEHICLE_FEATURE_NAMES, type VehicleFeatureSource } from '../../models/vehicle/features';
import { typicalVehicle, typicalVehicleOf, typicalVehicles, vehicleAttributionVariants, vehicleContributions } from '../../models/vehicle/attribution';
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

describe('what drives a car\'s estimate (issue 35, item 6): the typical car and its variants', () => {
  const rows = [car({ year: 2018, mileageKm: 90_000 }), car({ year: 2020, mileageKm: null, transmission: 'automatic' }), car({ year: 2021, mileageKm: 30_000, transmission: 'automatic', defects: true }), car({ make: 'Daewoo', model: 'Nexia 2', year: 2010 })];

  it('is the rows\' medians (rounded) and most usual values, per make and model, per make and overall', () => {
    const typical = typicalVehicles(rows, 3);
    expect(Object.keys(typical.group)).toEqual(['Chevrolet Cobalt']);
    expect(typical.group['Chevrolet Cobalt']).toEqual({
      listings: 3, year: 2020, mileageKm: 60_000, engineLitres: 1.5, fuel: 'petrol', transmission: 'automatic', body: 'sedan', drive: 'front', trim: null, defects: false, region: 'tashkent_city',
    });
    // Daewoo is Chevrolet's badge family: the make counts the Nexia too.
    expect(typical.make.Chevrolet.listings).toBe(4);
    expect(typical.overall).toEqual(typicalVehicle(rows));
    // Condition as the listings record it, ticked or blank, is no typical condition.
    expect(typicalVehicle(rows.map((r) => ({ ...r, defects: r.defects ? true : null }))).defects).toBeNull();
    expect(typicalVehicleOf({ make: 'Chevrolet', model: 'Cobalt' }, typical).level).toBe('model');
    expect(typicalVehicleOf({ make: 'Daewoo', model: 'Nexia 2' }, typical).level).toBe('make');
    expect(typicalVehicleOf({ make: 'Lada', model: '2106' }, typical).level).toBe('market');
  });

  it('varies one group at a time, only those the request gave and differs in, without its asking price', () => {
    const typical = typicalVehicles(rows, 3).group['Chevrolet Cobalt'];
    const asked = request({ year: 2015, mileageKm: 150_000, fuel: null, transmission: 'automatic', askingPrice: 9000 });
    const variants = vehicleAttributionVariants(asked, typical);
    expect(variants.map((v) => v.group)).toEqual(['year', 'mileage']);
    expect(variants[0].request).toEqual({ ...asked, year: 2020, askingPrice: null });
    expect(variants[1].request).toEqual({ ...asked, mileageKm: 60_000, askingPrice: null });
    expect(vehicleContributions(10_000, [{ group: 'mileage', estimate: 11_000 }, { group: 'year', estimate: 12_400 }])).toEqual([
      { group: 'year', usd: 2400, share: 0.24 }, { group: 'mileage', usd: 1000, share: 0.1 },
    ]);
  });
});

describe('the served vehicle version (committed artifact)', () => {
  const version = currentVersion()!;
  const manifest = readManifest(version);
  let models: VehicleModelSet;
  let then: VehicleModelSet;
  const valueOne = async (set: VehicleModelSet, over: Partial<VehicleRequest> = {}) => (await set.value([request(over)]))[0];
  beforeAll(async () => {
    models = await VehicleModelSet.load(version, undefined, () => new Date('2026-04-15T00:00:00Z'));
    then = await VehicleModelSet.load(version, undefined, () => new Date(`${manifest.marketIndex.newestPeriod}-15T00:00:00Z`));
  });
  afterAll(async () => {
    await models.close();
    await then.close();
  });

  it('records every forward split in time, the newest as headline, with coverage in the band and the allowance that scored it', () => {
    const forward = manifest.evaluation.forward;
    expect(forward.length).toBe(manifest.marketIndex.periods.length - 1);
    expect(manifest.evaluation.headline).toEqual(expect.objectContaining({ protocol: forward[forward.length - 1].protocol }));
    // The served allowance is the largest any split needed: every split covers at least 90%, the one that needed it most about 90%.
    for (const split of forward) {
      expect(split.drift.months).toBeGreaterThan(0);
      expect(split.overall.intervalCoverage).toBeGreaterThanOrEqual(0.89);
      expect(split.outOfSample).not.toBeNull();
    }
    expect(Math.min(...forward.map((f) => f.overall.intervalCoverage))).toBeLessThanOrEqual(0.92);
    expect(manifest.drift.perMonth).toBe(Math.max(...forward.map((f) => f.drift.perMonth)));
    for (const level of manifest.evaluation.byConfidence) expect(level.coverage).toBeGreaterThanOrEqual(0.88);
    expect(manifest.evaluation.headline.groups['Chevrolet Cobalt'].n).toBeGreaterThan(1000);
    expect(manifest.drift.perMonth).toBeGreaterThan(0);
  });

  it('never values a newer model year lower, nor more kilometres higher (monotonic members)', async () => {
    const years = Array.from({ length: 15 }, (_, k) => 2011 + k);
    for (const model of ['Cobalt', 'Gentra', 'Spark', 'Nexia 3', 'Damas']) {
      const byYear = (await models.value(years.map((year) => request({ model, year })))) as VehicleValue[];
      byYear.slice(1).forEach((v, k) => expect(v.estimate).toBeGreaterThanOrEqual(byYear[k].estimate));
      const byKm = (await models.value([0, 50_000, 100_000, 200_000, 400_000].map((mileageKm) => request({ model, mileageKm })))) as VehicleValue[];
      byKm.slice(1).forEach((v, k) => expect(v.estimate).toBeLessThanOrEqual(byKm[k].estimate));
    }
  });

  it('values a 2019 Cobalt on its own data, with each member\'s estimate and the market level at the valuation date', async () => {
    const value = (await valueOne(then)) as VehicleValue;
    expect(value.basis).toBe('model');
    expect(value.estimate).toBeGreaterThan(7_000);
    expect(value.estimate).toBeLessThan(20_000);
    expect(value.interval.low).toBeLessThan(value.estimate);
    expect(value.interval.high).toBeGreaterThan(value.estimate);
    expect(value.models.map((m) => m.name)).toEqual(manifest.members.map((m) => m.name));
    expect(value.anomaly.marketListings).toBeGreaterThan(1000);
    expect(value.marketLevel).toEqual({ valuationDate: `${manifest.marketIndex.newestPeriod}-15`, newestDataPeriod: manifest.marketIndex.newestPeriod, dataAgeMonths: 0, dataAgeDays: 0, indexRatio: 1, intervalWidening: 0 });
  });

  it('moves an earlier valuation date down the index, and widens the interval by the drift allowance past the newest data', async () => {
    const earlier = (await valueOne(then, { valuationDate: `${manifest.marketIndex.periods[0].period}-15` })) as VehicleValue;
    const fresh = (await valueOne(then)) as VehicleValue;
    const now = (await valueOne(models)) as VehicleValue;
    expect(earlier.marketLevel.indexRatio).toBeLessThan(1);
    expect(earlier.estimate).toBeLessThan(fresh.estimate);
    expect(now.marketLevel.dataAgeMonths).toBeGreaterThan(12);
    expect(now.anomaly.flags).toContain('MARKET_DATA_OLDER_THAN_12_MONTHS');
    expect(fresh.anomaly.flags).not.toContain('MARKET_DATA_OLDER_THAN_12_MONTHS');
    expect(now.marketLevel.intervalWidening).toBeGreaterThan(0);
    expect(now.interval.high / now.interval.low).toBeGreaterThan(fresh.interval.high / fresh.interval.low);
    expect(now.confidence.level).not.toBe('high');
    // The level is held past the newest data: the same estimate, a wider interval.
    expect(now.estimate).toBe(fresh.estimate);
    // 39 months past the data (a car valued in November 2026 on August 2023's listings): low, and the drivers say why (issue 32).
    const late = (await valueOne(then, { valuationDate: '2026-11-15' })) as VehicleValue;
    expect(late.marketLevel.dataAgeMonths).toBe(39);
    expect(late.fsd).toBeGreaterThan(0.3);
    expect(late.confidence).toMatchObject({ level: 'low', score: Math.round((1 - late.fsd) * 100) / 100 });
    expect(late.confidence.drivers[0]).toContain(`FSD ${late.fsd.toFixed(3)}`);
    expect(late.confidence.drivers.join(' ')).toContain('market data 39 months older than the valuation date');
  });

  it('values a model the data does not hold on its make\'s level, a make without data on the segment\'s, and refuses without a body', async () => {
    const [unlisted, byd, noBody, cobalt] = await then.value([
      request({ model: null }),
      request({ make: 'BYD', model: null, year: 2023, body: 'suv', engineLitres: null, fuel: 'electric' }),
      request({ make: 'Chery', model: 'Tiggo 7 Pro', year: 2023, body: null }),
      request(),
    ]);
    expect((unlisted as VehicleValue).basis).toBe('make');
    expect((unlisted as VehicleValue).anomaly.flags).toContain('MODEL_NOT_IN_MARKET_DATA');
    expect((byd as VehicleValue).basis).toBe('segment');
    expect((byd as VehicleValue).anomaly.flags).toContain('MAKE_NOT_IN_MARKET_DATA');
    expect(noBody).toBeInstanceOf(InsufficientMarketDataError);
    const width = (v: VehicleValue) => v.interval.high / v.interval.low;
    expect(width(unlisted as VehicleValue)).toBeGreaterThan(width(cobalt as VehicleValue));
    for (const v of [unlisted, byd] as VehicleValue[]) expect(v.confidence.level).toBe('low');
  });

  it('never gives a thin model a high confidence, and flags an asking price outside the interval', async () => {
    const thin = (await valueOne(then, { model: thinModel(), year: manifest.market.group[`Chevrolet ${thinModel()}`].years.to })) as VehicleValue;
    expect(thin.anomaly.flags).toContain('THIN_MODEL_DATA');
    expect(thin.confidence.level).not.toBe('high');
    const asked = (await valueOne(then, { askingPrice: 100_000 })) as VehicleValue;
    expect(asked.anomaly.flags).toContain('ASKING_PRICE_ABOVE_INTERVAL');
  });

  it('publishes the market index per segment and lists makes without data in the catalogue', () => {
    const series = models.marketIndex();
    expect(series.map((s) => s.segment)).toEqual(['domestic', 'russian', 'foreign']);
    for (const s of series) {
      expect(s.points[s.points.length - 1]).toEqual(expect.objectContaining({ period: manifest.marketIndex.newestPeriod, index: 1 }));
      for (const p of s.points) expect(p.low).toBeLessThanOrEqual(p.index);
      expect(s.movesPerYear.length).toBe(s.points.length - 1);
    }
    const catalog = models.catalog();
    const chevrolet = catalog.find((e) => e.make === 'Chevrolet')!;
    expect(chevrolet.otherModels).toBe('make');
    expect(chevrolet.models.find((m) => m.model === 'Cobalt')).toEqual(expect.objectContaining({ basis: 'model' }));
    expect(catalog.find((e) => e.make === 'Chery')).toEqual(expect.objectContaining({ listings: 0, otherModels: 'segment' }));
  });

  it('ships a typical car per make and model, per make and of the market, drawn from its training listings (issue 35, item 6)', () => {
    const typical = manifest.typical!;
    expect(typical).toBeDefined();
    expect(typical.minListings).toBe(manifest.minListings);
    expect(typical.overall.listings).toBe(manifest.training.rows);
    for (const [group, car] of Object.entries(typical.group)) {
      const market = manifest.market.group[group];
      expect(car.listings).toBe(market.listings);
      expect(car.year).toBeGreaterThanOrEqual(market.years.from);
      expect(car.year).toBeLessThanOrEqual(market.years.to);
    }
    for (const [make, car] of Object.entries(typical.make)) expect(car.listings).toBe(manifest.market.make[make]);
    expect(Object.keys(typical.group).length).toBe(Object.entries(manifest.market.group).filter(([g, m]) => !g.endsWith('(other model)') && m.listings >= manifest.minListings).length);
  });

  /** A Chevrolet model with enough listings to be valued but fewer than the thin-data threshold. */
  function thinModel(): string {
    const entry = Object.entries(manifest.market.group).find(([g, m]) => g.startsWith('Chevrolet ') && m.listings >= manifest.minListings && m.listings < manifest.thinListings);
    return entry![0].slice('Chevrolet '.length);
  }
});
