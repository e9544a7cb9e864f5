/**
 * Homes follow the vehicles' rule for old market data: a valuation dated more than 12 months past
 * the newest listings carries MARKET_DATA_OLDER_THAN_12_MONTHS and is never rated high; the flag is
 * not scored as an anomaly (the data's age is stated in marketLevel).
 */
import { currentVersion } from '../../models/ensemble/versions';
import { confidence, STALE_DATA_FLAG } from '../../models/ensemble/confidence';
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

  it('is flagged past 12 months, not at 12, and a flat rated high before is capped at medium, its score not docked for the flag', async () => {
    const flats = model();
    const newest = flats.manifest.marketIndex.newestPeriod;
    const [soon, twelve, thirteen] = await flats.value([4, 12, 13].map((months) => ({ ...flat, valuationDate: monthsAfter(newest, months) })));
    expect(soon.confidence.level).toBe('high'); // the case is one the rule rates high
    expect(twelve.marketLevel.dataAgeMonths).toBe(12);
    expect(twelve.anomaly.flags).not.toContain(STALE_DATA_FLAG);
    expect(thirteen.marketLevel.dataAgeMonths).toBe(13);
    expect(thirteen.anomaly.flags).toContain(STALE_DATA_FLAG);
    expect(thirteen.confidence.level).not.toBe('high');
    const otherFlags = thirteen.anomaly.flags.length - 1;
    const unflagged = confidence((thirteen.interval.high - thirteen.interval.low) / thirteen.estimate, thirteen.anomaly.modelSpread, 'high', otherFlags, flats.manifest.confidence?.widths);
    expect(thirteen.confidence.score).toBeCloseTo(unflagged.score, 1);
  });
});

describe('houses: market data older than 12 months', () => {
  let houses: HouseModelSet;
  beforeAll(async () => {
    houses = await HouseModelSet.load(currentVersion(HOUSE_DIR)!, HOUSE_DIR, () => TEST_TODAY);
  });
  afterAll(() => houses.close());

  it('is flagged past 12 months and never rated high', async () => {
    const newest = houses.manifest.marketIndex.newestPeriod;
    const house = (months: number): HouseRequest => ({
      propertyType: 'house', district: 'yunusabad', mahallaId: null, lat: null, lon: null, area: 200, landAreaSotka: 6, rooms: 5, totalFloors: 2,
      renovation: null, buildingType: null, gas: null, water: null, sewerage: null, askingPrice: null, valuationDate: monthsAfter(newest, months),
    });
    const [soon, late] = (await houses.value([house(4), house(13)])) as HouseValue[];
    expect(soon.anomaly.flags).not.toContain(STALE_DATA_FLAG);
    expect(late.anomaly.flags).toContain(STALE_DATA_FLAG);
    expect(late.confidence.level).not.toBe('high');
  });
});
