/** The month index every kind's market index and features read listing periods by. */
import { periodIndex } from '../../models/ensemble/encoding';

describe('periodIndex', () => {
  test.each([
    ['2020-01', 0],
    ['2019-12', -1],
    ['2026-07', 78],
    ['2026-07-15', 78], // a whole date reads as its month
    ['2024-3', 50],
  ])('%s is month %d', (period, month) => expect(periodIndex(period)).toBe(month));

  test('a period without a month is not a number', () => {
    expect(periodIndex('2026')).toBeNaN();
    expect(periodIndex('')).toBeNaN();
  });
});
