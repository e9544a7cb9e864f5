/** The empirical-Bayes factors (models/observations/shrinkage.ts, robust.ts): hand-computed values and properties. */
import fc from 'fast-check';
import {
  derSimonianLaird, factorFor, fitRobustShrinkage, fitShrinkage, groupKey, shrinkageWeight,
  BETWEEN_GROUP_SD_FLOOR, DEFAULT_SIGMA, ROOT_PRIOR_SD, type ShrinkageItem,
} from '../../models/observations';

const RUNS = { numRuns: 300 };
const item = (groups: string[], value: number, weight = 1): ShrinkageItem => ({ groups, value, weight });

describe('the shrinkage weight', () => {
  it('is τ² / (τ² + V)', () => {
    expect(shrinkageWeight(0.01, 0.01)).toBe(0.5);
    expect(shrinkageWeight(0.03, 0.01)).toBeCloseTo(0.75, 12);
    expect(shrinkageWeight(0, 0.5)).toBe(0);
    expect(shrinkageWeight(0, 0)).toBe(1);
    expect(() => shrinkageWeight(-1, 1)).toThrow();
  });

  it('lies in [0, 1] and never falls as a group gains observations', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 1e-4, max: 1, noNaN: true }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (tau2, sigma2, a, b) => {
      const [small, large] = a <= b ? [a, b] : [b, a];
      const bSmall = shrinkageWeight(tau2, sigma2 / small);
      const bLarge = shrinkageWeight(tau2, sigma2 / large);
      expect(bSmall).toBeGreaterThanOrEqual(0);
      expect(bLarge).toBeLessThanOrEqual(1);
      expect(bLarge).toBeGreaterThanOrEqual(bSmall);
    }), RUNS);
  });
});

describe('DerSimonian–Laird', () => {
  it('gives (Q − df) / C over the strata', () => {
    // Two groups, variances 1: W = 1, 1; centre 1; Q = 1 + 1; df = 1; C = 2 − 2/2 = 1.
    expect(derSimonianLaird([[{ mean: 0, variance: 1 }, { mean: 2, variance: 1 }]])).toEqual({ tau2: 1, q: 2, df: 1, strata: 1 });
    // A second stratum adds to Q, df and C; a stratum of one group adds nothing.
    const two = derSimonianLaird([[{ mean: 0, variance: 1 }, { mean: 2, variance: 1 }], [{ mean: 5, variance: 1 }, { mean: 5, variance: 1 }], [{ mean: 9, variance: 1 }]]);
    expect(two).toEqual({ tau2: 0, q: 2, df: 2, strata: 2 });
  });

  it('is null without a stratum of two, and 0 when the means agree better than chance', () => {
    expect(derSimonianLaird([[{ mean: 1, variance: 1 }]]).tau2).toBeNull();
    expect(derSimonianLaird([[{ mean: 0, variance: 1 }, { mean: 0.1, variance: 1 }]]).tau2).toBe(0);
  });
});

