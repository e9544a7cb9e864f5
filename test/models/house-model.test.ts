/**
 * The house model: its features, the served version's runtime (real ONNX session) and the
 * evaluation its manifest records. The surfaces (REST, GraphQL, MCP, batch) are tested in test/gateway.
 */
import { encodeHouseFeatures, fitHouseEncoding, HOUSE_FEATURE_COUNT, HOUSE_FEATURE_NAMES, type HouseFeatureSource } from '../../models/house/features';
import { currentHouseVersion, readHouseManifest } from '../../models/house/manifest';
import { HouseModelSet, houseCalibrationGroup, landShareOf, LAND_STEP } from '../../models/house/runtime';
import { InsufficientHouseDataError, type HouseRequest, type HouseValue } from '../../models/house/valuation';
import { renderHouseSection } from '../../tools/cards/house';
import { DISTRICT_IDS } from '../../models/vocabulary/codes';

const row = (over: Partial<HouseFeatureSource> = {}): HouseFeatureSource => ({
  district: 'yunusabad', area: 200, landAreaSotka: 6, rooms: 5, totalFloors: 2, renovation: 'euro', buildingType: 'brick',
  gas: true, water: true, sewerage: null, period: '2025-02', ...over,
});
const col = (name: string) => HOUSE_FEATURE_NAMES.indexOf(name as (typeof HOUSE_FEATURE_NAMES)[number]);

describe('house features', () => {
  const encoding = fitHouseEncoding([row(), row({ district: 'sergeli' })], [Math.log(1500), Math.log(500)], { yunusabad: Math.log(1300) });

  it('pools a district with few houses hard toward the city, and carries the flat level beside it', () => {
    const x = encodeHouseFeatures([row()], encoding, new Float64Array(HOUSE_FEATURE_COUNT));
    const city = (Math.log(1500) + Math.log(500)) / 2;
    // one house in the district against a pseudo-count of 30: barely off the city level
    expect(Math.abs(x[col('district_prior')] - city)).toBeLessThan(0.05);
    expect(x[col('district_prior')]).toBeGreaterThan(city);
    expect(x[col('flat_district_level')]).toBeCloseTo(Math.log(1300), 6);
  });

  it('enters the plot apart from the floor area, and marks what is missing as NaN', () => {
    const [withPlot, without] = [row(), row({ landAreaSotka: null, rooms: null, gas: null, district: 'almazar' })];
    const x = encodeHouseFeatures([withPlot, without], encoding, new Float64Array(2 * HOUSE_FEATURE_COUNT));
    expect(x[col('log_land')]).toBeCloseTo(Math.log(6), 6);
    expect(x[col('log_land_per_floor_area')]).toBeCloseTo(Math.log(600 / 200), 6);
    const o = HOUSE_FEATURE_COUNT;
    for (const name of ['log_land', 'log_land_per_floor_area', 'rooms', 'area_per_room', 'gas', 'flat_district_level']) expect(x[o + col(name)]).toBeNaN();
    expect(x[o + col('district_prior')]).toBeCloseTo(encoding.cityMean, 6); // unseen district → the city
  });

  it('calibrates a house without its plot apart from one with it', () => {
    expect(houseCalibrationGroup(row())).toBe('with plot/yunusabad');
    expect(houseCalibrationGroup(row({ landAreaSotka: null }))).toBe('without plot/yunusabad');
  });

  it('reads the land share as the elasticity to the plot: price = land + building gives the land\'s share', () => {
    const land = 60_000, building = 140_000;
    const share = landShareOf(Math.log(land * LAND_STEP + building), Math.log(land / LAND_STEP + building));
    expect(share).toBeGreaterThan(0.28);
    expect(share).toBeLessThan(0.32);
    expect(landShareOf(1, 2)).toBe(0);
    expect(landShareOf(10, 0)).toBe(1);
  });
});

