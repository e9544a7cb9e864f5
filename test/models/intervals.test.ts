/** The interval method (models/intervals): the conformal quantile, groups and their fallback, pooling, the drift allowance, the generated description. */
import {
  allowanceRate, calibrateGroups, calibrateIntervals, combinedHalfWidth, conformalQuantile, conformityScore, describeIntervalMethod, groupHalfWidth,
  linearAllowance, pooledScale, randomWalkAllowance, requiredPerMonth, SCALE_POOLING_POWERS, withDriftAllowance, type IntervalMethod, type OutOfFoldResiduals,
} from '../../models/intervals';
import * as serving from '../../models/intervals/serving';
import { random } from '../support/random';

const METHOD: IntervalMethod<{ group: string }> = {
  coverage: 0.9,
  residuals: { rows: 'listings', heldOut: 'source', copies: 'core-fields-only copies', notCalibrating: { source: 'olx 2021', why: 'too old' } },
  groups: { of: (row) => row.group, name: 'segment', values: 'new or resale', within: 'district' },
  minGroupRows: 60,
  recencyHalfLifeMonths: 24,
  pooling: { candidates: SCALE_POOLING_POWERS, view: { minGroupRows: 40 } },
  drift: { rule: 'random walk', index: 'the market index' },
};

describe('the conformal quantile', () => {
  it('takes the ceil((n+1)·coverage)-th smallest score', () => {
    const scores = Array.from({ length: 19 }, (_, i) => i + 1); // 1..19
    expect(conformalQuantile(scores, 0.9)).toBe(18); // ceil(20 · 0.9) = 18
    expect(conformalQuantile([5], 0.9)).toBe(5);
  });

  it('covers at least the nominal share of an exchangeable point, and not one more rank than it must', () => {
    // Every point of n + 1 distinct scores left out in turn, the others calibrating: by exchangeability
    // the share covered is the coverage of a new point, exactly.
    for (const coverage of [0.8, 0.9, 0.95]) {
      for (const n of [19, 20, 37, 99, 150]) {
        const { uniform } = random(n);
        const all = Array.from({ length: n + 1 }, uniform);
        const covered = all.filter((point, k) => point <= conformalQuantile(all.filter((_, j) => j !== k), coverage)).length / (n + 1);
        const weighted = all.filter((point, k) => point <= conformalQuantile(all.filter((_, j) => j !== k), coverage, new Array(n).fill(1))).length / (n + 1);
        expect([coverage, n, covered >= coverage, covered < coverage + 1 / (n + 1)]).toEqual([coverage, n, true, true]);
        expect(weighted).toBe(covered); // equal weights are the plain quantile
      }
    }
  });

  it('with too few scores for the coverage takes the largest, short of the nominal share (why thin groups fall back)', () => {
    const { uniform } = random(3);
    const all = Array.from({ length: 10 }, uniform); // 9 calibrate each point: 95% would need 19
    const covered = all.filter((point, k) => point <= conformalQuantile(all.filter((_, j) => j !== k), 0.95)).length / 10;
    expect(covered).toBe(0.9);
  });

  it('covers about 90% of new draws from the same distribution', () => {
    const { normal } = random(1);
    const q = conformalQuantile(Array.from({ length: 2000 }, () => Math.abs(normal())), 0.9);
    const covered = Array.from({ length: 5000 }, () => Math.abs(normal()) <= q).filter(Boolean).length / 5000;
    expect(covered).toBeGreaterThan(0.88);
    expect(covered).toBeLessThan(0.92);
  });

  it('weights older listings less: a heavy recent point moves the quantile toward it', () => {
    const scores = Array.from({ length: 19 }, (_, i) => i + 1);
    // The large scores are recent (weight 1), the small ones old (weight 0.1): the quantile rises to the recent ones.
    const weights = scores.map((s) => (s > 15 ? 1 : 0.1));
    expect(conformalQuantile(scores, 0.5, weights)).toBeGreaterThan(conformalQuantile(scores, 0.5));
  });
});

