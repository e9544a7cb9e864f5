/** weightedMedianBySelection (models/ensemble/metrics.ts) gives weightedMedian's value without sorting. */
import fc from 'fast-check';
import { weightedMedian, weightedMedianBySelection } from '../../models/ensemble/metrics';

describe('weightedMedianBySelection', () => {
  it('equals the sorted definition on values with ties and weights that never sum to exactly half', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: -20, max: 20 }), fc.double({ min: 0.01, max: 3, noNaN: true })), { minLength: 1, maxLength: 300 }),
      (pairs) => {
        const values = pairs.map(([v]) => v / 4);
        const weights = pairs.map(([, w]) => w);
        expect(weightedMedianBySelection(values, weights)).toBe(weightedMedian(values, weights));
      },
    ), { numRuns: 500 });
  });

  it('takes the smallest value whose cumulative weight reaches half, and NaN of nothing', () => {
    expect(weightedMedianBySelection([3, 1, 2], [1, 1, 1])).toBe(2);
    expect(weightedMedianBySelection([1, 2, 3, 4], [1, 1, 1, 1])).toBe(2);
    expect(weightedMedianBySelection([5, 1, 9], [0.1, 0.1, 10])).toBe(9);
    expect(weightedMedianBySelection([], [])).toBeNaN();
  });
});
