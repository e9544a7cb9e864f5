/** Recalibration of intervals on an organisation's observations (models/observations/recalibration.ts, model.ts, adjust.ts). */
import fc from 'fast-check';
import {
  adjustValuation, fitObservationModel, fitRecalibration, logHalfWidth, normalisedScore, recalibrationFor, groupKey,
  HOME_HIERARCHY, MIN_RECALIBRATION_N, MIN_WIDTH_RATIO, VEHICLE_HIERARCHY, withinDataLogHalfWidth, type ScoredObservation,
} from '../../models/observations';
import { random } from '../support/random';

describe('scores', () => {
  it('are the log error in units of the model\'s log half-width', () => {
    expect(logHalfWidth({ low: 100, high: 400 })).toBeCloseTo(Math.log(2), 12);
    expect(normalisedScore(200 * Math.E, 200, 0.5)).toBeCloseTo(2, 12);
    expect(normalisedScore(200 / Math.E, 200, 2)).toBeCloseTo(0.5, 12);
  });
});

describe('fitRecalibration', () => {
  const groups = ['T', 'a', 'x'];
  it('gives a group with enough weight the ceil((n + 1)·coverage)-th score, and none to a thin group', () => {
    // 29 scores 0.1 … 2.9 in a/x; 30 in district a with one more score 5; ceil(31 · 0.9) = 28 → 2.8.
    const items = Array.from({ length: 29 }, (_, i) => ({ groups, score: (i + 1) / 10, weight: 1 }));
    items.push({ groups: ['T', 'a', 'y'], score: 5, weight: 1 });
    const r = fitRecalibration(items, 0.9);
    expect(MIN_RECALIBRATION_N).toBe(30);
    expect(Object.keys(r.groups).sort()).toEqual(['T', groupKey(groups, 1)]);
    expect(r.groups[groupKey(groups, 1)]).toEqual({ key: groupKey(groups, 1), level: 1, observations: 30, effectiveN: 30, q: expect.closeTo(2.8, 12) });
    expect(recalibrationFor(r, groups)!.key).toBe(groupKey(groups, 1));
    expect(recalibrationFor(r, ['T', 'b', 'x'])!.key).toBe('T');
    expect(recalibrationFor(r, ['U', 'b', 'x'])).toBeNull();
  });

  it('never narrows an interval below half the model\'s: prices that agree exactly (a copied appraisal) keep a width', () => {
    const same = Array.from({ length: 40 }, () => ({ groups, score: 0, weight: 1 }));
    expect(MIN_WIDTH_RATIO).toBe(0.5);
    // The quantile is kept as it is; the floor is applied to the valuation (./adjust.ts).
    expect(fitRecalibration(same, 0.9).groups[groupKey(groups, 2)].q).toBe(0);
    const base = { estimate: 65000, low: 50000, high: 85000, coverage: 0.9 };
    const observations: ScoredObservation[] = Array.from({ length: 40 }, () => ({ kind: 'home', groups: ['Tashkent', 'Chilanzar', 'resale'], observedAt: '2026-11-01', priceUsd: 78000, priceType: 'appraisal', base }));
    const model = fitObservationModel(observations, { hierarchy: HOME_HIERARCHY, asOf: '2026-11-24' });
    const adjusted = adjustValuation(base, ['Tashkent', 'Chilanzar', 'resale'], model);
    expect(Math.log(adjusted.high / adjusted.low) / 2).toBeCloseTo(0.5 * logHalfWidth(base), 9);
    expect(adjusted.interval.widthRatio).toBeCloseTo(0.5, 9);
    // Past the model's data the floor is half its width within the data: the allowance for the
    // market's move since is what the organisation's prices measure (an interval 60% wider served).
    const widened = { ...base, widening: 0.6 };
    const within = withinDataLogHalfWidth(widened);
    expect(Math.sinh(logHalfWidth(widened)) / Math.sinh(within)).toBeCloseTo(1.6, 9);
    const past = adjustValuation(widened, ['Tashkent', 'Chilanzar', 'resale'], model);
    expect(Math.log(past.high / past.low) / 2).toBeCloseTo(0.5 * within, 9);
  });

  it('narrows a widened interval by the quantile of the scores when that is above the floor', () => {
    // Scores of 0.4 of the served half-width (the widened model's errors, once the factor is applied).
    const served = { estimate: 10000, low: 4000, high: 25000, coverage: 0.9, widening: 1.5 };
    const h = logHalfWidth(served);
    const observations: ScoredObservation[] = Array.from({ length: 60 }, (_, i) => ({ kind: 'vehicle', groups: ['all', 'Chevrolet', 'Spark'], observedAt: '2026-05-01', priceUsd: 6500 * Math.exp((i % 2 ? 1 : -1) * 0.4 * h * ((i % 10) / 9)), priceType: 'listing', base: served }));
    const model = fitObservationModel(observations, { hierarchy: VEHICLE_HIERARCHY, asOf: '2026-05-02' });
    const q = model.recalibration.groups['all › Chevrolet › Spark'].q;
    expect(q).toBeLessThan(0.5);
    expect(q * h).toBeGreaterThan(0.5 * withinDataLogHalfWidth(served));
    const adjusted = adjustValuation(served, ['all', 'Chevrolet', 'Spark'], model);
    expect(Math.log(adjusted.high / adjusted.low) / 2).toBeCloseTo(q * h, 9);
  });

  it('counts effective observations by Kish: 40 of weight ½ are 40; 20 of weight 1 among 40 of 0.01 are about 22, too few', () => {
    const halves = Array.from({ length: 40 }, (_, i) => ({ groups, score: i, weight: 0.5 }));
    expect(fitRecalibration(halves, 0.9).groups[groupKey(groups, 2)]).toEqual({ key: groupKey(groups, 2), level: 2, observations: 40, effectiveN: 40, q: fitRecalibration(halves.map((i) => ({ ...i, weight: 1 })), 0.9).groups[groupKey(groups, 2)].q });
    const mixed = [...Array.from({ length: 20 }, (_, i) => ({ groups, score: i, weight: 1 })), ...Array.from({ length: 40 }, (_, i) => ({ groups, score: i, weight: 0.01 }))];
    expect(fitRecalibration(mixed, 0.9).groups).toEqual({});
    expect(Object.keys(fitRecalibration(mixed, 0.9, 20).groups)).toHaveLength(3);
  });

  it('covers at least the nominal share of exchangeable scores, each left out in turn', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 31, maxLength: 200 }), fc.constantFrom(0.8, 0.9, 0.95), (scores, coverage) => {
      const covered = scores.filter((s, k) => {
        const others = scores.filter((_, j) => j !== k).map((score) => ({ groups: ['T'], score, weight: 1 }));
        return s <= fitRecalibration(others, coverage).groups['T'].q;
      }).length;
      expect(covered / scores.length).toBeGreaterThanOrEqual(coverage);
    }), { numRuns: 100 });
  });
});