describe('calibration groups', () => {
  /** `n` scores spread evenly over [0, top) in `group`. */
  const rows = (group: string, n: number, top: number) => Array.from({ length: n }, (_, i) => ({ group, score: (top * i) / n }));

  it('gives a group with enough rows its own quantile, and a thin one its parent\'s when the parent has enough', () => {
    const data = [...rows('new/chilanzar', 100, 1), ...rows('new/bektemir', 10, 0.1), ...rows('resale/mirabad', 10, 0.2)];
    const c = calibrateGroups(data.map((r) => r.score), data.map((r) => r.group), 0.9, 60);
    expect(c.district['new/chilanzar']).toMatchObject({ own: true, n: 100 });
    expect(c.district.new).toMatchObject({ own: true, n: 110 });
    // Thin, under a parent with enough rows: the parent's quantile (its own, lower one cannot prove itself).
    expect(c.district['new/bektemir']).toEqual({ q: c.district.new.q, n: 10, own: false });
    expect(groupHalfWidth(c, 'new/yunusabad', 0)).toBe(c.district.new.q); // not seen at all: the parent's
    // Thin under a thin parent: the overall quantile widened.
    expect(c.district.resale).toMatchObject({ own: false, n: 10 });
    expect(c.district['resale/mirabad'].q).toBeCloseTo(c.global * 1.3, 12);
    expect(groupHalfWidth(c, 'resale/yashnabad', 0)).toBeCloseTo(c.global * 1.3, 12);
    expect(groupHalfWidth(c, 'nowhere', 2)).toBeCloseTo(c.global * 1.3 * 1.25 ** 2, 12);
  });

  it('never narrows a thin group below its own quantile', () => {
    const data = [...rows('new/chilanzar', 100, 0.1), ...rows('new/bektemir', 10, 5)];
    const c = calibrateGroups(data.map((r) => r.score), data.map((r) => r.group), 0.9, 60);
    expect(c.district['new/bektemir'].q).toBeGreaterThan(c.district.new.q);
    expect(c.district['new/bektemir'].q).toBe(conformalQuantile(rows('', 10, 5).map((r) => r.score), 0.9));
  });

  it('moves the fallback line with minRows', () => {
    const data = rows('new/chilanzar', 50, 1);
    expect(calibrateGroups(data.map((r) => r.score), data.map((r) => r.group), 0.9, 60).district['new/chilanzar'].own).toBe(false);
    expect(calibrateGroups(data.map((r) => r.score), data.map((r) => r.group), 0.9, 40).district['new/chilanzar'].own).toBe(true);
  });
});

