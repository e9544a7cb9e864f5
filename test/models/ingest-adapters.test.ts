/** Each source adapter on rows copied verbatim from its file (data snapshot shared-data-2026-11-21). */
import { createAdapter, isDrop, type Adapted } from '../../models/ingest/adapters';
import type { RawRow } from '../../models/ingest/csv';
import { Olx2021Geocodes } from '../../models/ingest/geocode';
import { createNormaliser } from '../../models/ingest/normaliser';
import type { ListingRecord, ListingSource } from '../../models/ingest/record';

const geocodedRows: RawRow[] = [
  {
    address: 'город Ташкент, Yunusobod район, Юнусабад 8-й квартал', district: 'Yunusobod', rooms: '3', size: '57.0',
    level: '4', max_levels: '4', price: '52000', lat: '41.3714709', lng: '69.2810486',
  },
];

function adapt(source: ListingSource, row: RawRow, sourceRow = 1): Adapted {
  const adapter = createAdapter(source, { normaliser: createNormaliser(), olx2021Geocodes: () => Olx2021Geocodes.fromRows(geocodedRows) });
  return adapter.adapt(row, sourceRow);
}

function record(result: Adapted): ListingRecord {
  if (isDrop(result)) throw new Error(`dropped: ${result.drop}`);
  return result.record;
}

const flags = (ticked: string[]) =>
  Object.fromEntries(
    ['Lift', 'Security', 'Internet', 'Playground', 'Sauna', 'Sewerage', 'Fridge', 'Telephone Line', 'Separate Bathrooms',
      'Surveillance', 'Pool', 'Water', 'Microwave', 'Parking', 'AC', 'TV', 'Washing Machine', 'Cable TV', 'Furniture', 'Gas']
      .map((column) => [column, ticked.includes(column) ? '1' : '0']),
  );

describe('uybor_2025', () => {
  const row = {
    '': '0', Title: '2-комнатная квартира на продажу', Price: '83 875.2 у.е.', Rooms: '2', Area: '68.29 м²', Floor: '10',
    'Building Floors': '11', Condition: 'Черновая отделка', Material: 'Монолитный',
    Address: 'город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал',
    ...flags(['Lift', 'Security', 'Internet', 'Playground', 'Sewerage', 'Telephone Line', 'Separate Bathrooms', 'Surveillance', 'Water', 'Parking', 'Gas']),
  };

  test('row 1: every field', () => {
    const listing = record(adapt('uybor_2025', row));
    expect(listing).toMatchObject({
      source: 'uybor_2025', sourceRow: 1, period: '2025-02', propertyType: 'apartment', priceUsd: 83875.2,
      district: 'mirabad', mahallaId: 'mirabad/inokobod', area: 68.29, rooms: 2, floor: 10, totalFloors: 11,
      landAreaSotka: null, renovation: 'rough', buildingType: 'monolith', furniture: false, bathroom: 'separate',
      market: null, seller: null, lat: null, lon: null,
    });
    expect(listing.amenities).toMatchObject({ lift: true, gas: true, pool: false, furniture: false });
  });

  test('an all-zero amenity block leaves amenities, furniture and bathroom unknown', () => {
    const listing = record(adapt('uybor_2025', { ...row, ...flags([]) }));
    expect(listing).toMatchObject({ amenities: null, furniture: null, bathroom: null });
  });

  test('addresses outside Tashkent city are dropped', () => {
    expect(adapt('uybor_2025', { ...row, Address: 'Ташкентская область, городской посёлок Эшангузар' })).toEqual({ drop: 'outside_tashkent' });
    expect(adapt('uybor_2025', { ...row, Address: 'Самаркандская область, Самарканд' })).toEqual({ drop: 'outside_tashkent' });
  });
});

describe('uybor_2025_b', () => {
  const row = {
    titles: '1-комнатная квартира на продажу', rooms: '1', areas: '42 м²', floors: '9/12', renovations: 'Черновая отделка',
    materials: 'Блочный', prices: '42 000 у.е.',
    addresses: 'город Ташкент, Яшнободский район, махаллинский сход граждан Олмос, 1-й тупик Бахт Кули',
    lifts: 'Лифт', securities: 'Охрана', internets: 'No internet', playgrounds: 'Детская площадка', sewerages: 'Канализация',
    bathrooms: 'No bathroom', video_monitor: 'Видеонаблюдение', parking_spaces: 'No parking_space', air_conditions: 'No air_condition',
    furnitures: 'No furniture',
  };

  test('row 1: floors "9/12" and amenity words', () => {
    expect(record(adapt('uybor_2025_b', row))).toMatchObject({
      source: 'uybor_2025_b', period: '2025-04', priceUsd: 42000, district: 'yashnabad', mahallaId: 'yashnabad/olmos',
      area: 42, rooms: 1, floor: 9, totalFloors: 12, renovation: 'rough', buildingType: 'block', furniture: false,
      bathroom: null, amenities: { lift: true, security: true, internet: false, video_surveillance: true },
    });
  });
});

