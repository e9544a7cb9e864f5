/**
 * A flat without its market is valued as a mixture of its new-build and resale valuations
 * (models/residential/market-mixture.ts): the logistic trainer behind the probability, the
 * mixture's quantiles, and the shipped model valuing such a flat through the serving runtime.
 */
import { LogisticRegression, matrix } from '../../models/trainers';
import { logisticProbability } from '../../models/ensemble/logistic';
import { mixtureInterval, newBuildProbability } from '../../models/residential/market-mixture';
import { normalCdf } from '../../models/ensemble/normal';
import type { ApartmentRequest } from '../../models/residential/request';
import { random } from '../support/random';
import { CHILANZAR_FLAT, useServedFlatModel } from '../support/flats';

describe('LogisticRegression', () => {
  it('recovers the coefficients that generated the labels, and reads a missing input as the training mean', () => {
    const { uniform: u, normal } = random(1);
    const n = 20_000;
    const X = new Float64Array(n * 2);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const a = normal() * 2 + 1;
      const b = u() < 0.5 ? 1 : 0;
      X[i * 2] = a;
      X[i * 2 + 1] = b;
      y[i] = u() < 1 / (1 + Math.exp(-(-0.5 + 0.8 * a - 1.5 * b))) ? 1 : 0;
    }
    const state = new LogisticRegression({ alpha: 1e-6 }).fit(matrix(X, n, 2), y).fitted_!;
    expect(state.intercept).toBeCloseTo(-0.5, 1);
    expect(state.coef[0]).toBeCloseTo(0.8, 1);
    expect(state.coef[1]).toBeCloseTo(-1.5, 1);
    const missing = logisticProbability(state, [NaN, 0]);
    expect(missing).toBeCloseTo(logisticProbability(state, [state.mean[0], 0]), 12);
  });

  it('shrinks towards the base rate as the penalty grows', () => {
    const X = Float64Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    const y = Float64Array.from([0, 0, 0, 1, 0, 1, 1, 1]);
    const loose = new LogisticRegression({ alpha: 1e-3 }).fit(matrix(X, 8, 1), y).fitted_!;
    const tight = new LogisticRegression({ alpha: 1e3 }).fit(matrix(X, 8, 1), y).fitted_!;
    expect(Math.abs(tight.coef[0])).toBeLessThan(Math.abs(loose.coef[0]) / 10);
    expect(logisticProbability(tight, [7])).toBeCloseTo(0.5, 1);
  });

  it('refuses labels other than 0 and 1', () => {
    expect(() => new LogisticRegression().fit(matrix(Float64Array.from([1, 2]), 2, 1), Float64Array.from([0, 2]))).toThrow(/0 or 1/);
  });
});

describe('mixtureInterval', () => {
  it('is the component itself for one component or two equal ones', () => {
    const one = mixtureInterval([{ weight: 1, center: 11, halfWidth: 0.3 }], 0.9);
    expect(one.center).toBeCloseTo(11, 7);
    expect(one.low).toBeCloseTo(10.7, 7);
    expect(one.high).toBeCloseTo(11.3, 7);
    const two = mixtureInterval([{ weight: 0.3, center: 11, halfWidth: 0.3 }, { weight: 0.7, center: 11, halfWidth: 0.3 }], 0.9);
    expect(two.low).toBeCloseTo(10.7, 7);
    expect(two.high).toBeCloseTo(11.3, 7);
    // weight 0: the other component alone
    const only = mixtureInterval([{ weight: 0, center: 20, halfWidth: 5 }, { weight: 1, center: 11, halfWidth: 0.3 }], 0.9);
    expect(only.high).toBeCloseTo(11.3, 7);
  });

  it('covers the stated share of draws from the mixture, and lies between the components for a split weight', () => {
    const components = [{ weight: 0.35, center: 11.4, halfWidth: 0.45 }, { weight: 0.65, center: 11.1, halfWidth: 0.25 }];
    const m = mixtureInterval(components, 0.9);
    expect(m.center).toBeGreaterThan(11.1);
    expect(m.center).toBeLessThan(11.4);
    // Wider than the likelier component alone, and reaching up toward the other.
    expect(m.high - m.low).toBeGreaterThan(0.5);
    expect(m.high).toBeGreaterThan(11.1 + 0.25);
    const { uniform: u, normal } = random(7);
    const z = 1.6448536269514722;
    let inside = 0;
    const draws = 200_000;
    for (let i = 0; i < draws; i++) {
      const c = u() < 0.35 ? components[0] : components[1];
      const x = c.center + (normal() * c.halfWidth) / z;
      if (x >= m.low && x <= m.high) inside++;
    }
    expect(inside / draws).toBeCloseTo(0.9, 2);
  });

  it('normalCdf matches known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.6448536269514722)).toBeCloseTo(0.95, 6);
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 6);
  });
});

