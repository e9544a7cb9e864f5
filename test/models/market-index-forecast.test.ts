/**
 * The market index's check of its own rule past the newest data (MarketIndex.forecastCheck): from
 * every earlier month, the level carried forward by the drift (and without it) against the later
 * months. On a market that rises at a steady rate the drift forecasts it and no drift falls behind;
 * on a market that rose and then stopped, the drift overshoots.
 */
import { fitMarketIndex, type IndexRow } from '../../models/residential/market-index';
import { DISTRICT_IDS } from '../../models/vocabulary/codes';

/** 60 flats a month in each of `periods`, priced at `level(period)` (log, per m²) plus a fixed pattern of flat differences. */
function index(periods: string[], level: (period: string, k: number) => number) {
  const rows: IndexRow[] = [];
  const y: number[] = [];
  periods.forEach((period, k) => {
    for (let i = 0; i < 60; i++) {
      rows.push({ district: DISTRICT_IDS[i % 12], area: 40 + (i % 50), floor: 1 + (i % 9), totalFloors: 9, market: null, period });
      y.push(7 + level(period, k) + 0.01 * (i % 7) + 0.002 * (i % 50));
    }
  });
  return fitMarketIndex(rows, Float64Array.from(y));
}

const PERIODS = ['2021-01', '2022-01', '2023-01', '2024-01', '2025-01', '2026-01'];

describe('MarketIndex.forecastCheck', () => {
  it('counts every (origin, later month) pair from the second month on, by horizon', () => {
    const check = index(PERIODS, (_p, k) => 0.1 * k).forecastCheck!;
    // 6 months: origins 2..5 forecast 4 + 3 + 2 + 1 = 10 later months; every gap is a multiple of 12.
    expect(check.byHorizon.reduce((s, h) => s + h.pairs, 0)).toBe(10);
    expect(check.byHorizon.map((h) => h.months)).toEqual(['7–18', '19+']);
  });

  it('a steady rise: the drift forecasts it, no drift falls behind by the rise', () => {
    const check = index(PERIODS, (_p, k) => 0.1 * k).forecastCheck!; // +0.1 a year
    const year = check.byHorizon.find((h) => h.months === '7–18')!;
    expect(Math.abs(year.medianError)).toBeLessThan(0.02);
    expect(year.medianErrorWithoutDrift).toBeCloseTo(-0.1, 1);
  });

  it('a rise that stopped: the drift overshoots, no drift is right', () => {
    const check = index(PERIODS, (_p, k) => 0.3 * Math.min(k, 2)).forecastCheck!; // +0.3 a year for two years, then flat
    const year = check.byHorizon.find((h) => h.months === '7–18')!;
    expect(year.medianError).toBeGreaterThan(0.1);
    expect(Math.abs(year.medianErrorWithoutDrift)).toBeLessThan(0.03);
  });
});
