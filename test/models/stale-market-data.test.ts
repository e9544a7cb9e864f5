/**
 * Old market data: a valuation dated more than 12 months past the newest listings carries
 * MARKET_DATA_OLDER_THAN_12_MONTHS; its interval is wider for the months past the data, so its FSD
 * is larger and its stated confidence lower, and a driver says why (issue 32: the level is the FSD's).
 */
import { currentVersion } from '../../models/ensemble/versions';
import { STALE_DATA_FLAG } from '../../models/ensemble/confidence';
import { forecastStandardDeviation, levelOfFsd } from '../../models/ensemble/fsd';
import { HOUSE_DIR } from '../../models/house/manifest';
import { HouseModelSet } from '../../models/house/runtime';
import type { HouseRequest, HouseValue } from '../../models/house/valuation';
import { CHILANZAR_FLAT as flat, TEST_TODAY, useServedFlatModel } from '../support/flats';

/** 'YYYY-MM-15', `months` after a 'YYYY-MM' period. */
function monthsAfter(period: string, months: number): string {
  const [y, m] = period.split('-').map(Number);
  const t = y * 12 + (m - 1) + months;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-15`;
}

describe('flats: market data older than 12 months', () => {
  const model = useServedFlatModel();

  it('is flagged past 12 months, not at 12; the interval widens with the months, and the FSD, level and drivers say so', async () => {
    const flats = model();
    const newest = flats.manifest.marketIndex.newestPeriod;
    const [soon, twelve, thirteen, thirtyNine] = await flats.value([4, 12, 13, 39].map((months) => ({ ...flat, valuationDate: monthsAfter(newest, months) })));
    expect(twelve.marketLevel.dataAgeMonths).toBe(12);
    expect(twelve.anomaly.flags).not.toContain(STALE_DATA_FLAG);
    expect(thirteen.marketLevel.dataAgeMonths).toBe(13);
    expect(thirteen.anomaly.flags).toContain(STALE_DATA_FLAG);
    for (const v of [soon, twelve, thirteen, thirtyNine]) {
      // The FSD is the interval's, the level its band, the score 1 − FSD.
      expect(v.fsd).toBe(forecastStandardDeviation(v.interval));
      expect(v.confidence.level).toBe(levelOfFsd(v.fsd));
      expect(v.confidence.score).toBe(Math.round((1 - v.fsd) * 100) / 100);
      expect(v.confidence.drivers[0]).toMatch(/^FSD 0\.\d{3}: the calibrated 90% interval/);
    }
    expect(thirteen.fsd).toBeGreaterThanOrEqual(twelve.fsd);
    expect(thirteen.fsd).toBeGreaterThan(soon.fsd);
    expect(thirtyNine.fsd).toBeGreaterThan(thirteen.fsd);
    expect(thirteen.confidence.drivers.join(' ')).toContain('market data 13 months older than the valuation date');
    expect(thirteen.confidence.drivers.join(' ')).toContain(STALE_DATA_FLAG);
  });
});

describe('houses: market data older than 12 months', () => {
  let houses: HouseModelSet;
  beforeAll(async () => {
    houses = await HouseModelSet.load(currentVersion(HOUSE_DIR)!, HOUSE_DIR, () => TEST_TODAY);
  });
  afterAll(() => houses.close());

  it('is flagged past 12 months, with a wider interval and a larger FSD', async () => {
    const newest = houses.manifest.marketIndex.newestPeriod;
    const house = (months: number): HouseRequest => ({
      propertyType: 'house', district: 'yunusabad', mahallaId: null, lat: null, lon: null, area: 200, landAreaSotka: 6, rooms: 5, totalFloors: 2,
      renovation: null, buildingType: null, gas: null, water: null, sewerage: null, askingPrice: null, valuationDate: monthsAfter(newest, months),
    });
    const [soon, late] = (await houses.value([house(4), house(13)])) as HouseValue[];
    expect(soon.anomaly.flags).not.toContain(STALE_DATA_FLAG);
    expect(late.anomaly.flags).toContain(STALE_DATA_FLAG);
    expect(late.fsd).toBeGreaterThan(soon.fsd);
    expect(late.confidence.level).toBe(levelOfFsd(late.fsd));
    expect(late.confidence.drivers.join(' ')).toContain('market data 13 months older');
  });
});