/** Synthetic observations of one organisation: district effects, prices log-normal around them, a model interval too narrow. */
function synthetic(n: number, seed: number, effects: Record<string, number>, sd: number): ScoredObservation[] {
  const { uniform, normal } = random(seed);
  const districts = Object.keys(effects);
  return Array.from({ length: n }, () => {
    const district = districts[Math.floor(uniform() * districts.length)];
    const estimate = 50_000 + 100_000 * uniform();
    const price = estimate * Math.exp(effects[district] + sd * normal());
    // The model's own 90% interval claims ±10%: far too narrow for sd.
    return { kind: 'home', groups: ['Tashkent', district, 'resale'], observedAt: '2026-07-01', priceUsd: price, priceType: 'sale', base: { estimate, low: estimate / 1.1, high: estimate * 1.1, coverage: 0.9 } };
  });
}

describe('an observation model on exchangeable synthetic prices', () => {
  const effects = { a: 0.15, b: -0.1, c: 0 };

  it('moves the estimates by the district effects and covers about 90% of new prices', () => {
    let covered = 0;
    let total = 0;
    const factors: number[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const model = fitObservationModel(synthetic(300, seed, effects, 0.15), { hierarchy: HOME_HIERARCHY, asOf: '2026-07-01' });
      factors.push(Math.log(adjustValuation({ estimate: 100, low: 90, high: 110, coverage: 0.9 }, ['Tashkent', 'a', 'resale'], model).estimate / 100));
      for (const o of synthetic(500, 1000 + seed, effects, 0.15)) {
        const v = adjustValuation(o.base, o.groups, model);
        expect(v.interval.method).toBe('recalibrated');
        if (o.priceUsd >= v.low && o.priceUsd <= v.high) covered++;
        total++;
      }
    }
    expect(covered / total).toBeGreaterThan(0.88);
    expect(covered / total).toBeLessThan(0.93);
    const mean = factors.reduce((s, f) => s + f, 0) / factors.length;
    expect(mean).toBeGreaterThan(0.12);
    expect(mean).toBeLessThan(0.16);
  });

  it('keeps the model\'s interval, moved by the factor, below the minimum', () => {
    const model = fitObservationModel(synthetic(20, 7, effects, 0.15), { hierarchy: HOME_HIERARCHY, asOf: '2026-07-01' });
    const v = adjustValuation({ estimate: 100, low: 90, high: 110, coverage: 0.9 }, ['Tashkent', 'a', 'resale'], model);
    expect(v.interval).toEqual({ method: 'model', coverage: 0.9, group: null, level: null, observations: 0, effectiveN: 0, widthRatio: 1 });
    expect(v.low / v.estimate).toBeCloseTo(0.9, 12);
    expect(v.high / v.estimate).toBeCloseTo(1.1, 12);
  });
});
