/**
 * The anomaly check's district and mahalla medians are at one price level: the training listings
 * (2021–2026) brought to the market index's newest month, then to the valuation date's level. A
 * median over prices as listed sat ~40% below the July 2026 market and flagged a quarter of the
 * newest snapshot's ordinary flats FAR_FROM_DISTRICT_MEDIAN.
 */
import { ingestListings } from '../../models/ingest';
import type { ApartmentRequest } from '../../models/residential/request';
import { FORWARD_TEST_SOURCE } from '../../models/residential/train';
import { CHILANZAR_FLAT as flat, useServedFlatModel } from '../support/flats';

describe('anomaly medians at the valuation date’s price level', () => {
  const model = useServedFlatModel();

  it('are kept at the newest month’s level, and move with the valuation date as the estimate does', async () => {
    const { market, marketIndex } = model().manifest;
    expect(market.levelledTo).toBe(marketIndex.newestPeriod);
    const earlier = marketIndex.periods[marketIndex.periods.length - 3].period;
    const [now, then] = await model().value([{ ...flat, valuationDate: `${marketIndex.newestPeriod}-15` }, { ...flat, valuationDate: `${earlier}-15` }]);
    expect(then.estimate).toBeLessThan(now.estimate);
    expect(then.anomaly.districtMedianPricePerM2).toBeLessThan(now.anomaly.districtMedianPricePerM2);
    // The same flat sits as far from its district's median whatever the date.
    expect(then.anomaly.deviationFromDistrictMedian).toBeCloseTo(now.anomaly.deviationFromDistrictMedian, 2);
  });

  it('flag few of the newest snapshot’s flats as far from their district median', async () => {
    const records = ingestListings({ sources: [FORWARD_TEST_SOURCE], priceFences: false }).records.filter((r) => r.propertyType === 'apartment');
    const values = await model().value(records.map((r) => ({
      district: r.district, mahallaId: r.mahallaId, area: r.area, rooms: r.rooms ?? 1, floor: r.floor ?? 1, totalFloors: r.totalFloors ?? 1,
      renovation: r.renovation, buildingType: r.buildingType, furniture: r.furniture, bathroom: r.bathroom, market: r.market as ApartmentRequest['market'],
      seller: r.seller, lat: r.lat, lon: r.lon, askingPrice: null, valuationDate: `${r.period}-15`,
    })));
    const far = values.filter((v) => v.anomaly.flags.includes('FAR_FROM_DISTRICT_MEDIAN')).length;
    expect(far / values.length).toBeLessThan(0.05);
    const deviations = values.map((v) => v.anomaly.deviationFromDistrictMedian).sort((a, b) => a - b);
    expect(Math.abs(deviations[deviations.length >> 1])).toBeLessThan(0.15);
  });
});
