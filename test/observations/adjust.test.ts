/** One valuation through an observation model (models/observations/adjust.ts), on a hand-made model. */
import { adjustValuation, HOME_HIERARCHY, type GroupFactor, type ObservationModel } from '../../models/observations';

const factor = (key: string, level: number, parent: string | null, value: number, shrinkageWeight: number): GroupFactor => ({
  key, level, parent, observations: 12, effectiveN: 10.5, mean: 0.02, variance: 0.004, shrinkageWeight, factor: value,
});

const MODEL: ObservationModel = {
  hierarchy: HOME_HIERARCHY,
  asOf: '2026-07-21',
  halfLifeDays: 90,
  observations: 40,
  adjustments: {
    depth: 3,
    sigma: 0.2,
    levels: [{ tau: 0.15, estimate: null, strata: 0 }, { tau: 0.1, estimate: 0.04, strata: 1 }, { tau: 0.1, estimate: null, strata: 0 }],
    groups: {
      'Tashkent': factor('Tashkent', 0, null, 0.1, 0.9),
      'Tashkent › chilanzar': factor('Tashkent › chilanzar', 1, 'Tashkent', 0.05, 0.4),
    },
  },
  recalibration: { coverage: 0.9, minEffectiveN: 30, groups: { 'Tashkent': { key: 'Tashkent', level: 0, observations: 40, effectiveN: 35, q: 1.5 } } },
};

const BASE = { estimate: 100_000, low: 80_000, high: 125_000, coverage: 0.9 };

describe('adjustValuation', () => {
  it('multiplies the estimate by the nearest observed group\'s factor and recalibrates the interval where the organisation has enough', () => {
    const v = adjustValuation(BASE, ['Tashkent', 'chilanzar', 'new'], MODEL);
    const estimate = 100_000 * Math.exp(0.05);
    expect(v.estimate).toBeCloseTo(estimate, 9);
    // Model half-width ln(125/80)/2 = ln(1.5625)/2; recalibrated ×1.5 → estimate · 1.5625^(±0.75).
    expect(v.low).toBeCloseTo(estimate * 1.5625 ** -0.75, 9);
    expect(v.high).toBeCloseTo(estimate * 1.5625 ** 0.75, 9);
    expect(v.coverage).toBe(0.9);
    expect(v.base).toBe(BASE);
    expect(v.adjustment).toEqual({
      factor: Math.exp(0.05), logFactor: 0.05, group: 'Tashkent › chilanzar', level: 'district', observations: 12, effectiveN: 10.5, shrinkageWeight: 0.4, groupMeanLogResidual: 0.02,
    });
    expect(v.interval).toEqual({ method: 'recalibrated', coverage: 0.9, group: 'Tashkent', level: 'city', observations: 40, effectiveN: 35, widthRatio: 1.5 });
  });

  it('takes the city\'s factor for a district without observations', () => {
    const v = adjustValuation(BASE, ['Tashkent', 'sergeli', 'resale'], MODEL);
    expect(v.estimate).toBeCloseTo(100_000 * Math.exp(0.1), 9);
    expect(v.adjustment).toMatchObject({ group: 'Tashkent', level: 'city', shrinkageWeight: 0.9 });
  });

  it('leaves a valuation outside every observed group as the model gave it', () => {
    const v = adjustValuation(BASE, ['Samarkand', 'x', 'new'], MODEL);
    expect(v).toEqual({ ...BASE, base: BASE, adjustment: null, interval: { method: 'model', coverage: 0.9, group: null, level: null, observations: 0, effectiveN: 0, widthRatio: 1 } });
  });
});
