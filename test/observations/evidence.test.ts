/**
 * Issue 31, a synthetic market where the truth is known: the organisation's prices sit at 0.65 of
 * the model's (used cars after a fall of about a third). Evidence is counted by how many
 * observations agree, not discounted for their age when nothing newer exists.
 */
import { adjustValuation, fitObservationModel, VEHICLE_HIERARCHY, type ScoredObservation } from '../../models/observations';
import { random } from '../support/random';

const TRUE_LEVEL = 0.65;
const BASE = { estimate: 10_000, low: 6_000, high: 16_000, coverage: 0.9 };
const PATH = ['all', 'Chevrolet', 'Spark'];

/** `n` observed prices at TRUE_LEVEL of the model's estimate, log noise sd 0.15, dated `observedAt`. */
function market(n: number, seed: number, observedAt = '2025-11-15'): ScoredObservation[] {
  const draw = random(seed);
  return Array.from({ length: n }, () => ({
    kind: 'vehicle', groups: PATH, observedAt, priceType: 'listing', base: BASE,
    priceUsd: BASE.estimate * TRUE_LEVEL * Math.exp(0.15 * draw.normal()),
  }));
}

const factorAsOf = (observations: ScoredObservation[], asOf: string) =>
  adjustValuation(BASE, PATH, fitObservationModel(observations, { hierarchy: VEHICLE_HIERARCHY, asOf })).estimate / BASE.estimate;

describe('observations as evidence of a level (issue 31)', () => {
  it('200 that agree move the factor most of the way to the level, and a year later still do', () => {
    const observations = market(200, 7);
    const sameDay = factorAsOf(observations, '2025-11-15');
    const yearLater = factorAsOf(observations, '2026-11-15');
    // Most of the way: within a fifth of the distance from 1 to the true level.
    expect(Math.abs(sameDay - TRUE_LEVEL)).toBeLessThan(0.2 * (1 - TRUE_LEVEL));
    expect(yearLater).toBeCloseTo(sameDay, 9);
    const model = fitObservationModel(observations, { hierarchy: VEHICLE_HIERARCHY, asOf: '2026-11-15' });
    expect(model.adjustments.groups['all'].effectiveN).toBeCloseTo(200, 9);
  });

  it('a handful does not: three observations move a factor well short of the level (the root prior holds it back)', () => {
    const few = factorAsOf(market(3, 11), '2025-11-20');
    const many = factorAsOf(market(200, 7), '2025-11-20');
    expect(few).toBeGreaterThan(1 - (2 / 3) * (1 - TRUE_LEVEL));
    expect(few).toBeLessThan(1);
    expect(few - TRUE_LEVEL).toBeGreaterThan(3 * Math.abs(many - TRUE_LEVEL));
  });

  it('a newer price outweighs an older one in the mean, and the evidence is counted by Kish', () => {
    const old = market(100, 3, '2025-05-15').map((o) => ({ ...o, priceUsd: BASE.estimate * 0.9 }));
    const fresh = market(100, 5, '2025-11-15');
    const model = fitObservationModel([...old, ...fresh], { hierarchy: VEHICLE_HIERARCHY, asOf: '2025-11-15' });
    const top = model.adjustments.groups['all'];
    // The old prices weigh 0.5^(184/90) ≈ 0.24 each: the mean leans to the fresh level 0.65.
    expect(Math.exp(top.mean)).toBeLessThan(0.72);
    const w = 0.5 ** (184 / 90);
    expect(top.effectiveN).toBeCloseTo((100 + 100 * w) ** 2 / (100 + 100 * w * w), 6);
  });
});