describe('served house version', () => {
  const version = currentHouseVersion();
  const manifest = readHouseManifest(version!);
  let set: HouseModelSet;
  const house = (over: Partial<HouseRequest> = {}): HouseRequest => ({
    propertyType: 'house', district: 'yunusabad', mahallaId: null, lat: null, lon: null, area: 200, landAreaSotka: 6, rooms: 5, totalFloors: 2,
    renovation: null, buildingType: null, gas: null, water: null, sewerage: null, askingPrice: null, valuationDate: '2026-07-15', ...over,
  });

  beforeAll(async () => {
    set = await HouseModelSet.load(version!, undefined, () => new Date('2026-11-24T00:00:00Z'));
  });
  afterAll(() => set.close());

  it('values a house with its plot: estimate inside its 90% interval, land figures filled, anomaly data against houses', async () => {
    const [v] = (await set.value([house()])) as HouseValue[];
    expect(v.propertyType).toBe('house');
    expect(v.estimate).toBeGreaterThan(50_000);
    expect(v.estimate).toBeLessThan(2_000_000);
    expect(v.interval.low).toBeLessThan(v.estimate);
    expect(v.interval.high).toBeGreaterThan(v.estimate);
    expect(v.interval.coverage).toBe(0.9);
    expect(v.anomaly.landShare).toBeGreaterThan(0);
    expect(v.anomaly.landShare).toBeLessThanOrEqual(1);
    expect(v.landPricePerSotka).toBeCloseTo((v.estimate * v.anomaly.landShare!) / 6, -3);
    // The manifest's medians are at the index's newest level; the reply's at the valuation date's (index ratio, to 3 places).
    expect(manifest.marketLevelledTo).toBe(manifest.marketIndex.newestPeriod);
    const atValuationDate = (median: number) => median * v.marketLevel.indexRatio;
    expect(Math.abs(v.anomaly.districtMedianPricePerM2 - atValuationDate(manifest.market.yunusabad.medianPricePerM2))).toBeLessThanOrEqual(2);
    expect(Math.abs(v.anomaly.districtMedianPricePerSotka! - atValuationDate(manifest.market.yunusabad.medianPricePerSotka!))).toBeLessThanOrEqual(60);
    expect(v.marketLevel.newestDataPeriod).toBe(manifest.marketIndex.newestPeriod);
  });

  it('values a house without its plot with a wider interval, a flag and no land figures', async () => {
    const [withPlot, without] = (await set.value([house(), house({ landAreaSotka: null })])) as HouseValue[];
    const width = (v: HouseValue) => (v.interval.high - v.interval.low) / v.estimate;
    expect(width(without)).toBeGreaterThan(width(withPlot));
    expect(without.anomaly.flags).toContain('PLOT_NOT_GIVEN');
    expect(without.landPricePerSotka).toBeNull();
    expect(without.anomaly.landShare).toBeNull();
  });

  it('prices a bigger plot higher, and refuses a district with too few houses in input order', async () => {
    const refusedDistrict = DISTRICT_IDS.find((d) => (manifest.market[d]?.n ?? 0) < manifest.minListings);
    const [small, big, refused] = await set.value([house(), house({ landAreaSotka: 12 }), house({ district: refusedDistrict ?? 'yunusabad' })]);
    expect((big as HouseValue).estimate).toBeGreaterThan((small as HouseValue).estimate);
    if (refusedDistrict) {
      expect(refused).toBeInstanceOf(InsufficientHouseDataError);
      expect((refused as InsufficientHouseDataError).message).toMatch(/Too few house listings/);
    } else {
      expect(refused).not.toBeInstanceOf(InsufficientHouseDataError); // every district has enough houses in this version
    }
  });

  it('records an honest evaluation: forward and leave-one-source-out, coverage in the promotion band on every house', () => {
    const { headline, leaveOneSourceOut, landShare } = manifest.evaluation;
    expect(headline.protocol).toMatch(/Forward in time/);
    expect(headline.overall.n).toBeGreaterThanOrEqual(30);
    expect(Object.keys(leaveOneSourceOut.bySource ?? {}).sort()).toEqual(['uybor 2023-10', 'uybor 2025', 'uybor 2026-07']);
    expect(leaveOneSourceOut.overall.intervalCoverage).toBeGreaterThanOrEqual(0.85);
    expect(leaveOneSourceOut.overall.intervalCoverage).toBeLessThanOrEqual(0.95);
    expect(leaveOneSourceOut.segments?.['without plot']).toBeDefined();
    expect(landShare.p10).toBeLessThanOrEqual(landShare.median);
    expect(landShare.median).toBeLessThanOrEqual(landShare.p90);
    expect(renderHouseSection(manifest)).toMatch(/## Houses[\s\S]*Leave one source out[\s\S]*Land and building/);
  });
});
