/** The pure pieces of the residential pipeline: features, calibration groups, metrics, weights, confidence, promotion (intervals: intervals.test.ts). */
import { accuracyByConfidence, confidence } from '../../models/ensemble/confidence';
import { inputFlags } from '../../models/residential/assessment';
import { crossFit, type CrossFitConfig } from '../../models/ensemble/cross-fit';
import { RidgeRegression } from '../../models/trainers';
import { BASIC_FIELDS_SUFFIX, calibrationGroup } from '../../models/residential/runtime';
import { learnWeights } from '../../models/ensemble/weights';
import { encodeFeatures, fitEncoding, FEATURE_COUNT, FEATURE_NAMES, type FeatureSource } from '../../models/residential/features';
import { marketReference } from '../../models/residential/market';
import { accuracyClass, accuracyMetrics, quantile, wilsonBounds } from '../../models/ensemble/metrics';
import { decidePromotion } from '../../models/ensemble/promotion';
import { fsdVerdict } from '../../tools/cards/card-kit';
import { compareVersions, currentVersion, nextVersion, readManifest } from '../../models/residential/manifest';
import { readHeldOutEvaluation } from '../../tools/cards/residential';

const flat = (over: Partial<FeatureSource> = {}): FeatureSource => ({
  district: 'chilanzar', mahallaId: 'chilanzar/katartal', area: 60, rooms: 2, floor: 3, totalFloors: 9,
  renovation: 'euro', buildingType: 'brick', furniture: true, bathroom: 'separate', market: null, seller: null, lat: null, lon: null, period: '2025-04', ...over,
});
const col = (name: string) => FEATURE_NAMES.indexOf(name as (typeof FEATURE_NAMES)[number]);

describe('features', () => {
  const rows = [flat(), flat({ area: 80 }), flat({ district: 'yunusabad', mahallaId: 'yunusabad/x' }), flat({ period: '2024-04' })];
  const y = [7.0, 7.2, 7.4, 6.8];
  const encoding = fitEncoding(rows, y, 2);

  it('shrinks a mahalla towards its district and the district towards the city', () => {
    const cityMean = y.reduce((a, b) => a + b) / y.length;
    expect(encoding.cityMean).toBeCloseTo(cityMean, 12);
    const chilanzarMean = (7.0 + 7.2 + 6.8 + 2 * cityMean) / 5;
    expect(encoding.district.chilanzar.mean).toBeCloseTo(chilanzarMean, 12);
    expect(encoding.mahalla['chilanzar/katartal'].mean).toBeCloseTo((7.0 + 7.2 + 6.8 + 2 * chilanzarMean) / 5, 12);
    expect(encoding.newestPeriod).toBe('2025-04');
  });

  it('falls back to the district for an unseen mahalla, and marks missing values as NaN', () => {
    const X = encodeFeatures([flat({ mahallaId: 'chilanzar/unseen', renovation: null, furniture: null, floor: null })], encoding, new Float64Array(FEATURE_COUNT));
    expect(X[col('mahalla_prior')]).toBe(X[col('district_prior')]);
    expect(X[col('mahalla_log_count')]).toBe(0);
    expect(Number.isNaN(X[col('renovation')])).toBe(true);
    expect(Number.isNaN(X[col('furniture')])).toBe(true);
    expect(Number.isNaN(X[col('floor_ratio')])).toBe(true);
    expect(X[col('log_area')]).toBeCloseTo(Math.log(60), 12);
  });

  it('leaves time out of the features: the market index, not a tree, carries a valuation to its date', () => {
    expect(FEATURE_NAMES.some((name) => /period|month|year/.test(name))).toBe(false);
    const later = encodeFeatures([flat({ period: '2027-01' })], encoding, new Float64Array(FEATURE_COUNT));
    const newest = encodeFeatures([flat({ period: '2025-04' })], encoding, new Float64Array(FEATURE_COUNT));
    expect(Array.from(later)).toEqual(Array.from(newest));
  });

  it("places a flat at its own point, else at its mahalla's centre, else nowhere", () => {
    const withCentres = fitEncoding(rows, y, 2, { 'chilanzar/katartal': [41.27, 69.2] });
    const at = (row: FeatureSource) => {
      const X = encodeFeatures([row], withCentres, new Float64Array(FEATURE_COUNT));
      return [X[col('lat')], X[col('lon')]];
    };
    expect(at(flat())).toEqual([41.27, 69.2]);
    expect(at(flat({ lat: 41.3, lon: 69.25 }))).toEqual([41.3, 69.25]);
    expect(at(flat({ mahallaId: null })).every(Number.isNaN)).toBe(true);
    expect(at(flat({ mahallaId: 'chilanzar/unplaced' })).every(Number.isNaN)).toBe(true);
  });

  it('gives float32 and float64 buffers the same values (serving uses float32)', () => {
    const a = encodeFeatures(rows, encoding, new Float64Array(rows.length * FEATURE_COUNT));
    const b = encodeFeatures(rows, encoding, new Float32Array(rows.length * FEATURE_COUNT));
    a.forEach((v, i) => (Number.isNaN(v) ? expect(Number.isNaN(b[i])).toBe(true) : expect(b[i]).toBeCloseTo(v, 5)));
  });
});