describe('pooling and the drift allowance', () => {
  it('pools σ(x) toward its median by the power, and leaves σ(x) of versions without pooling alone', () => {
    const pooling = { center: 0.1, power: 0.5 };
    expect(pooledScale(0.4, pooling)).toBeCloseTo(0.2, 12); // geometric mean of 0.4 and 0.1
    expect(pooledScale(0.4, { ...pooling, power: 1 })).toBeCloseTo(0.4, 12);
    expect(pooledScale(0.4, { ...pooling, power: 0 })).toBeCloseTo(0.1, 12);
    expect(pooledScale(0.4, undefined)).toBe(0.4);
  });

  it('adds the allowance in quadrature, and says how much wider that makes the interval', () => {
    expect(combinedHalfWidth(0.3, 0.4)).toBeCloseTo(0.5, 12);
    expect(combinedHalfWidth(0.3)).toBe(0.3);
    const { halfWidth, widening } = withDriftAllowance(0.3, 0.4);
    expect(halfWidth).toBeCloseTo(0.5, 12);
    expect(widening).toBe(Math.round((Math.sinh(0.5) / Math.sinh(0.3) - 1) * 1000) / 1000);
    expect(withDriftAllowance(0.3, 0)).toEqual({ halfWidth: 0.3, widening: 0 });
  });

  it('scores a calibration row net of its allowance, so the score decides coverage of hypot(q·σ, allowance)', () => {
    for (const [residual, scale, allowance, q] of [[0.3, 0.1, 0.2, 2.5], [0.3, 0.1, 0.2, 2.0], [0.1, 0.1, 0.2, 0.01], [0.25, 0.2, 0, 1.3]]) {
      expect(conformityScore(residual, scale, allowance) <= q).toBe(residual <= combinedHalfWidth(q * scale, allowance));
    }
    expect(conformityScore(0.3, 0.1)).toBeCloseTo(3, 12);
    expect(conformityScore(0.1, 0.1, 0.2)).toBe(0); // the allowance alone covers it
  });

  it('grows the random walk\'s allowance with √months and the linear one with months', () => {
    const walk = { allowanceZ: 1.6449, volatilityPerMonth: 0.01 };
    expect(randomWalkAllowance(walk, 4)).toBeCloseTo(2 * randomWalkAllowance(walk, 1), 12);
    expect(randomWalkAllowance(walk, 0)).toBe(0);
    const linear = { perMonth: 0.01, byLevel: { low: { perMonth: 0.03, rows: 300 } } };
    expect(linearAllowance(linear, 10)).toBeCloseTo(0.1, 12);
    expect(linearAllowance(linear, 10, 'low')).toBeCloseTo(0.3, 12);
    expect(linearAllowance(linear, 10, 'high')).toBeCloseTo(0.1, 12); // no rate of its own: the overall one
    expect(linearAllowance(linear, -3)).toBe(0);
  });

  it('measures the linear allowance that covers the stated share of forward residuals beyond the in-period half-width', () => {
    const residuals = Float64Array.from({ length: 100 }, (_, i) => (i + 1) / 100);
    const required = requiredPerMonth(residuals, new Float64Array(100).fill(0.3), 10);
    expect(required[10]).toBe(0); // within the in-period interval
    const rate = allowanceRate(required, 0.9);
    // Rows covered by hypot(0.3, rate·10): 90 of 100 at least, and not all.
    const covered = residuals.filter((r) => r <= combinedHalfWidth(0.3, linearAllowance({ perMonth: rate }, 10)) + 1e-12).length;
    expect(covered).toBeGreaterThanOrEqual(90);
    expect(covered).toBeLessThan(100);
  });
});

