/** Parsing helpers on strings as the listing files write them. */
import { isTashkentCityAddress, namesMahalla } from '../../models/ingest/address';
import { amenitiesFromFlags, amenitiesFromLabelList, amenitiesFromWords, mergeAmenityBlocks } from '../../models/ingest/amenities';
import { OLX_IN_FLAT_LABELS, OLX_NEARBY_LABELS, UYBOR_B_WORD_COLUMNS, UYBOR_FLAG_COLUMNS } from '../../models/ingest/amenity-labels';
import {
  parseArea, parseCount, parseFloorPair, parseLandAreaSotka, parseMoney, parseNumber, parseRooms, toUsd,
} from '../../models/ingest/parse';
import { countPersonalData } from '../../models/ingest/pii';
import { UZS_PER_USD, uzsToUsd } from '../../models/currency';

describe('prices', () => {
  test('у.е. is USD, with spaces grouping thousands and a decimal point', () => {
    expect(parseMoney('83 875.2 у.е.')).toEqual({ amount: 83875.2, currency: 'USD' });
    expect(parseMoney('1 000 000 у.е.')).toEqual({ amount: 1_000_000, currency: 'USD' });
  });
  test('bare numbers (English uybor, olx 2021) are USD', () => {
    expect(parseMoney('72000.0')).toEqual({ amount: 72000, currency: 'USD' });
    expect(parseMoney('52000')).toEqual({ amount: 52000, currency: 'USD' });
  });
  test('сум is UZS, converted at the period’s CBU rate', () => {
    const money = parseMoney('590 000 000 сум');
    expect(money).toEqual({ amount: 590_000_000, currency: 'UZS' });
    expect(toUsd(money!, '2024-04')).toBeCloseTo(590_000_000 / UZS_PER_USD['2024-04'], 6);
    expect(toUsd(money!, '2024-04')).toBeGreaterThan(46_000);
    expect(toUsd(money!, '2024-04')).toBeLessThan(47_000);
    expect(toUsd({ amount: 32_000, currency: 'USD' }, '2024-04')).toBe(32_000);
  });
  test('negotiable and blank prices are no price', () => {
    expect(parseMoney('Договорная')).toBeNull();
    expect(parseMoney('')).toBeNull();
  });
  test('a period without a rate is an error, not a silent guess', () => {
    expect(() => uzsToUsd(1_000_000, '1999-01')).toThrow(/no USD\/UZS rate for 1999-01/);
  });
});

describe('areas, floors and counts', () => {
  test('areas in m², with or without the unit', () => {
    expect(parseArea('68.29 м²')).toBe(68.29);
    expect(parseArea('26')).toBe(26);
    expect(parseArea('53.50')).toBe(53.5);
    expect(parseArea('1 000')).toBe(1000); // olx "allArea" for a 51 m² flat: kept as written, cleaning drops it
    expect(parseArea('')).toBeNull();
    expect(parseArea('Площадьземли:1сот')).toBeNull();
  });
  test('land area in sotka', () => {
    expect(parseLandAreaSotka('6.36 сот.')).toBe(6.36);
    expect(parseLandAreaSotka('12 сот.')).toBe(12);
  });
  test('"9/12" is floor 9 of 12', () => {
    expect(parseFloorPair('9/12')).toEqual({ floor: 9, totalFloors: 12 });
    expect(parseFloorPair('33/51')).toEqual({ floor: 33, totalFloors: 51 });
    expect(parseFloorPair('9')).toBeNull();
  });
  test('rooms: digits, the "6+" bucket, studio and open plan', () => {
    expect(parseRooms('2')).toBe(2);
    expect(parseRooms('6+')).toBe(6);
    expect(parseRooms('Студия')).toBe(1);
    expect(parseRooms('Свободная планировка')).toBeNull();
    expect(parseRooms('')).toBeNull();
  });
  test('counts are whole numbers', () => {
    expect(parseCount('11')).toBe(11);
    expect(parseCount('2.5')).toBeNull();
    expect(parseCount('None')).toBeNull();
    expect(parseNumber('60,35')).toBe(60.35);
  });
});

