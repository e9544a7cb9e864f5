/**
 * The market level an answer states (models/ensemble/model-set.ts statedMarketLevel) remembers each
 * date's age in days: remembered or not, across the memory's clearing and for two newest months
 * interleaved, the age is the one worked out from the dates.
 */
import { statedMarketLevel } from '../../models/ensemble/model-set';
import { daysPast, lastDayOfPeriod } from '../../models/ensemble/level-series';

test('the data age in days is the dates\' own, however often and in whatever order dates are asked', () => {
  const start = Date.UTC(2024, 0, 1);
  // 700 days (more than the memory holds), each asked twice, against two newest months in turn.
  const dates = Array.from({ length: 700 }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
  for (const round of [0, 1]) {
    for (const [i, date] of (round === 0 ? dates : [...dates].reverse()).entries()) {
      const newest = i % 2 === 0 ? '2024-06' : '2025-02';
      const stated = statedMarketLevel(date, newest, 3, 0.01);
      expect(stated.dataAgeDays).toBe(daysPast(lastDayOfPeriod(newest), date));
      expect(stated).toEqual({ valuationDate: date, newestDataPeriod: newest, dataAgeMonths: 3, dataAgeDays: stated.dataAgeDays, indexRatio: 1.01 });
    }
  }
  // A valuation date with a time of day counts by its day, as before.
  expect(statedMarketLevel('2024-07-10T23:59:00Z', '2024-06', 1, 0).dataAgeDays).toBe(10);
});
