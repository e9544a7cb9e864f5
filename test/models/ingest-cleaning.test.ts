/** Cleaning rules on small fixtures: impossible values, duplicates, fall-back districts, price fences, geocodes. */
import type { Candidate } from '../../models/ingest/candidate';
import { cleanRecord } from '../../models/ingest/clean';
import { dropExactDuplicates, mergeAcrossSources } from '../../models/ingest/dedup';
import { detectFallbackDistrict, dropFallbackCopies } from '../../models/ingest/fallback-district';
import { Olx2021Geocodes } from '../../models/ingest/geocode';
import { applyPriceFences, dropDownPayments, FENCE, median, robustFence } from '../../models/ingest/outliers';
import type { ListingRecord } from '../../models/ingest/record';

let nextRow = 1;
function listing(overrides: Partial<ListingRecord> = {}): ListingRecord {
  return {
    source: 'uybor_2025', sourceRow: nextRow++, period: '2025-02', propertyType: 'apartment', priceUsd: 65_000,
    district: 'chilanzar', mahallaId: null, area: 50, rooms: 2, floor: 3, totalFloors: 4, landAreaSotka: null,
    renovation: 'euro', buildingType: 'panel', furniture: null, bathroom: null, market: null, seller: null,
    amenities: null, lat: null, lon: null, ...overrides,
  };
}
const candidate = (overrides: Partial<ListingRecord> = {}): Candidate => ({ record: listing(overrides), corrections: [] });

describe('impossible values', () => {
  test.each([
    [{ area: 3 }, 'area_out_of_range'],
    [{ area: 39_500 }, 'area_out_of_range'],
    [{ rooms: 4, area: 18 }, 'rooms_area_mismatch'],
    [{ rooms: 1, area: 301 }, 'rooms_area_mismatch'],
    [{ rooms: 0 }, 'rooms_out_of_range'],
    [{ floor: 9, totalFloors: 8 }, 'floor_above_total'],
    [{ floor: 1, totalFloors: 101 }, 'too_many_floors'],
    [{ propertyType: 'house' as const, floor: null, totalFloors: 16, rooms: 3, area: 96 }, 'too_many_floors'],
    [{ propertyType: 'house' as const, landAreaSotka: 120, rooms: 3, area: 79 }, 'land_area_out_of_range'],
    [{ priceUsd: 2 }, 'price_below_minimum'],
  ])('%j → %s', (overrides, reason) => {
    expect(cleanRecord(listing(overrides))).toEqual({ drop: reason });
  });

  test('a price under $5,000 that is a price per m² is multiplied out ("1м²=600 у.е.", 70 m²)', () => {
    expect(cleanRecord(listing({ priceUsd: 600, area: 70, rooms: 3 }))).toMatchObject({
      record: { priceUsd: 42_000 },
      corrections: ['price_per_m2_scaled'],
    });
  });

  test('a run-together room count is cleared, the listing kept ("41" rooms, 130 m²)', () => {
    expect(cleanRecord(listing({ rooms: 41, area: 130 }))).toMatchObject({ record: { rooms: null }, corrections: ['rooms_typo_cleared'] });
  });

  test('a plausible record passes unchanged', () => {
    const record = listing();
    expect(cleanRecord(record)).toEqual({ record, corrections: [] });
  });
});

describe('exact duplicates within a file', () => {
  test('identical content under different row numbers collapses to the first row', () => {
    const first = candidate({ sourceRow: 10 });
    const repeat = { record: { ...first.record, sourceRow: 11 }, corrections: [] };
    const other = candidate({ sourceRow: 12, priceUsd: 66_000 });
    const { kept, dropped } = dropExactDuplicates([first, repeat, other]);
    expect(kept).toEqual([first, other]);
    expect(dropped).toEqual([repeat]);
  });
});

