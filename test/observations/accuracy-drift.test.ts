/** Live accuracy and the drift rule (models/observations/accuracy.ts, drift.ts). */
import fc from 'fast-check';
import { wilsonBounds } from '../../models/ensemble/metrics';
import {
  accuracyByGroup, driftOf, liveAccuracy, BIAS_BAND, COVERAGE_BAND, DRIFT_MIN_OBSERVATIONS, type LiveAccuracy, type ScoredValuation,
} from '../../models/observations';
import { random } from '../support/random';

const at = (observedAt: string, priceUsd: number, estimate: number, low: number, high: number, district = 'a'): ScoredValuation => ({ groups: ['T', district, 'resale'], observedAt, priceUsd, estimate, low, high });

describe('liveAccuracy', () => {
  // APE 0, 0.2, 0.25, 0.05; log residuals 0, ln 1.25, ln 0.8, ln(100/95); C and D 90 days old (weight ½); B not covered.
  const rows = [
    at('2026-07-01', 100, 100, 90, 110),
    at('2026-07-01', 100, 80, 70, 90, 'b'),
    at('2026-04-02', 100, 125, 100, 150),
    at('2026-04-02', 100, 95, 90, 100, 'b'),
  ];
  const r = [0, Math.log(1.25), Math.log(0.8), Math.log(100 / 95)];
  const w = [1, 1, 0.5, 0.5];

  it('measures APE, bias, the share within ±10% and coverage as hand-computed', () => {
    const a = liveAccuracy(rows, { asOf: '2026-07-01' });
    const mean = (0 + Math.log(1.25) + 0.5 * Math.log(0.8) + 0.5 * Math.log(100 / 95)) / 3; // 0.0457395
    const se = Math.sqrt((r.reduce((s, x, i) => s + (w[i] * (x - mean)) ** 2, 0) / 9) * (4 / 3)); // 0.0874719
    expect(a.n).toBe(4);
    expect(a.effectiveN).toBe(3);
    expect(a.medianApe).toBeCloseTo(0.125, 12);
    expect(a.within10).toBe(0.5);
    expect(a.bias.medianLogResidual).toBeCloseTo(Math.log(100 / 95) / 2, 12);
    expect(a.bias.weightedMeanLogResidual).toBeCloseTo(0.0457395, 6);
    expect(a.bias.ci95!.low).toBeCloseTo(mean - 1.96 * se, 12);
    expect(a.bias.ci95!.high).toBeCloseTo(0.217184, 6);
    expect(a.coverage).toEqual({ share: 0.75, covered: 3, bounds95: wilsonBounds(3, 4) });
  });

  it('keeps a window of observation dates, and splits by group', () => {
    expect(liveAccuracy(rows, { asOf: '2026-07-01', window: { from: '2026-05-01' } }).n).toBe(2);
    expect(liveAccuracy(rows, { asOf: '2026-07-01', window: { to: '2026-04-02T23:00:00Z' } }).n).toBe(2);
    const byDistrict = accuracyByGroup(rows, 1, { asOf: '2026-07-01' });
    expect(Object.keys(byDistrict).sort()).toEqual(['T › a', 'T › b']);
    expect(byDistrict['T › b'].coverage.share).toBe(0.5);
    expect(liveAccuracy(rows.slice(0, 1), { asOf: '2026-07-01' }).bias.ci95).toBeNull();
  });
});

/** A live accuracy with only the parts the rule reads. */
function summary(n: number, ci: [number, number], coverage: [number, number]): LiveAccuracy {
  return {
    n, effectiveN: n, medianApe: 0.1, within10: 0.5,
    bias: { medianLogResidual: (ci[0] + ci[1]) / 2, weightedMeanLogResidual: (ci[0] + ci[1]) / 2, ci95: { low: ci[0], high: ci[1] } },
    coverage: { share: (coverage[0] + coverage[1]) / 2, covered: 0, bounds95: { low: coverage[0], high: coverage[1] } },
  };
}

describe('the drift rule', () => {
  it('flags a bias whose 95% interval lies wholly outside ±3%, and coverage whose Wilson interval lies wholly outside 85–95%', () => {
    expect([BIAS_BAND, COVERAGE_BAND, DRIFT_MIN_OBSERVATIONS]).toEqual([0.03, { low: 0.85, high: 0.95 }, 30]);
    expect(driftOf(summary(100, [0.031, 0.08], [0.86, 0.94]))).toMatchObject({ judged: true, flagged: true, bias: 'valuations low', coverage: null });
    expect(driftOf(summary(100, [-0.09, -0.035], [0.7, 0.849]))).toMatchObject({ flagged: true, bias: 'valuations high', coverage: 'under' });
    expect(driftOf(summary(100, [0.02, 0.08], [0.951, 0.99]))).toMatchObject({ flagged: true, bias: null, coverage: 'over' });
    expect(driftOf(summary(100, [0.029, 0.2], [0.5, 0.86]))).toMatchObject({ flagged: false, bias: null, coverage: null, reasons: [] });
    expect(driftOf(summary(29, [0.5, 0.6], [0.1, 0.2]))).toMatchObject({ judged: false, flagged: false });
  });

  /** n valuations whose log residuals are N(bias, sd²) and whose intervals hold the price with probability `coverage`. */
  function drawn(seed: number, n: number, bias: number, sd: number, coverage: number): ScoredValuation[] {
    const { uniform, normal } = random(seed);
    return Array.from({ length: n }, () => {
      const r = bias + sd * normal();
      const estimate = 100 * Math.exp(-r);
      const inside = uniform() < coverage;
      return at('2026-07-01', 100, estimate, inside ? 50 : 101, inside ? 200 : 300);
    });
  }
  const seed = fc.integer({ min: 1, max: 2_000_000_000 });

  it('never flags a large sample drawn inside the bands at the nominal coverage', () => {
    fc.assert(fc.property(seed, fc.integer({ min: 1000, max: 3000 }), fc.double({ min: -0.01, max: 0.01, noNaN: true }), fc.double({ min: 0.05, max: 0.2, noNaN: true }), (s, n, bias, sd) => {
      expect(driftOf(liveAccuracy(drawn(s, n, bias, sd, 0.9), { asOf: '2026-07-01' })).flagged).toBe(false);
    }), { numRuns: 60, seed: 18 });
  });

  it('flags a large sample 8–15% off, or covered at 75%', () => {
    fc.assert(fc.property(seed, fc.integer({ min: 1000, max: 3000 }), fc.double({ min: 0.08, max: 0.15, noNaN: true }), fc.double({ min: 0.05, max: 0.2, noNaN: true }), (s, n, bias, sd) => {
      expect(driftOf(liveAccuracy(drawn(s, n, bias, sd, 0.9), { asOf: '2026-07-01' })).bias).toBe('valuations low');
      expect(driftOf(liveAccuracy(drawn(s, n, -bias, sd, 0.75), { asOf: '2026-07-01' }))).toMatchObject({ bias: 'valuations high', coverage: 'under' });
    }), { numRuns: 60, seed: 18 });
  });
});