describe('calibration groups', () => {
  it('calibrates a flat described by its basic fields apart from a detailed one', () => {
    const basic = flat({ renovation: null, buildingType: null, mahallaId: null, market: 'new' });
    expect(calibrationGroup(basic)).toBe(`new${BASIC_FIELDS_SUFFIX}/chilanzar`);
    expect(calibrationGroup({ ...basic, renovation: 'euro' })).toBe('new/chilanzar');
    expect(calibrationGroup(flat())).toBe('unknown/chilanzar');
  });
});

describe('cross-fitting with masked copies', () => {
  // y = 7 + 0.5·renovation (0/1) + 0.2·log area: the copies without renovation can only learn its average.
  const rows = Array.from({ length: 200 }, (_, i) => ({ ...flat({ area: 40 + (i % 50), renovation: i % 2 ? 'euro' : 'rough' }), source: `s${i % 4}` }));
  const y = Float64Array.from(rows, (r) => 7 + (r.renovation === 'euro' ? 0.5 : 0) + 0.2 * Math.log(r.area));
  const features = {
    names: ['renovation', 'log_area'], groups: {},
    fit: (fitted: readonly typeof rows[number][]) => ({ rows: fitted.length }),
    encode: (rs: readonly typeof rows[number][], _e: unknown, out: Float64Array) => {
      rs.forEach((r, i) => { out[2 * i] = r.renovation === null ? NaN : r.renovation === 'euro' ? 1 : 0; out[2 * i + 1] = Math.log(r.area); });
      return out;
    },
  };
  const config: CrossFitConfig<typeof rows[number], { rows: number }> = {
    features, members: [{ name: 'ridge', algorithm: 'ridge', hyperparameters: {}, create: () => new RidgeRegression({ alpha: 1e-6 }) }],
    groupOf: () => 'all', foldOf: (r) => r.source, monthOf: () => 0, unitsOf: () => 1, recencyHalfLifeMonths: 24, folds: 0, seed: 1,
    maskedCopies: { mask: (r) => ({ ...r, renovation: null }), weight: 0.5 },
  };
  const fit = crossFit({ rows, y, priceUsd: y, source: rows.map((r) => r.source) }, config, () => {});

  it('appends one masked copy per row, in the same folds, and fits encodings on the original rows only', () => {
    expect(fit.originals).toBe(200);
    expect(fit.data.rows).toHaveLength(400);
    expect(fit.data.rows.slice(200).every((r) => r.renovation === null)).toBe(true);
    expect(fit.data.source.slice(200)).toEqual(fit.data.source.slice(0, 200));
    expect(fit.encoding).toEqual({ rows: 200 });
    expect(fit.oofConsensus).toHaveLength(400);
  });

  it('predicts a row exactly from all its fields, and a masked row at the average of what it lacks', () => {
    const full = fit.predict([rows[1]]).consensus[0];
    expect(full).toBeCloseTo(y[1], 1);
    const masked = fit.predict([{ ...rows[1], renovation: null }]).consensus[0];
    expect(masked).toBeCloseTo(y[1] - 0.25, 1);
  });
});