describe('cross-source de-duplication', () => {
  test('same flat, price 0.5% and area 1% apart: the more complete record is kept', () => {
    const sparse = candidate({ source: 'uybor_2025_en', period: '2025-06', priceUsd: 84_263.36, area: 68.29 });
    const complete = candidate({ source: 'uybor_2025', priceUsd: 83_875.2, area: 68.29 * 1.01, mahallaId: 'chilanzar/katartal', amenities: { lift: true } });
    const { kept, merges } = mergeAcrossSources([sparse, complete]);
    expect(kept).toEqual([complete]);
    expect(merges).toEqual([{ dropped: sparse, keptIn: complete }]);
  });

  test('equally complete: the more recent scrape is kept', () => {
    const early = candidate({ source: 'uybor_2025', period: '2025-02' });
    const april = candidate({ source: 'uybor_2025_b', period: '2025-04' });
    expect(mergeAcrossSources([early, april]).kept).toEqual([april]);
  });

  test.each([
    ['price 6% apart', { priceUsd: 65_000 * 1.06 }],
    ['area 3% apart', { area: 51.5 }],
    ['another floor', { floor: 2 }],
    ['another mahalla', { mahallaId: 'chilanzar/dilabad' }],
    ['another building type', { buildingType: 'brick' as const }],
    ['scraped four years earlier', { source: 'olx_2021' as const, period: '2021-02' }],
  ])('not the same flat: %s', (_label, overrides) => {
    const a = candidate({ source: 'uybor_2025', mahallaId: 'chilanzar/katartal' });
    const b = candidate({ source: 'olx_2024', period: '2024-04', ...overrides });
    expect(mergeAcrossSources([a, b]).kept).toHaveLength(2);
  });

  test('two similar flats in one file stay two, even when a third file lists one of them', () => {
    const flatA = candidate({ source: 'uybor_2025_b', period: '2025-04' });
    const flatB = candidate({ source: 'uybor_2025_b', period: '2025-04', priceUsd: 66_000 });
    const repost = candidate({ source: 'olx_2024', period: '2024-04', priceUsd: 65_500 });
    const { kept, merges } = mergeAcrossSources([flatA, flatB, repost]);
    expect(kept).toHaveLength(2);
    expect(merges).toHaveLength(1);
  });
});

describe('fall-back districts (English uybor file)', () => {
  const en = (overrides: Partial<ListingRecord>) => candidate({ source: 'uybor_2025_en', period: '2025-06', ...overrides });
  // Three listings each under their real district and under Yunusabad; one seen only in Yunusabad.
  const sergeli = en({ district: 'sergeli', mahallaId: 'sergeli/xalkobod', priceUsd: 80_000, area: 78 });
  const sergeliCopy = en({ district: 'yunusabad', priceUsd: 80_000, area: 78 });
  const sergeliStreetCopy = en({ district: 'sergeli', priceUsd: 80_000, area: 78 });
  const chilanzar = en({ district: 'chilanzar', priceUsd: 68_900 });
  const chilanzarCopy = en({ district: 'yunusabad', priceUsd: 68_900 });
  const mirabad = en({ district: 'mirabad', priceUsd: 103_499.94, area: 83.88 });
  const mirabadCopy = en({ district: 'yunusabad', priceUsd: 103_499.94, area: 83.88 });
  const yunusabadOnly = en({ district: 'yunusabad', mahallaId: 'yunusabad/bogishamol', priceUsd: 67_800, area: 56 });
  const all = [sergeliCopy, sergeli, sergeliStreetCopy, chilanzarCopy, chilanzar, mirabadCopy, mirabad, yunusabadOnly];

  test('the district present in every conflict is the fall-back', () => {
    expect(detectFallbackDistrict(all)).toBe('yunusabad');
    expect(detectFallbackDistrict([sergeli, chilanzar, yunusabadOnly])).toBeNull();
  });

  test('each listing keeps its real district (with its mahalla); a Yunusabad-only listing stays', () => {
    const { kept, dropped } = dropFallbackCopies(all, 'yunusabad');
    expect(kept.map((c) => c.record.district).sort()).toEqual(['chilanzar', 'mirabad', 'sergeli', 'yunusabad']);
    expect(kept).toContain(sergeli);
    expect(kept).toContain(yunusabadOnly);
    expect(dropped).toHaveLength(4);
  });
});