describe('uybor_2025_en', () => {
  const row = {
    '': '9', rooms: '2', renovation: 'Medium', materials: 'Panel', facilities: '0', prices: '59500.0', negotiations: '0',
    floors: '3', total_floors: '4', city: 'Tashkent city', district: 'Chilanzar district',
    street: 'Makhalinsky gathering of citizens of Qatartal', living_squares: '54.0', 'home_area(acres²)': '54.0',
  };

  test('row 10: machine-translated labels and the mahalla in the street column', () => {
    expect(record(adapt('uybor_2025_en', row, 10))).toMatchObject({
      source: 'uybor_2025_en', sourceRow: 10, period: '2025-06', priceUsd: 59500, district: 'chilanzar',
      mahallaId: 'chilanzar/katartal', area: 54, rooms: 2, floor: 3, totalFloors: 4, renovation: 'average',
      buildingType: 'panel', amenities: null,
    });
  });

  test('"Orthodpinsky district" is Uchtepa; a plain street gives no mahalla', () => {
    expect(record(adapt('uybor_2025_en', { ...row, district: 'Orthodpinsky district', street: 'Takachi street' }))).toMatchObject({
      district: 'uchtepa', mahallaId: null,
    });
  });
});

describe('uybor_houses_2025', () => {
  const row = {
    '': '0', Title: '6+ комнатный частный дом на продажу', Price: '1 000 000 у.е.', Rooms: '6+', 'Land Area': '6.36 сот.',
    Area: '250 м²', Floors: '2', Condition: 'Авторский проект', Material: 'Кирпичный',
    Address: 'город Ташкент, Мирзо-Улугбекский район, махаллинский сход граждан Шалола, улица Икбол', ...flags([]),
  };

  test('row 1: land area in sotka, storeys, "6+" rooms', () => {
    expect(record(adapt('uybor_houses_2025', row))).toMatchObject({
      source: 'uybor_houses_2025', propertyType: 'house', priceUsd: 1_000_000, district: 'mirzo_ulugbek',
      mahallaId: 'mirzo_ulugbek/shalola', area: 250, rooms: 6, floor: null, totalFloors: 2, landAreaSotka: 6.36,
      renovation: 'designer', buildingType: 'brick', amenities: null,
    });
  });

  test('"Новый Ташкентский район" is none of the 12 districts', () => {
    expect(adapt('uybor_houses_2025', { ...row, Address: 'город Ташкент, Новый Ташкентский район, населённый пункт Ийк' })).toEqual({
      drop: 'unknown_district',
    });
  });
});

describe('olx_2024', () => {
  const row = {
    id: '35500820', title: 'Продажа квартир ЖК"STATUS", Карасу 6, Авайхон, Мирзо Улугбекский район', type: 'Бизнес',
    housingType: 'Новостройки', rooms: '2', allArea: '53.50', privateArea: '', kitchenArea: '', floor: '6', floorsNumber: '9',
    buildingType: 'Кирпичный', planType: 'Раздельная', bathroom: 'Раздельный', setOfFurniture: 'Нет',
    inQuart: 'Кухня, Телефон, Балкон, Кабельное ТВ, Интернет',
    nearestStructures: 'Рестораны, кафе, Детский сад, Стоянка, Остановки, Больница, поликлиника, Супермаркет, магазины, Парк, зелёная зона, Школа, Развлекательные заведения, Детская площадка',
    repairType: 'Черновая отделка', district: 'Мирзо-Улугбекский район', comission: 'Нет', price: '590 000 000 сум',
  };

  test('a сум price, seller, market, both amenity lists', () => {
    const result = adapt('olx_2024', row);
    expect(result).toMatchObject({ corrections: ['price_converted_from_uzs'] });
    const listing = record(result);
    expect(listing).toMatchObject({
      source: 'olx_2024', period: '2024-04', district: 'mirzo_ulugbek', mahallaId: null, area: 53.5, rooms: 2, floor: 6,
      totalFloors: 9, renovation: 'rough', buildingType: 'brick', furniture: false, bathroom: 'separate', market: 'new',
      seller: 'agency',
    });
    expect(listing.priceUsd).toBeCloseTo(46_714, 0);
    expect(listing.amenities).toMatchObject({ kitchen: true, balcony: true, fridge: false, near_hospital: true, near_park: true });
    expect(Object.keys(listing)).not.toContain('title');
  });

  test('a private resale ad; blank building and repair types stay unknown', () => {
    expect(record(adapt('olx_2024', { ...row, type: 'Частное лицо', housingType: 'Вторичный рынок', buildingType: '', repairType: '', price: '90 000 у.е.' })))
      .toMatchObject({ seller: 'owner', market: 'resale', buildingType: null, renovation: null, priceUsd: 90_000 });
  });
});

describe('olx_2021', () => {
  const row = {
    location: 'город Ташкент, Юнусабадский район, Юнусабад 8-й квартал', district: 'Юнусабадский', rooms: '3', size: '57',
    level: '4', max_levels: '4', price: '52000',
  };

  test('row 1: period 2021-02 and coordinates from the geocoded copy', () => {
    const result = adapt('olx_2021', row);
    expect(result).toMatchObject({ corrections: ['coordinates_joined'] });
    expect(record(result)).toMatchObject({
      source: 'olx_2021', period: '2021-02', priceUsd: 52000, district: 'yunusabad', area: 57, rooms: 3, floor: 4,
      totalFloors: 4, lat: 41.3714709, lon: 69.2810486,
    });
  });

  test('"Договорная" has no price; an unmatched row has no coordinates', () => {
    expect(adapt('olx_2021', { ...row, price: 'Договорная' })).toEqual({ drop: 'no_price' });
    expect(record(adapt('olx_2021', { ...row, size: '58' }))).toMatchObject({ lat: null, lon: null });
  });
});