describe('metrics', () => {
  it('computes the bank measures on known numbers', () => {
    const m = accuracyMetrics([100, 200, 300, 400], [110, 180, 300, 500], [90, 150, 280, 420], [120, 210, 320, 450]);
    expect(m.n).toBe(4);
    expect(m.mape).toBeCloseTo((0.1 + 0.1 + 0 + 0.25) / 4, 12);
    expect(m.medianApe).toBeCloseTo(0.1, 12);
    expect(m.maeUsd).toBeCloseTo((10 + 20 + 0 + 100) / 4, 12);
    expect(m.ppe10).toBe(0.75);
    expect(m.ppe20).toBe(0.75);
    expect(m.intervalCoverage).toBe(0.75);
    expect(m.r2).toBeCloseTo(1 - (100 + 400 + 0 + 10000) / 50000, 12);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it('bounds a measured coverage with the Wilson score interval', () => {
    expect(wilsonBounds(88, 100).low).toBeCloseTo(0.80188, 4);
    expect(wilsonBounds(88, 100).high).toBeCloseTo(0.93, 4);
    expect(wilsonBounds(37, 37).high).toBe(1); // holds p itself, no rounding short of 1
    expect(wilsonBounds(0, 12).low).toBe(0);
    expect(wilsonBounds(10, 10).high).toBe(1);
    expect(accuracyMetrics([100, 200, 300, 400], [110, 180, 300, 500], [90, 150, 280, 420], [120, 210, 320, 450]).intervalCoverageBounds95).toEqual(wilsonBounds(3, 4));
    expect(accuracyMetrics([100], [100]).intervalCoverageBounds95).toBeUndefined();
  });

  it('classes districts by their held-out numbers, and thin ones as low', () => {
    const base = accuracyMetrics([100, 200], [100, 200]);
    expect(accuracyClass({ ...base, n: 100, r2: 0.85, mape: 0.08 })).toBe('high');
    expect(accuracyClass({ ...base, n: 100, r2: 0.7, mape: 0.14 })).toBe('good');
    expect(accuracyClass({ ...base, n: 100, r2: 0.55, mape: 0.2 })).toBe('fair');
    expect(accuracyClass({ ...base, n: 100, r2: 0.3, mape: 0.3 })).toBe('low');
    expect(accuracyClass({ ...base, n: 20, r2: 0.95, mape: 0.05 })).toBe('low');
  });
});

describe('ensemble weights', () => {
  it('puts the weight on the member that predicts, not on noise', () => {
    const y = Float64Array.from({ length: 200 }, (_, i) => Math.sin(i));
    const good = y.map((v, i) => v + 0.01 * Math.cos(i * 7));
    const bad = y.map((_, i) => Math.cos(i * 3));
    const w = learnWeights([bad, good], y);
    expect(w[1]).toBeGreaterThanOrEqual(0.95);
    expect(w[0] + w[1]).toBeCloseTo(1, 12);
  });
});

describe('confidence and flags', () => {
  it('follows the written rule', () => {
    expect(confidence(0.2, 0, 'high', 0)).toEqual({ level: 'high', score: 1 });
    expect(confidence(0.8, 0.3, 'low', 0)).toEqual({ level: 'low', score: 0.12 });
    // A district of low accuracy class is never 'high'.
    expect(confidence(0.2, 0, 'low', 0).level).toBe('medium');
    expect(confidence(0.2, 0, 'high', 3).score).toBeCloseTo(0.7, 12);
  });

  it("takes the model's own width ends in the trained tier, and reports accuracy per stated level (the FSD's band)", () => {
    // 0.8 wide: no width marks under the default ends, half under ends of 0.5 and 1.1.
    expect(confidence(0.8, 0, 'good', 0).score).toBeCloseTo(0.2 + 0.24, 12);
    expect(confidence(0.8, 0, 'good', 0, { full: 0.5, none: 1.1 }).score).toBeCloseTo(0.25 + 0.2 + 0.24, 12);
    const rows = [
      { actual: 100, predicted: 100, low: 80, high: 125 }, // narrow, exact
      { actual: 100, predicted: 150, low: 60, high: 300 }, // wide, 50% off, covered
    ];
    // FSD ln(125/80)/3.29 = 0.136 (high) and ln(300/60)/3.29 = 0.489 (low); both prices within ±FSD (0 and |ln(100/150)| = 0.405).
    const byLevel = accuracyByConfidence(rows);
    const one = wilsonBounds(1, 1);
    expect(byLevel).toEqual([
      { level: 'high', n: 1, medianApe: 0, ppe10: 1, ppe20: 1, coverage: 1, withinFsd: 1, withinFsdBounds: one },
      { level: 'low', n: 1, medianApe: 0.5, ppe10: 0, ppe20: 0, coverage: 1, withinFsd: 1, withinFsdBounds: one },
    ]);
  });

  it('flags inputs unlike the training data', () => {
    const market = marketReference([
      ...Array.from({ length: 100 }, (_, i) => ({ district: 'chilanzar', mahallaId: null, area: 40 + (i % 60), totalFloors: 9, priceUsd: 60000 })),
    ]);
    const request = { district: 'chilanzar' as const, mahallaId: null, area: 500, rooms: 2, floor: 30, totalFloors: 30, renovation: null, buildingType: null, furniture: null, bathroom: null, market: null, seller: null, lat: null, lon: null, askingPrice: null, valuationDate: null };
    expect(inputFlags(request, market)).toEqual(expect.arrayContaining(['AREA_OUTSIDE_DISTRICT_RANGE', 'TOTAL_FLOORS_ABOVE_DISTRICT_MAX', 'UNUSUAL_AREA_PER_ROOM', 'TOP_FLOOR_OF_HIGH_RISE']));
    expect(inputFlags({ ...request, district: 'bektemir' }, market)).toContain('THIN_DISTRICT_DATA');
  });
});

describe('versions and promotion', () => {
  const candidate = (mape: number, coverage: number) => ({ evaluation: { headline: { overall: { mape, intervalCoverage: coverage } } } }) as never;
  it('promotes only a version that is not worse on the same evaluation', () => {
    expect(decidePromotion(candidate(0.14, 0.9), null).promote).toBe(true);
    expect(decidePromotion(candidate(0.14, 0.9), { version: 'a', mapeOnSameEvaluation: 0.139 }).promote).toBe(true);
    expect(decidePromotion(candidate(0.15, 0.9), { version: 'a', mapeOnSameEvaluation: 0.14 }).promote).toBe(false);
    expect(decidePromotion(candidate(0.10, 0.8), { version: 'a', mapeOnSameEvaluation: 0.14 }).promote).toBe(false);
  });
  it('refuses a version whose stated confidence is broken: far from 68% of held-out prices within ±FSD (issue 32)', () => {
    const level = (name: 'high' | 'medium' | 'low', n: number, withinFsd: number) => ({ level: name, n, medianApe: 0.1, ppe10: 0.5, ppe20: 0.8, coverage: 0.9, withinFsd, withinFsdBounds: { low: 0, high: 1 } });
    const honest = [level('medium', 300, 0.7), level('low', 200, 0.66)];
    expect(decidePromotion(candidate(0.14, 0.9), null, 'headline', honest).promote).toBe(true);
    // 58.6% and 47.2% (the car model in service): 58% over both, inside the sanity band, reported as not honest in the card.
    expect(decidePromotion(candidate(0.14, 0.9), null, 'headline', [level('medium', 11_881, 0.586), level('low', 670, 0.472)]).promote).toBe(true);
    const tooSmall = decidePromotion(candidate(0.14, 0.9), null, 'headline', [level('medium', 300, 0.4), level('low', 200, 0.45)]);
    expect(tooSmall).toMatchObject({ promote: false, reason: expect.stringContaining('within ±FSD') });
    expect(decidePromotion(candidate(0.14, 0.9), null, 'headline', [level('medium', 300, 0.95)]).promote).toBe(false);
    // Manifests before issue 32 record no share: nothing to check.
    expect(decidePromotion(candidate(0.14, 0.9), null, 'headline', [{ ...level('medium', 300, 0), withinFsd: undefined }]).promote).toBe(true);
  });
  it('numbers versions YYYY.MM.N', () => {
    expect(nextVersion([], new Date('2026-11-21'))).toBe('2026.11.0');
    expect(nextVersion(['2026.11.0', '2026.11.3', '2026.10.9'], new Date('2026-11-21'))).toBe('2026.11.4');
    expect(['2026.11.10', '2026.11.9', '2025.12.0'].sort(compareVersions)).toEqual(['2025.12.0', '2026.11.9', '2026.11.10']);
  });
});

describe('the served residential version (committed artifact)', () => {
  const manifest = readManifest(currentVersion()!);
  const band = (c: number) => c >= 0.88 && c <= 0.92;

  // The forward test has 507 flats, so its measured coverage moves ±2.2 points by chance: it is held
  // to the rule districts are held to (never under 88%, and its 95% bounds reach the band); the
  // 7,609 flats left out one source at a time are held to the band itself.
  it('covers 88–92% of held-out prices leaving one source out, as listed and with the basic fields only; never under 88% on the forward test', () => {
    const forward = manifest.evaluation.headline.overall;
    expect(forward.intervalCoverage).toBeGreaterThanOrEqual(0.88);
    expect(forward.intervalCoverageBounds95!.low).toBeLessThanOrEqual(0.92);
    expect(band(manifest.evaluation.leaveOneSourceOut.overall.intervalCoverage)).toBe(true);
    expect(band(manifest.evaluation.leaveOneSourceOut.coreFieldsOnly!.overall.intervalCoverage)).toBe(true);
  });

  it('values a flat sent with its basic fields and market only (as banks and other sites send it): recorded on the forward test', () => {
    const basic = manifest.evaluation.masked.find((v) => v.name === 'district, area, rooms, floor, floors and market only')!.overall;
    // Known and reported (issue 32's decision, no drift past the data): this forward step is 14 months past its fit's
    // data in a rising market, valued about 13% low; its coverage falls to about 86% and its median error to 17%.
    expect(basic.intervalCoverage).toBeGreaterThanOrEqual(0.85);
    expect(basic.medianApe).toBeLessThan(0.18);
  });

  it('is under 88% coverage (95% bounds) in two forward-test districts with 30+ listings, over the band in none', () => {
    const tested = [
      ...Object.entries(manifest.evaluation.headline.districts).filter(([, d]) => d.n >= 30),
      ...Object.entries(manifest.evaluation.headline.segments!),
    ];
    expect(tested.length).toBeGreaterThanOrEqual(8);
    // Known and reported (issue 32's decision, no drift past the data): the forward step's prices ran about a third above the
    // level held from its fit's data in Yakkasaray and Yashnabad, which under-cover; every other district and segment holds.
    const underCovered = tested.filter(([, d]) => d.intervalCoverageBounds95!.high < 0.88).map(([group]) => group);
    expect(underCovered.sort()).toEqual(['yakkasaray', 'yashnabad']);
    // None over the band: the new-build quantile (calibrated on olx 2024 alone, so wide) over-covered with the drift; held, it does not.
    const overBand = tested.filter(([, d]) => d.intervalCoverageBounds95!.low > 0.92).map(([group]) => group);
    expect(overBand).toEqual([]);
  });

  it('leaving one source out, its stated levels (FSD bands): within the sanity band, the narrow intervals\' FSD too small and the wide ones\' too large', () => {
    const { leaveOneSourceOut } = manifest.confidence!;
    expect(leaveOneSourceOut.map((c) => c.level)).toEqual(['high', 'medium', 'low']);
    const apes = leaveOneSourceOut.map((c) => c.medianApe);
    expect(apes[1]).toBeLessThan(apes[2]);
    // Known and reported (model card, issue 32 note): about 55%, 77% and 79% within ±FSD against 68%: the FSD the
    // interval implies under a normal error is too small where the interval is narrow and too large where it is wide.
    const within = leaveOneSourceOut.map((c) => c.withinFsd!);
    expect(within[0]).toBeLessThan(within[1]);
    expect(within[1]).toBeLessThanOrEqual(within[2]);
    for (const w of within) expect(w > 0.5 && w < 0.85).toBe(true);
    expect(fsdVerdict(leaveOneSourceOut[0])).toBe('FSD too small');
    // Known and reported (model card, issue 32 note): the narrowest intervals (FSD ≤ 0.15) under-cover leaving a source out
    // (82%); the wider ones cover at least 88%.
    for (const c of leaveOneSourceOut.filter((l) => l.level !== 'high')) expect({ level: c.level, covered: c.coverage >= 0.88 }).toEqual({ level: c.level, covered: true });
    expect(leaveOneSourceOut[0].coverage).toBeGreaterThan(0.8);
  });

  it('tests forward: the headline is the newest snapshot, valued by a fit that never saw it, at the level held from that fit\'s newest data', () => {
    expect(manifest.evaluation.headline.protocol).toMatch(/before the newest snapshot/);
    expect(Object.keys(manifest.evaluation.headline.bySource!)).toEqual(['uybor 2026-07']);
    const rows = readHeldOutEvaluation(manifest.version)!.rows;
    const ratios = rows.map((r) => r.predicted / r.actual).sort((a, b) => a - b);
    // No drift past the data (issue 32): 14 months on, in a market that rose, the held level values low (the safe side).
    const level = ratios[Math.floor(ratios.length / 2)] - 1;
    expect(level).toBeLessThan(0);
    expect(level).toBeGreaterThan(-0.2);
    expect(manifest.evaluation.headline.level!.medianLevelError).toBeLessThan(0);
  });

  it('publishes a market index that sets the newest level to 1 and reaches back to 2021', () => {
    const index = manifest.marketIndex;
    expect(index.newestPeriod).toBe('2026-07');
    expect(index.city.at(-1)).toEqual({ period: '2026-07', logLevel: 0, se: 0 });
    expect(index.city[0].period).toBe('2021-02');
    expect(Math.exp(index.city[0].logLevel)).toBeLessThan(0.7); // README: 2021 prices about 40% below
    expect(index.driftPerMonth).toBeGreaterThan(0);
  });

  it('chose the pooling of σ(x) leaving one source out, each source calibrated on the others', () => {
    const selection = manifest.intervals.selection!;
    expect(selection.protocol).toMatch(/^leave-one-source-out/);
    const best = Math.min(...selection.candidates.map((c) => c.meanAbsDeviation));
    expect(selection.candidates.find((c) => c.power === selection.chosen)!.meanAbsDeviation).toBe(best);
    expect(manifest.intervals.scale!.pooling!.power).toBe(selection.chosen);
  });
});