describe('one method, parameterised per kind', () => {
  /** Four sources of 150 rows in two groups, residuals |N(0, s)| with σ(x) = s, some rows past their fit's data. */
  function residuals(): OutOfFoldResiduals {
    const { uniform, normal } = random(7);
    const n = 600;
    const sigma = Float64Array.from({ length: n }, () => 0.05 + 0.2 * uniform());
    return {
      abs: sigma.map((s) => Math.abs(normal()) * s), sigma, center: 0.15, weight: new Float64Array(n).fill(1),
      group: Array.from({ length: n }, (_, i) => (i % 2 ? 'new/chilanzar' : 'resale/chilanzar')),
      source: Array.from({ length: n }, (_, i) => `s${Math.floor(i / 150)}`),
      calibrating: Array.from({ length: n }, (_, i) => i),
      monthsBeyond: Float64Array.from({ length: n }, (_, i) => (i >= 450 ? 4 : 0)),
      originals: n,
    };
  }
  const index = { allowanceZ: 1.6449, volatilityPerMonth: 0.02 };

  it('chooses the power leaving one source out, nets the random walk\'s allowance, and describes what it did', () => {
    const oof = residuals();
    const run = calibrateIntervals(METHOD, oof, { scaleColumn: 'interval-scale', index });
    expect(run.selection!.candidates.map((c) => c.power)).toEqual([0, 0.5, 1]);
    const best = Math.min(...run.selection!.candidates.map((c) => c.meanAbsDeviation));
    expect(run.selection!.candidates.find((c) => c.power === run.selection!.chosen)!.meanAbsDeviation).toBe(best);
    expect(run.allowance![0]).toBe(0);
    expect(run.allowance![500]).toBeCloseTo(1.6449 * 0.02 * 2, 12);
    expect(run.manifest).toMatchObject({
      coverage: 0.9, minRows: 60, method: describeIntervalMethod(METHOD, run.selection!.chosen), selection: run.selection,
      scale: { column: 'interval-scale', floor: 0.005, pooling: { power: run.selection!.chosen, center: 0.15 } },
    });
    // The netted scores: a row past the data is scored as conformityScore with its allowance.
    const plain = calibrateIntervals({ ...METHOD, pooling: { power: run.selection!.chosen, why: 'x' }, drift: { rule: 'linear', measuredOn: 'x' } }, oof, { scaleColumn: 'interval-scale' });
    expect(plain.allowance).toBeNull();
    expect(run.calibration.global).toBeLessThanOrEqual(plain.calibration.global);
  });

  it('keeps a fixed power, and needs the index for a random-walk allowance', () => {
    const oof = residuals();
    const fixed = calibrateIntervals({ ...METHOD, pooling: { power: 0.5, why: 'set before any result' } }, oof, { scaleColumn: 'interval-scale', index });
    expect(fixed.selection).toBeNull();
    expect(fixed.manifest.selection).toBeUndefined();
    expect(fixed.pooling).toEqual({ power: 0.5, center: 0.15 });
    expect(Array.from(fixed.scale(Float64Array.of(0.6)))).toEqual([pooledScale(0.6, { power: 0.5, center: 0.15 })]);
    expect(() => calibrateIntervals(METHOD, oof, { scaleColumn: 'interval-scale' })).toThrow(/needs the fit's index/);
  });

  it('covers the nominal share of new rows from the same distribution with the served arithmetic', () => {
    const oof = residuals();
    // No allowance netted (a linear drift is measured after): the calibration rows and the new ones are exchangeable.
    const run = calibrateIntervals({ ...METHOD, pooling: { power: 1, why: 'σ(x) is the true scale here' }, drift: { rule: 'linear', measuredOn: 'x' } }, oof, { scaleColumn: 'interval-scale' });
    const { uniform, normal } = random(99);
    let covered = 0;
    for (let i = 0; i < 4000; i++) {
      const s = 0.05 + 0.2 * uniform();
      const group = i % 2 ? 'new/chilanzar' : 'resale/chilanzar';
      covered += Number(Math.abs(normal()) * s <= serving.calibratedHalfWidth(run.manifest, group, 0, s));
    }
    expect(covered / 4000).toBeGreaterThan(0.88);
  });

  it('generates the description from the parameters: each one named, and a changed one changes it', () => {
    const text = describeIntervalMethod(METHOD, 0.5);
    for (const part of [
      'leave-one-source-out residuals', 'olx 2021 fitted on but not calibrating, too old', 'of the listings as listed and of their core-fields-only copies',
      'with power 0.5 (chosen among 0, 0.5 and 1 leaving one source out)', 'half-life 24 months', 'per segment (new or resale) and per segment and district',
      'at least 60 calibration rows', "its segment's quantile", '×1.3', 'z·(volatility of the market index)·√months',
    ]) expect(text).toContain(part);
    const vehicle = describeIntervalMethod({
      ...METHOD, residuals: { rows: 'listings', heldOut: 5, copies: null }, groups: { of: () => '', name: 'make/model group' },
      minGroupRows: 30, recencyHalfLifeMonths: 12, pooling: { power: 0.5, why: 'fixed before any result' }, drift: { rule: 'linear', measuredOn: 'any forward split' },
    }, 0.5);
    for (const part of ['out-of-fold residuals (5 random folds)', 'half-life 12 months', 'power 0.5 (set in advance: fixed before any result)', 'per make/model group with at least 30', 'the overall quantile ×1.3', 'linear in the months', 'any forward split needed']) {
      expect(vehicle).toContain(part);
    }
    expect(vehicle).not.toContain('source');
    expect(vehicle).not.toContain('√months');
  });
});

describe('the serving half', () => {
  it('carries no training code: calibration, pooling and the allowance only', () => {
    expect(Object.keys(serving).sort()).toEqual([
      'MIN_GROUP_ROWS', 'OUT_OF_DISTRIBUTION_FACTOR', 'THIN_GROUP_FACTOR', 'calibratedHalfWidth', 'combinedHalfWidth', 'groupHalfWidth',
      'intervalWidening', 'linearAllowance', 'pooledScale', 'randomWalkAllowance', 'withDriftAllowance',
    ]);
  });
});
