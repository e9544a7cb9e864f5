/** Recency weights (models/observations/weights.ts). */
import fc from 'fast-check';
import { ageInDays, recencyWeight, recencyWeights, HALF_LIFE_DAYS } from '../../models/observations';

describe('recency weights', () => {
  it('count an observation half for every half-life of age', () => {
    expect(HALF_LIFE_DAYS).toBe(90);
    expect(recencyWeight(0)).toBe(1);
    expect(recencyWeight(90)).toBe(0.5);
    expect(recencyWeight(180)).toBe(0.25);
    expect(recencyWeight(30, 30)).toBe(0.5);
    expect(recencyWeight(1e9, Infinity)).toBe(1);
    expect(() => recencyWeight(1, 0)).toThrow();
  });

  it('measure ages in days between ISO dates, never negative', () => {
    expect(ageInDays('2026-01-01', '2026-04-01')).toBe(90);
    expect(ageInDays('2026-07-21T12:00:00Z', '2026-07-22')).toBe(0.5);
    expect(ageInDays('2026-08-01', '2026-07-01')).toBe(0);
    expect(() => ageInDays('yesterday', '2026-07-01')).toThrow(/not a date/);
    expect(Array.from(recencyWeights([{ observedAt: '2026-04-01' }, { observedAt: '2026-01-01' }], '2026-04-01'))).toEqual([1, 0.5]);
  });

  it('halve over one more half-life, whatever the age and the half-life', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 3650, noNaN: true }), fc.double({ min: 1, max: 1000, noNaN: true }), (age, halfLife) => {
      expect(recencyWeight(age + halfLife, halfLife)).toBeCloseTo(recencyWeight(age, halfLife) / 2, 12);
      expect(recencyWeight(age, halfLife)).toBeLessThanOrEqual(1);
    }), { numRuns: 300 });
  });
});