describe('fitShrinkage', () => {
  // Two districts with one segment each: a/x holds 0.1 and 0.3, b/y −0.1 and −0.3.
  // With the floor at 0.02: σ² = (4 · 0.01) / 4 · 4/(4 − 2) = 0.02; lowest V = 0.02 / 2 = 0.01; segments: no stratum of two, τ² = floor² = 0.0004.
  // Districts: V = 0.0004 + 0.01 = 0.0104; DL: W = 1/0.0104 each, Q = 0.08/0.0104, df = 1, C = 1/0.0104 → τ² = 0.08 − 0.0104 = 0.0696.
  // City: V = (½)²(0.08) · 2 = 0.04, prior 0.15² = 0.0225, mean 0 → factor 0.
  // District a: B = 0.0696/0.08 = 0.87, factor 0.87 · 0.2 = 0.174. Segment a/x: B = 0.0004/0.0104 = 1/26, factor (0.2 + 25 · 0.174)/26 = 0.175.
  const items = [item(['T', 'a', 'x'], 0.1), item(['T', 'a', 'x'], 0.3), item(['T', 'b', 'y'], -0.1), item(['T', 'b', 'y'], -0.3)];
  const table = fitShrinkage(items, { betweenGroupSdFloor: 0.02 });

  it('matches the hand computation', () => {
    expect(ROOT_PRIOR_SD).toBe(0.15);
    expect(BETWEEN_GROUP_SD_FLOOR).toBe(0.1);
    expect(table.sigma).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(table.levels.map((l) => l.tau)).toEqual([0.15, expect.closeTo(Math.sqrt(0.0696), 12), 0.02]);
    expect(table.levels[2].estimate).toBeNull();
    const city = table.groups['T'];
    expect([city.mean, city.variance, city.shrinkageWeight, city.factor]).toEqual([expect.closeTo(0, 12), expect.closeTo(0.04, 12), expect.closeTo(0.0225 / 0.0625, 12), expect.closeTo(0, 12)]);
    const a = table.groups[groupKey(['T', 'a'], 1)];
    expect([a.mean, a.variance, a.shrinkageWeight, a.factor]).toEqual([expect.closeTo(0.2, 12), expect.closeTo(0.0104, 12), expect.closeTo(0.87, 12), expect.closeTo(0.174, 12)]);
    const ax = table.groups[groupKey(['T', 'a', 'x'], 2)];
    expect([ax.observations, ax.effectiveN, ax.shrinkageWeight, ax.factor]).toEqual([2, 2, expect.closeTo(1 / 26, 12), expect.closeTo(0.175, 12)]);
    expect(table.groups[groupKey(['T', 'b', 'y'], 2)].factor).toBeCloseTo(-0.175, 12);
  });

  it('floors each level\'s between-group sd at BETWEEN_GROUP_SD_FLOOR', () => {
    // The default floor 0.1 binds at the segments: B = 0.01 / (0.01 + 0.01) = ½.
    const floored = fitShrinkage(items);
    expect(floored.levels[2].tau).toBe(0.1);
    expect(floored.groups[groupKey(['T', 'a', 'x'], 2)].shrinkageWeight).toBeCloseTo(0.5, 12);
  });

  it('counts evidence by Kish\'s effective count: weights rank observations, their scale does not thin them (issue 31)', () => {
    // Two of weight ½ are two observations' worth; with one of weight 1 beside them, (2)² / 1.5 = 8/3.
    const halves = fitShrinkage([item(['T', 'a'], 0.1, 0.5), item(['T', 'a'], 0.3, 0.5), item(['T', 'b'], 0, 1)]);
    expect(halves.groups[groupKey(['T', 'a'], 1)].effectiveN).toBeCloseTo(2, 12);
    expect(halves.groups['T'].effectiveN).toBeCloseTo(8 / 3, 12);
    // Every weight scaled alike (a valuation dated a year later): the same factors, variances and counts.
    const scaled = fitShrinkage(items.map((i) => ({ ...i, weight: i.weight * 0.06 })));
    const plain = fitShrinkage(items);
    for (const key of Object.keys(plain.groups)) {
      expect(scaled.groups[key].factor).toBeCloseTo(plain.groups[key].factor, 12);
      expect(scaled.groups[key].effectiveN).toBeCloseTo(plain.groups[key].effectiveN, 12);
    }
  });

  it('takes DEFAULT_SIGMA from a single observation, and an unseen group its nearest ancestor\'s factor', () => {
    const one = fitShrinkage([item(['T', 'a', 'x'], 0.3)]);
    expect(one.sigma).toBe(DEFAULT_SIGMA);
    expect(factorFor(one, ['T', 'a', 'z'])!.key).toBe(groupKey(['T', 'a'], 1));
    expect(factorFor(one, ['T', 'q', 'z'])!.key).toBe('T');
    expect(factorFor(one, ['U', 'q', 'z'])).toBeNull();
    expect(factorFor(fitShrinkage([]), ['T'])).toBeNull();
  });

  it('refuses paths of different depths', () => {
    expect(() => fitShrinkage([item(['T', 'a'], 0), item(['T'], 0)])).toThrow(/same/);
  });

  const paths = fc.array(fc.record({
    district: fc.constantFrom('a', 'b', 'c', 'd'),
    segment: fc.constantFrom('new', 'resale', 'unknown'),
    value: fc.double({ min: -1, max: 1, noNaN: true }),
    weight: fc.double({ min: 0.05, max: 1, noNaN: true }),
  }), { minLength: 1, maxLength: 80 }).map((rows) => rows.map((r) => item(['T', r.district, r.segment], r.value, r.weight)));

  it('puts every factor between its group\'s own mean and its parent\'s factor (the top group\'s between its mean and 0)', () => {
    fc.assert(fc.property(paths, (rows) => {
      const fitted = fitShrinkage(rows);
      for (const group of Object.values(fitted.groups)) {
        const towards = group.parent === null ? 0 : fitted.groups[group.parent].factor;
        expect(group.shrinkageWeight).toBeGreaterThanOrEqual(0);
        expect(group.shrinkageWeight).toBeLessThanOrEqual(1);
        expect(group.factor).toBeGreaterThanOrEqual(Math.min(group.mean, towards) - 1e-12);
        expect(group.factor).toBeLessThanOrEqual(Math.max(group.mean, towards) + 1e-12);
      }
    }), RUNS);
  });

  it('shrinks a group less the more observations back it (the same values repeated)', () => {
    fc.assert(fc.property(paths, fc.integer({ min: 2, max: 5 }), (rows, times) => {
      const once = fitShrinkage(rows);
      const repeated = fitShrinkage(rows.flatMap((r) => Array.from({ length: times }, () => r)));
      for (const key of Object.keys(once.groups)) {
        // σ² and τ² are re-estimated on the repeated data, so compare with the same variances: V scales by 1/times.
        const g = once.groups[key];
        const tau2 = once.levels[g.level].tau ** 2;
        expect(shrinkageWeight(tau2, g.variance / times)).toBeGreaterThanOrEqual(g.shrinkageWeight - 1e-12);
      }
      expect(Object.keys(repeated.groups)).toEqual(Object.keys(once.groups));
    }), RUNS);
  });
});

describe('fitRobustShrinkage', () => {
  it('is the plain fit with k = ∞, and keeps a group near its median when one price is far out', () => {
    const rows = [0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 2.0].map((v) => item(['T'], v));
    expect(fitRobustShrinkage(rows, { huberK: Infinity })).toEqual(fitShrinkage(rows));
    const plain = fitShrinkage(rows).groups['T'].mean;
    const robust = fitRobustShrinkage(rows).groups['T'].mean;
    expect(plain).toBeCloseTo(0.281, 3);
    expect(robust).toBeGreaterThan(0.08);
    expect(robust).toBeLessThan(0.12);
  });
});