describe('the shipped flat model values a flat without its market as a mixture', () => {
  const served = useServedFlatModel();
  const flat: ApartmentRequest = { ...CHILANZAR_FLAT, area: 65, floor: 4, renovation: null, buildingType: null, market: null, valuationDate: '2026-11-24' };

  it('answers with both valuations and their probability; the estimate and interval are the mixture of them', async () => {
    const model = served();
    const manifest = model.manifest;
    expect(manifest.marketMixture).toBeDefined();
    const [mixed, asNew, asResale] = await model.value([flat, { ...flat, market: 'new' }, { ...flat, market: 'resale' }]);
    expect(asNew.marketMixture).toBeNull();
    expect(asResale.marketMixture).toBeNull();
    const mixture = mixed.marketMixture!;
    expect(mixture.newBuildProbability).toBeCloseTo(newBuildProbability(manifest.marketMixture!, flat), 3);
    expect(mixture.newBuildProbability).toBeGreaterThan(0);
    expect(mixture.newBuildProbability).toBeLessThan(1);
    // Each component is the valuation the flat gets when its market is sent.
    expect(mixture.newBuild).toEqual({ estimate: asNew.estimate, low: asNew.interval.low, high: asNew.interval.high });
    expect(mixture.resale).toEqual({ estimate: asResale.estimate, low: asResale.interval.low, high: asResale.interval.high });
    const lo = Math.min(asNew.estimate, asResale.estimate);
    const hi = Math.max(asNew.estimate, asResale.estimate);
    expect(mixed.estimate).toBeGreaterThanOrEqual(lo - 100);
    expect(mixed.estimate).toBeLessThanOrEqual(hi + 100);
    expect(mixed.interval.low).toBeGreaterThanOrEqual(Math.min(asNew.interval.low, asResale.interval.low) - 100);
    expect(mixed.interval.high).toBeLessThanOrEqual(Math.max(asNew.interval.high, asResale.interval.high) + 100);
    expect(mixed.interval.low).toBeLessThan(mixed.estimate);
    expect(mixed.interval.high).toBeGreaterThan(mixed.estimate);
  });

  it('leans to new build for a tall monolith in white box and to resale for a low brick flat with average finish', async () => {
    const [tall, low] = await served().value([
      { ...flat, floor: 12, totalFloors: 16, renovation: 'pre_finish', buildingType: 'monolith' },
      { ...flat, floor: 2, totalFloors: 4, renovation: 'average', buildingType: 'brick' },
    ]);
    expect(tall.marketMixture!.newBuildProbability).toBeGreaterThan(0.8);
    expect(low.marketMixture!.newBuildProbability).toBeLessThan(0.2);
    // A near-certain market takes that market's valuation.
    expect(Math.abs(tall.estimate - tall.marketMixture!.newBuild.estimate)).toBeLessThanOrEqual(0.02 * tall.estimate);
    expect(Math.abs(low.estimate - low.marketMixture!.resale.estimate)).toBeLessThanOrEqual(0.02 * low.estimate);
  });
});