describe('addresses', () => {
  test('Tashkent city versus the region and other towns', () => {
    expect(isTashkentCityAddress('город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал')).toBe(true);
    expect(isTashkentCityAddress('Ташкентская область, Чирчик')).toBe(false);
    expect(isTashkentCityAddress('Ташкентская область')).toBe(false);
    expect(isTashkentCityAddress('Самаркандская область, Самарканд')).toBe(false);
  });
  test('the English street column names a mahalla only in its "Makhalinsky gathering" form', () => {
    expect(namesMahalla('Makhalinsky gathering of citizens of Qatartal')).toBe(true);
    expect(namesMahalla('Makhalinsky gathering of Ak-Tepa citizens')).toBe(true);
    expect(namesMahalla('Hamal Street')).toBe(false);
    expect(namesMahalla('2nd quarter')).toBe(false);
  });
});

describe('amenity blocks', () => {
  const zeroFlags = Object.fromEntries(Object.keys(UYBOR_FLAG_COLUMNS).map((column) => [column, '0']));

  test('uybor 0/1 flags; an all-zero block is "not filled in"', () => {
    expect(amenitiesFromFlags(zeroFlags, UYBOR_FLAG_COLUMNS)).toBeNull();
    const flags = amenitiesFromFlags({ ...zeroFlags, Lift: '1', 'Separate Bathrooms': '1', Gas: '1' }, UYBOR_FLAG_COLUMNS);
    expect(flags).toMatchObject({ lift: true, separate_bathroom: true, gas: true, pool: false, furniture: false });
    expect(Object.keys(flags!)).toHaveLength(20);
  });

  test('uybor_b words; "No …", "no lift" and the stray "1" are absence', () => {
    const row = {
      lifts: 'Лифт', securities: 'Охрана', internets: 'No internet', playgrounds: 'Детская площадка', sewerages: 'Канализация',
      bathrooms: 'No bathroom', video_monitor: 'Видеонаблюдение', parking_spaces: 'No parking_space', air_conditions: 'No air_condition',
      furnitures: 'No furniture',
    };
    expect(amenitiesFromWords(row, UYBOR_B_WORD_COLUMNS)).toEqual({
      lift: true, security: true, internet: false, playground: true, sewerage: true, separate_bathroom: false,
      video_surveillance: true, parking: false, air_conditioning: false, furniture: false,
    });
    const unfilled = {
      lifts: '1', securities: 'No security', internets: 'No internet', playgrounds: 'No playground', sewerages: 'No sewerage',
      bathrooms: 'No bathroom', video_monitor: 'No video_monitor', parking_spaces: 'No parking_space', air_conditions: 'No air_condition',
      furnitures: 'No furniture',
    };
    expect(amenitiesFromWords(unfilled, UYBOR_B_WORD_COLUMNS)).toBeNull();
  });

  test('olx comma lists, where "Больница, поликлиника" is one label', () => {
    const nearby = amenitiesFromLabelList(
      'Рестораны, кафе, Детский сад, Стоянка, Остановки, Больница, поликлиника, Супермаркет, магазины, Школа',
      OLX_NEARBY_LABELS,
    );
    expect(nearby).toMatchObject({
      near_restaurants: true, near_kindergarten: true, near_parking: true, near_public_transport: true,
      near_hospital: true, near_shops: true, near_school: true, near_park: false, near_entertainment: false,
    });
    const inFlat = amenitiesFromLabelList('Кухня, Телефон, Балкон, Кабельное ТВ, Интернет', OLX_IN_FLAT_LABELS);
    expect(inFlat).toMatchObject({ kitchen: true, telephone: true, balcony: true, cable_tv: true, internet: true, fridge: false });
    expect(amenitiesFromLabelList('', OLX_IN_FLAT_LABELS)).toBeNull();
    expect(mergeAmenityBlocks(null, null)).toBeNull();
    expect(mergeAmenityBlocks(inFlat, null)).toEqual(inFlat);
  });
});

describe('personal data scan', () => {
  test('counts phone numbers, e-mails and "call <name>" in free text', () => {
    const rows = [
      { title: 'Чиланзар 19 Квартал 2в3/1/4 Звоните Тамара' },
      { title: 'Срочно! тел +998 90 123 45 67 или 93-555-12-34, pochta@mail.uz' },
      { title: 'Продается квартира 2/3/4 за 56 000 у.е. (140988)' },
    ];
    expect(countPersonalData(rows, ['title'])).toEqual({ phones: 2, emails: 1, contactNames: 1 });
  });
});