describe('price outliers', () => {
  test('median and MAD fence on log values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const fence = robustFence([0, 0.1, 0.2, 0.3, 0.4]);
    expect(fence.median).toBeCloseTo(0.2);
    expect(fence.high - fence.median).toBeCloseTo(FENCE.k * FENCE.madToSigma * 0.1);
  });

  // n listings of 50 m² spread evenly over ±30% around the given price per m².
  const district = (n: number, usdPerM2: number, overrides: Partial<ListingRecord> = {}) =>
    Array.from({ length: n }, (_, i) => candidate({ area: 50, priceUsd: 50 * usdPerM2 * (0.7 + (0.6 * i) / (n - 1)), ...overrides }));

  test('a price 60× the district level is fenced out; an ordinary one is not', () => {
    const typical = district(30, 1300);
    const typo = candidate({ priceUsd: 3_705_000, area: 57 }); // uybor_2025_b: 65 000 × 57 typed as the price
    const { kept, dropped, fences } = applyPriceFences([...typical, typo]);
    expect(dropped).toEqual([typo]);
    expect(kept).toHaveLength(30);
    expect(fences.find((f) => f.district === 'chilanzar')).toMatchObject({ propertyType: 'apartment', era: 'current', records: 31 });
  });

  test('a district with fewer than minGroup records uses the city fence', () => {
    const city = district(40, 1300);
    const bektemir = district(5, 1100, { district: 'bektemir' });
    const bektemirTypo = candidate({ district: 'bektemir', priceUsd: 50 * 9000, area: 50 });
    const { fences, dropped } = applyPriceFences([...city, ...bektemir, bektemirTypo]);
    expect(fences.map((f) => f.district)).toEqual(['chilanzar', 'city']);
    expect(dropped).toEqual([bektemirTypo]);
  });

  test('2021 prices are fenced among 2021 prices', () => {
    const current = district(30, 1300);
    const historic = district(30, 720, { source: 'olx_2021', period: '2021-02' });
    const { dropped, fences } = applyPriceFences([...current, ...historic]);
    expect(dropped).toEqual([]);
    expect(fences.filter((f) => f.district === 'chilanzar').map((f) => f.era).sort()).toEqual(['current', 'historic']);
  });

  test('an apartment under 35% of the city median per m² is a down payment ("взнос 193 млн", 62 m²)', () => {
    const typical = district(30, 1300);
    const downPayment = candidate({ priceUsd: 15_316, area: 62 });
    const house = candidate({ propertyType: 'house', priceUsd: 135_000, area: 600, rooms: 6, floor: null, totalFloors: 1 });
    const { dropped } = dropDownPayments([...typical, downPayment, house]);
    expect(dropped).toEqual([downPayment]);
  });
});

describe('2021 geocodes', () => {
  const geocoded = (address: string, lat: string, lng: string, price = '52000') => ({
    address, district: 'Chilonzor', rooms: '2', size: '50.0', level: '3', max_levels: '4', price, lat, lng,
  });
  const row2021 = (location: string, price = '52000') => ({
    location, district: 'Чиланзарский', rooms: '2', size: '50', level: '3', max_levels: '4', price,
  });

  test('joined on place text, rooms, size, floors and price despite the rewritten district and number format', () => {
    const geocodes = Olx2021Geocodes.fromRows([geocoded('город Ташкент, Chilonzor район, Чиланзар 9-й квартал', '41.2901628', '69.1968618')]);
    expect(geocodes.lookup(row2021('город Ташкент, Чиланзарский район, Чиланзар 9-й квартал'))).toEqual({
      status: 'joined', lat: 41.2901628, lon: 69.1968618,
    });
    expect(geocodes.lookup(row2021('город Ташкент, Чиланзарский район, Чиланзар 9-й квартал', '53000'))).toEqual({ status: 'missing' });
  });

  test('a point shared by ten different places is a fall-back and withheld; so is a point outside the city', () => {
    const places = Array.from({ length: 10 }, (_, i) => geocoded(`город Ташкент, Chilonzor район, Улица ${i}`, '41.259418', '69.1804708'));
    const outside = geocoded('город Ташкент, Yashnobod район, Янгикургон', '41.4245218', '69.5886868', '40000');
    const geocodes = Olx2021Geocodes.fromRows([...places, outside]);
    expect(geocodes.lookup(row2021('город Ташкент, Чиланзарский район, Улица 3'))).toEqual({ status: 'withheld' });
    expect(geocodes.lookup(row2021('город Ташкент, Яшнободский район, Янгикургон', '40000'))).toEqual({ status: 'withheld' });
  });
});
