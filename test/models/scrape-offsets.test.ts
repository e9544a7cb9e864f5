/**
 * Each scrape's own offset around the market level (models/residential/scrape-offsets.ts): a local
 * linear trend read through points that each carry their scrape's offset. On a straight market with
 * one scrape set apart, the smoother finds that scrape's offset and not the others'; the newest
 * reading discounts a newest scrape that jumped alone; and serving holds the reading only where it
 * beat the newest point on the series' own rolling origin.
 */
import { fitScrapeOffsets } from '../../models/residential/scrape-offsets';
import { logLevelAt, withScrapeVariance, type MarketIndex } from '../../models/residential/market-index';
import type { LevelPoint } from '../../models/ensemble/level-series';

const MONTHS = ['2022-01', '2022-07', '2023-01', '2023-07', '2024-01', '2024-07', '2025-01', '2025-07', '2026-01', '2026-07'];
/** A market rising `perHalfYear` (log; 1% a month by default), relative to the newest point, with `offsets` added to chosen points. */
function series(offsets: Record<string, number>, perHalfYear = 0.06): LevelPoint[] {
  const raw = MONTHS.map((period, k) => ({ period, logLevel: perHalfYear * k + (offsets[period] ?? 0), se: 0.01 }));
  const newest = raw[raw.length - 1].logLevel;
  return raw.map((p, i) => ({ ...p, logLevel: p.logLevel - newest, se: i === raw.length - 1 ? 0 : p.se }));
}
const SOURCES = [{ source: 'a', offset: 0.05 }, { source: 'b', offset: -0.05 }]; // scrape variance 0.0025

describe('scrape offsets', () => {
  it('find the one scrape set apart on a straight market, and leave the others near 0', () => {
    const fit = fitScrapeOffsets(series({ '2024-01': 0.12 }), 0.01, SOURCES);
    const byPeriod = Object.fromEntries(fit.points.map((p) => [p.period, p.offset]));
    expect(byPeriod['2024-01']).toBeGreaterThan(0.07);
    for (const month of MONTHS.filter((m) => m !== '2024-01')) expect(Math.abs(byPeriod[month])).toBeLessThan(0.04);
    expect(fit.scrapeVariance).toBeCloseTo(0.0025, 4);
    expect(fit.sources).toEqual(SOURCES);
  });

  it('read the newest level below a newest scrape that jumped alone, with a band that holds the market', () => {
    const fit = fitScrapeOffsets(series({ '2026-07': 0.1 }), 0.01, SOURCES);
    // The market itself is 0.1 below the newest point there.
    expect(fit.newestReading.logLevel).toBeLessThan(-0.04);
    expect(fit.newestReading.logLevel).toBeGreaterThan(-0.1 - 1.96 * fit.newestReading.se);
    expect(fit.points[fit.points.length - 1].offset).toBeGreaterThan(0.04);
  });

  it('without scrape variance, read every point as the market: no offsets, the newest point is the reading', () => {
    const fit = fitScrapeOffsets(series({ '2024-01': 0.12 }), 0.01, []);
    expect(fit.scrapeVariance).toBe(0);
    expect(Math.abs(fit.newestReading.logLevel)).toBeLessThan(0.005);
  });

  it('serving holds the reading where it beat the newest point at every horizon of the rolling origin, and only there', () => {
    const asIndex = (points: LevelPoint[]) => ({ city: points, newestPeriod: '2026-07', newestLevel: 0, zones: {}, segments: {} }) as unknown as MarketIndex;
    // A flat market whose scrapes sit ±10% off it: the newest point is 10% high.
    const offsets = [0.1, -0.1, 0.1, 0.1, -0.1, -0.1, 0.1, -0.1, -0.1, 0.1];
    const flat = series(Object.fromEntries(MONTHS.map((m, k) => [m, offsets[k]])), 0);
    const noisy = withScrapeVariance(asIndex(flat), [{ source: 'a', offset: 0.08 }, { source: 'b', offset: -0.08 }]);
    expect(noisy.scrapeOffsets!.applied).toBe(true);
    expect(noisy.scrapeOffsets!.rollingOrigin.every((h) => h.medianAbsErrorFiltered < h.medianAbsErrorHeld)).toBe(true);
    expect(logLevelAt(noisy, 'chilanzar', null, '2026-11')).toBe(noisy.scrapeOffsets!.newestReading.logLevel);
    expect(noisy.scrapeOffsets!.newestReading.logLevel).toBeLessThan(-0.03); // the market is 0.1 below the newest point
    // A steady rise without offsets: the reading is no better than the newest point, which stays.
    const steady = withScrapeVariance(asIndex(series({})), SOURCES);
    expect(steady.scrapeOffsets!.applied).toBe(false);
    expect(logLevelAt(steady, 'chilanzar', null, '2026-11')).toBe(0);
  });
});
