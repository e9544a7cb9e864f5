import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from '../../models/paths';
import {
  DISTRICT_IDS, type DistrictId, districtInAddress, mahallaInAddress, mahallasOf, matchBathroom, matchBuildingType,
  matchDistrict, matchMahalla, matchRenovation, normaliseText, parseYesNo, suggestDistricts,
} from '../../models/vocabulary';
import { buildGazetteer, GAZETTEER_PATH } from '../../models/vocabulary/build-gazetteer';

type Row = Record<string, string>;
const readCsv = (file: string): Row[] =>
  parse(readFileSync(join(DATA_DIR, file)), { columns: true, bom: true, relax_column_count: true, skip_empty_lines: true });
const distinct = (rows: Row[], column: string): string[] => [...new Set(rows.map((r) => r[column] ?? ''))];
/** Empty cells and the sites' "None" / "No material" / "No bathroom" placeholders carry no value. */
const isPlaceholder = (label: string): boolean => label.trim() === '' || /^(none|no\b)/i.test(label.trim());

describe('normaliseText', () => {
  test.each([
    // every apostrophe variant, and none, and Cyrillic: one result
    ["G'ishtli", 'gishtli'], ['Gishtli', 'gishtli'], ['Gʻishtli', 'gishtli'], ['Gʼishtli', 'gishtli'], ['G’ishtli', 'gishtli'],
    ['G‘ishtli', 'gishtli'], ['G`ishtli', 'gishtli'], ['G´ishtli', 'gishtli'], ['Гиштли', 'gishtli'], ['Ғиштли', 'gishtli'],
    ["YO'Q", 'yoq'], ['йўқ', 'yoq'], ['Таъмир талаб', 'tamir talab'], ["Ta'mir talab", 'tamir talab'],
    ['Ўртача', 'ortacha'], ['Қора сувоқ', 'qora suvoq'], ['Янгиҳаёт', 'yangihayot'], ['Шайхонтоҳур', 'shayxontohur'],
    // Russian х, English kh and Uzbek x converge
    ['Шайхантахур', 'shayxantaxur'], ['Shaykhantakhur', 'shayxantaxur'], ['Shayxontohur', 'shayxontohur'],
    ['Юнусабад', 'yunusabad'], ['Щорс', 'shors'], ['Цех', 'tsex'], ['подъезд', 'podezd'], ['Мебель', 'mebel'],
    ['Йўл', 'yol'], ['Ёшлик', 'yoshlik'], ['Эзгулик', 'ezgulik'], ['Джангох', 'jangox'], ['Евроремонт', 'evroremont'],
    ['  Mirzo—Ulug‘bek,  tumani!! ', 'mirzo ulugbek tumani'], ['Чила́нзар', 'chilanzar'], ['ＣＨＩＬＡＮＺＡＲ', 'chilanzar'],
    ['2 санузла и более', '2 sanuzla i bolee'], ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });
});

describe('matchDistrict', () => {
  test.each<[string, DistrictId, 'exact' | 'alias' | 'fuzzy']>([
    // English, as the reference table and the MT file write them
    ['Almazar', 'almazar', 'exact'], ['Bektemir', 'bektemir', 'exact'], ['Chilanzar', 'chilanzar', 'exact'],
    ['Mirabad', 'mirabad', 'exact'], ['Mirzo-Ulugbek', 'mirzo_ulugbek', 'exact'], ['Sergeli', 'sergeli', 'exact'],
    ['Shaykhantakhur', 'shaykhantakhur', 'exact'], ['Uchtepa', 'uchtepa', 'exact'], ['Yakkasaray', 'yakkasaray', 'exact'],
    ['Yashnabad', 'yashnabad', 'exact'], ['Yunusabad', 'yunusabad', 'exact'], ['Yangihayot', 'yangihayot', 'exact'],
    ['chilanzar district', 'chilanzar', 'exact'], ['Mirzo Ulugbek district', 'mirzo_ulugbek', 'exact'], ['mirzo_ulugbek', 'mirzo_ulugbek', 'exact'],
    ['Yakkasarai district', 'yakkasaray', 'alias'], ['Yashnobodsky district', 'yashnabad', 'alias'],
    ['Yangikhayat district', 'yangihayot', 'alias'], ['Orthodpinsky district', 'uchtepa', 'alias'],
    // Uzbek Latin, with and without "tumani"
    ['Chilonzor', 'chilanzar', 'alias'], ['Chilonzor tumani', 'chilanzar', 'alias'], ["Mirzo Ulug'bek", 'mirzo_ulugbek', 'exact'],
    ['Mirzo Ulugʻbek tumani', 'mirzo_ulugbek', 'exact'], ['Yashnobod', 'yashnabad', 'alias'], ['Olmazor', 'almazar', 'alias'],
    ['Olmazor tumani', 'almazar', 'alias'], ['Shayxontohur', 'shaykhantakhur', 'alias'], ['Yakkasaroy', 'yakkasaray', 'alias'],
    ['Yunusobod', 'yunusabad', 'alias'], ['Yunusobod tumani', 'yunusabad', 'alias'], ['Mirobod tumani', 'mirabad', 'alias'],
    ['Uchtepa tumani', 'uchtepa', 'exact'], ['Sergeli tumani', 'sergeli', 'exact'], ["Sirg'ali tumani", 'sergeli', 'alias'],
    ['Bektemir tumani', 'bektemir', 'exact'], ['Yangihayot tumani', 'yangihayot', 'exact'],
    // Uzbek Cyrillic
    ['Чилонзор тумани', 'chilanzar', 'alias'], ['Шайхонтоҳур тумани', 'shaykhantakhur', 'alias'], ['Янгиҳаёт тумани', 'yangihayot', 'exact'],
    ['Мирзо Улуғбек тумани', 'mirzo_ulugbek', 'exact'], ['Юнусобод', 'yunusabad', 'alias'], ['Сирғали тумани', 'sergeli', 'alias'],
    // Russian: adjective with and without "район", short forms, р-н
    ['Чиланзарский район', 'chilanzar', 'exact'], ['Чиланзар', 'chilanzar', 'exact'], ['Чиланзарский', 'chilanzar', 'exact'],
    ['Алмазарский район', 'almazar', 'exact'], ['Олмазорский', 'almazar', 'alias'], ['Мирзо-Улугбекский район', 'mirzo_ulugbek', 'exact'],
    ['Шайхантахурский район', 'shaykhantakhur', 'exact'], ['Учтепинский район', 'uchtepa', 'alias'], ['Сергелийский район', 'sergeli', 'alias'],
    ['Сергилийский район', 'sergeli', 'alias'], ['Яшнабадский район', 'yashnabad', 'exact'], ['Яшнободский', 'yashnabad', 'alias'],
    ['Янгихаётский район', 'yangihayot', 'alias'], ['Бектемирский район', 'bektemir', 'exact'], ['Яккасарайский', 'yakkasaray', 'exact'],
    ['Юнусабадский р-н', 'yunusabad', 'exact'], ['р-н Мирабад', 'mirabad', 'exact'], ['Chilanzar r-n', 'chilanzar', 'exact'],
    // spellings of the 2021 geocoded file
    ['Olmzor', 'almazar', 'alias'], ['Shayhontohur', 'shaykhantakhur', 'alias'], ['Mirzo Ulugbek', 'mirzo_ulugbek', 'exact'],
    // typos: ≤ 1 edit for names of up to 6 letters, ≤ 2 for longer ones
    ['Chilanzr', 'chilanzar', 'fuzzy'], ['Chilnazar', 'chilanzar', 'fuzzy'], ['Yunusabat', 'yunusabad', 'fuzzy'],
    ['Bektimir', 'bektemir', 'fuzzy'], ['Sergelli district', 'sergeli', 'alias'], ['Sergel district', 'sergeli', 'fuzzy'], ['Yakasarai', 'yakkasaray', 'alias'],
    ['Mirzo Ulugbk', 'mirzo_ulugbek', 'fuzzy'], ['Uchtpea', 'uchtepa', 'fuzzy'], ['Чиланзрский район', 'chilanzar', 'fuzzy'],
    // with the city (and country) around it, as other sites write the location
    ['Tashkent, Chilanzar', 'chilanzar', 'exact'], ['г. Ташкент, Юнусабадский район', 'yunusabad', 'exact'],
    ['город Ташкент, Мирабадский р-н', 'mirabad', 'exact'], ['Toshkent shahri, Chilonzor tumani', 'chilanzar', 'alias'],
    ['Тошкент ш., Яшнобод тумани', 'yashnabad', 'alias'], ['Uzbekistan, Tashkent, Sergeli district', 'sergeli', 'exact'],
    ['Yunusabad, Tashkent', 'yunusabad', 'exact'], ['Tashkent city, Yakkasaray', 'yakkasaray', 'exact'],
  ])('%j → %s (%s)', (text, id, via) => {
    expect(matchDistrict(text)).toEqual({ id, name: expect.any(String), via });
  });

  test.each([
    'Paris', 'Samarkand', 'Samarqand', '', '   ', 'district', 'Tashkent', 'Toshkent tumani', 'г. Ташкент', 'Toshkent shahri',
    // two districts are none
    'Tashkent, Chilanzar, Yunusabad',
    // a 14th district (in uybor_houses_2025.csv) that the codes do not have
    'Новый Ташкентский район',
    // real districts elsewhere whose names are two edits from Mirobod / Uchtepa
    'Nurobod tumani', 'Мирзаабадский район', 'Куштепинский район',
    // too far for a typo
    'Chlnzr', 'Yunus',
  ])('%j → null', (text) => {
    expect(matchDistrict(text)).toBeNull();
  });

  test('the English display name comes with the code', () => {
    expect(matchDistrict('Мирзо-Улугбекский район')).toEqual({ id: 'mirzo_ulugbek', name: 'Mirzo-Ulugbek', via: 'exact' });
  });

  test('all 12 polygons of the geojson name their district alike in English, Russian and Uzbek', () => {
    const geo = JSON.parse(readFileSync(join(DATA_DIR, 'geo', 'tashkent_districts.geojson'), 'utf8')) as {
      features: { properties: Record<'ADM2_EN' | 'ADM2_RU' | 'ADM2_UZ', string> }[];
    };
    const ids = geo.features.map(({ properties: p }) => {
      const [en, ru, uz] = [p.ADM2_EN, p.ADM2_RU, p.ADM2_UZ].map((name) => matchDistrict(name)?.id);
      expect([p.ADM2_EN, ru, uz]).toEqual([p.ADM2_EN, en, en]);
      return en;
    });
    expect(new Set(ids)).toEqual(new Set(DISTRICT_IDS));
  });

  test('uz_districts.csv: Tashkent city rows match in all three scripts, no district elsewhere matches', () => {
    const tashkent = new Set<DistrictId>();
    for (const row of readCsv('geo/uz_districts.csv')) {
      const ids = [row.name_uz, row.name_oz, row.name_ru].map((name) => matchDistrict(name)?.id ?? null);
      if (row.region_id !== '11' || row.name_ru === 'null') {
        expect([row.name_uz, ...ids]).toEqual([row.name_uz, null, null, null]);
      } else {
        expect([row.name_uz, ...ids]).toEqual([row.name_uz, ids[0], ids[0], ids[0]]);
        tashkent.add(ids[0] as DistrictId);
      }
    }
    expect(tashkent).toEqual(new Set(DISTRICT_IDS));
  });

  test('districtInAddress finds the district part of an address', () => {
    expect(districtInAddress('город Ташкент, Учтепинский район, Чиланзар-21')?.id).toBe('uchtepa');
    expect(districtInAddress('город Ташкент, Yunusobod район, Юнусабад 8-й квартал')?.id).toBe('yunusabad');
    expect(districtInAddress('Ташкентская область, Чирчик, улица Амира Темура')).toBeNull();
    expect(districtInAddress('город Ташкент, Новый Ташкентский район')).toBeNull();
  });
});

describe('suggestDistricts', () => {
  test.each([
    ['Chilanzr', 'Chilanzar'], ['Yunus', 'Yunusabad'], ['Yakkasara', 'Yakkasaray'], ['Shayxontoxur', 'Shaykhantakhur'],
    ['Mirzo', 'Mirabad'], ['Sergel', 'Sergeli'],
  ])('%j → %s first', (text, best) => {
    const suggestions = suggestDistricts(text);
    expect(suggestions).toHaveLength(3);
    expect(suggestions[0]).toBe(best);
    expect(new Set(suggestions).size).toBe(3);
  });

  test('limit and empty input', () => {
    expect(suggestDistricts('Chilanzr', 1)).toEqual(['Chilanzar']);
    expect(suggestDistricts('Paris', 5)).toHaveLength(5);
    expect(suggestDistricts('')).toEqual([]);
  });
});

describe('matchMahalla', () => {
  test.each<[string, DistrictId | undefined, string, 'exact' | 'alias' | 'fuzzy']>([
    ['Inokobod', undefined, 'mirabad/inokobod', 'exact'],
    ['Инокобод', 'mirabad', 'mirabad/inokobod', 'exact'],
    ['махаллинский сход граждан Инокобод', undefined, 'mirabad/inokobod', 'exact'],
    ['Inoqobod MFY', 'mirabad', 'mirabad/inokobod', 'alias'],
    ['Inoqobod mahallasi', undefined, 'mirabad/inokobod', 'alias'],
    ['МСГ Инокобод', undefined, 'mirabad/inokobod', 'exact'],
    ['Inokobd', 'mirabad', 'mirabad/inokobod', 'fuzzy'],
    // Russian-written Uzbek names and their Uzbek spellings
    ['Qatortol', undefined, 'chilanzar/katartal', 'alias'],
    ['Катартал', 'chilanzar', 'chilanzar/katartal', 'exact'],
    ['Yunus Rajabiy', 'yakkasaray', 'yakkasaray/yunus-rajabi', 'alias'],
    ['Юнус Ражабий', undefined, 'yakkasaray/yunus-rajabi', 'alias'],
    ["Ko'hna Cho'ponota", 'uchtepa', 'uchtepa/kuxna-chapanata', 'alias'],
    ['Mirobod', 'mirabad', 'mirabad/mirabad', 'alias'],
    ['Axmad Yassaviy', undefined, 'yashnabad/axmad-yassaviy', 'exact'],
    ['Ahmad Yassaviy', undefined, 'yashnabad/axmad-yassaviy', 'alias'],
    // the English MT's spellings
    ['Makhalinsky gathering of citizens of Qatartal', 'chilanzar', 'chilanzar/katartal', 'alias'],
    ['Kitik Hirmantep', 'chilanzar', 'chilanzar/kichik-xirmantepa', 'alias'],
    ['Begobors', 'yunusabad', 'yunusabad/begubor', 'alias'],
    ['Diyrabad', undefined, 'uchtepa/diyorabad', 'alias'],
  ])('%j in %s → %s (%s)', (text, district, id, via) => {
    expect(matchMahalla(text, district)).toEqual({ id, name: expect.any(String), district: id.split('/')[0], via });
  });

  test('a name in several districts needs the district', () => {
    expect(matchMahalla('Aktepa')).toBeNull();
    expect(matchMahalla('Aktepa', 'chilanzar')?.id).toBe('chilanzar/ak-tepa');
    expect(matchMahalla('Aktepa', 'yunusabad')?.id).toBe('yunusabad/aktepa');
  });

  test("with a district, another district's mahalla is not returned", () => {
    expect(matchMahalla('Inokobod', 'chilanzar')).toBeNull();
    expect(matchMahalla('Inokobod')?.district).toBe('mirabad');
  });

  test.each(['', 'Paris', 'махаллинский сход граждан', 'Qwerty'])('%j → null', (text) => {
    expect(matchMahalla(text)).toBeNull();
  });

  test('names are Uzbek Latin, capitalised', () => {
    expect(matchMahalla('Инокобод')?.name).toBe('Inokobod');
    expect(matchMahalla('Катта Чиланзар-3')?.name).toBe('Katta Chilanzar-3');
    expect(matchMahalla('Маърифат')?.name).toBe("Ma'rifat");
  });

  test('mahallasOf lists one district, most listed first', () => {
    const mirabad = mahallasOf('mirabad');
    expect(mirabad.length).toBeGreaterThan(20);
    expect(mirabad.every((m) => m.district === 'mirabad' && m.id.startsWith('mirabad/'))).toBe(true);
    expect(mirabad[0].name).toBe('Inokobod');
    const counts = mirabad.map((m) => m.listings);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  test('mahallaInAddress reads the forms the listing sites use', () => {
    expect(mahallaInAddress('город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал'))
      .toEqual({ district: 'mirabad', mahalla: 'Инокобод' });
    expect(mahallaInAddress('город Ташкент, Учтепинский район, Чиланзар 13-й квартал махалля Кухна-Чупонота'))
      .toEqual({ district: 'uchtepa', mahalla: 'Кухна-Чупонота' });
    expect(mahallaInAddress('город Ташкент, Яккасарайский район, Ракат махалля')).toEqual({ district: 'yakkasaray', mahalla: 'Ракат' });
    expect(mahallaInAddress('город Ташкент, Яккасарайский район, массив Кушбеги')).toBeNull();
    expect(mahallaInAddress('Ташкентская область, Газалкент, Dahana mahalla fuqarolar yig\'ini')).toBeNull();
  });
});

describe('matchRenovation', () => {
  test.each([
    ['Евроремонт', 'euro'], ['Euro renovation', 'euro'], ['Evro', 'euro'], ["Evro ta'mir", 'euro'], ['Евро таъмир', 'euro'],
    ['Yevroremont', 'euro'], ['euro', 'euro'], ['Авторский проект', 'designer'], ["Author's design", 'designer'],
    ['Author’s design', 'designer'], ['Mualliflik loyihasi', 'designer'], ['Муаллифлик лойиҳаси', 'designer'], ['designer', 'designer'],
    ['Yaxshi', 'good'], ['Яхши', 'good'], ['good', 'good'], ['Средний', 'average'], ['Medium', 'average'], ["O'rtacha", 'average'],
    ['Oʻrtacha', 'average'], ['Ўртача', 'average'], ['average', 'average'], ['Требует ремонта', 'needs_repair'],
    ['Requires repairs', 'needs_repair'], ["Ta'mir talab", 'needs_repair'], ['Таъмир талаб', 'needs_repair'],
    ['needs repair', 'needs_repair'], ['needs_repair', 'needs_repair'], ['Черновая отделка', 'rough'], ['Rough finish', 'rough'],
    ['Qora suvoq', 'rough'], ['Қора сувоқ', 'rough'], ['rough', 'rough'], ['Предчистовая отделка', 'pre_finish'],
    ['Tozalashdan avvalgi pardoz', 'pre_finish'], ['Тозалашдан аввалги пардоз', 'pre_finish'], ['pre-finish', 'pre_finish'],
    // typos
    ['Евроремнт', 'euro'], ['Evroremnt', 'euro'], ['Sredniy', 'average'], ['Ortacha', 'average'], ['Rough finsh', 'rough'],
    ['Desinger', 'designer'],
  ])('%j → %s', (text, code) => {
    expect(matchRenovation(text)).toBe(code);
  });

  test.each(['', 'None', 'Paris', 'xyz', 'Евро-окна'])('%j → null', (text) => {
    expect(matchRenovation(text)).toBeNull();
  });
});

describe('matchBuildingType', () => {
  test.each([
    ['Панельный', 'panel'], ['Panel', 'panel'], ['Panelli', 'panel'], ['Панелли', 'panel'], ['Кирпичный', 'brick'], ['Brick', 'brick'],
    ["G'ishtli", 'brick'], ['Gʻishtli', 'brick'], ['Gishtli', 'brick'], ['Ғиштли', 'brick'], ['Гиштли', 'brick'],
    ['Монолитный', 'monolith'], ['Monolythic', 'monolith'], ['Monolithic', 'monolith'], ['Monolit', 'monolith'], ['Монолит', 'monolith'],
    ['Блочный', 'block'], ['Block', 'block'], ['Blokli', 'block'], ['Блокли', 'block'], ['Деревянный', 'wood'], ['Wood', 'wood'],
    ["Yog'och", 'wood'], ['Ёғоч', 'wood'], ['Другое', 'other'], ['Other', 'other'], ['Boshqa', 'other'], ['Бошқа', 'other'],
    // typos and transliterated Russian
    ['Kirpichnyy', 'brick'], ['Brik', 'brick'], ['Panell', 'panel'], ['Монолитны', 'monolith'], ['Blokly', 'block'],
  ])('%j → %s', (text, code) => {
    expect(matchBuildingType(text)).toBe(code);
  });

  test.each(['', 'None', 'No material', 'Glass', 'Paris'])('%j → null', (text) => {
    expect(matchBuildingType(text)).toBeNull();
  });
});

describe('matchBathroom', () => {
  test.each([
    ['Раздельный', 'separate'], ['Санузел раздельный', 'separate'], ['alohida', 'separate'], ['Алоҳида', 'separate'],
    ['separate', 'separate'], ['Seperate', 'separate'], ['Совмещенный', 'combined'], ['Совмещённый', 'combined'], ['birga', 'combined'],
    ['Бирга', 'combined'], ['combined', 'combined'], ['Combnied', 'combined'], ['2 санузла и более', 'two_plus'], ['2+', 'two_plus'],
    ['two or more', 'two_plus'], ['Two or more', 'two_plus'],
  ])('%j → %s', (text, code) => {
    expect(matchBathroom(text)).toBe(code);
  });

  test.each(['', 'No bathroom', '3', '1', 'Paris'])('%j → null', (text) => {
    expect(matchBathroom(text)).toBeNull();
  });
});

describe('parseYesNo', () => {
  test.each<[string | boolean, boolean]>([
    ['ha', true], ['Ha', true], ['ҳа', true], ["yo'q", false], ['yoʻq', false], ['yoq', false], ['йўқ', false], ['Йўқ', false],
    ['да', true], ['Да', true], ['нет', false], ['Нет', false], ['yes', true], ['YES', true], ['no', false], ['No', false],
    ['true', true], ['false', false], ['1', true], ['0', false], [true, true], [false, false],
    ['Мебель', true], ['No furniture', false], ['Лифт', true], ['no lift', false], ['Санузел раздельный', true], ['No bathroom', false],
    ['No video_monitor', false], ['Парковочное место', true], ['без мебели', false],
  ])('%j → %s', (value, expected) => {
    expect(parseYesNo(value)).toBe(expected);
  });

  test.each(['', 'Paris', 'maybe', '2', 'nope'])('%j → null', (value) => {
    expect(parseYesNo(value)).toBeNull();
  });
});

describe('every label in the listing files maps to a code', () => {
  const expectAllMapped = (labels: string[], match: (label: string) => unknown) => {
    const unmapped = labels.filter((label) => !isPlaceholder(label) && match(label) === null);
    expect(unmapped).toEqual([]);
  };

  test('district columns', () => {
    const columns: [string, string][] = [
      ['listings/olx_apartments_2021.csv', 'district'],
      ['listings/olx_apartments_2021_geocoded.csv', 'district'],
      ['listings/olx_apartments_2024.csv', 'district'],
      ['listings/uybor_apartments_2025_en.csv', 'district'],
    ];
    for (const [file, column] of columns) expectAllMapped(distinct(readCsv(file), column), matchDistrict);
  });

  test('district column and address agree in the 2021 files', () => {
    for (const [file, address] of [['listings/olx_apartments_2021.csv', 'location'], ['listings/olx_apartments_2021_geocoded.csv', 'address']]) {
      const disagree = readCsv(file).filter((row) => matchDistrict(row.district)?.id !== districtInAddress(row[address])?.id);
      expect(disagree).toEqual([]);
    }
  });

  test('every Tashkent address of the uybor files names a district', () => {
    for (const [file, column] of [
      ['listings/uybor_apartments_2025.csv', 'Address'],
      ['listings/uybor_apartments_2025_b.csv', 'addresses'],
      ['listings/uybor_houses_2025.csv', 'Address'],
    ]) {
      const districtParts = distinct(readCsv(file), column)
        .filter((address) => address.startsWith('город Ташкент'))
        .map((address) => address.split(',')[1]?.trim() ?? '')
        // the 14th district (Новый Ташкент) has no code yet
        .filter((part) => part !== '' && part !== 'Новый Ташкентский район');
      expectAllMapped([...new Set(districtParts)], districtInAddress);
    }
  });

  test('renovation, building type and bathroom columns', () => {
    const columns: [string, string, (label: string) => unknown][] = [
      ['listings/uybor_apartments_2025.csv', 'Condition', matchRenovation],
      ['listings/uybor_apartments_2025_b.csv', 'renovations', matchRenovation],
      ['listings/uybor_apartments_2025_en.csv', 'renovation', matchRenovation],
      ['listings/uybor_houses_2025.csv', 'Condition', matchRenovation],
      ['listings/olx_apartments_2024.csv', 'repairType', matchRenovation],
      ['listings/uybor_apartments_2025.csv', 'Material', matchBuildingType],
      ['listings/uybor_apartments_2025_b.csv', 'materials', matchBuildingType],
      ['listings/uybor_apartments_2025_en.csv', 'materials', matchBuildingType],
      ['listings/uybor_houses_2025.csv', 'Material', matchBuildingType],
      ['listings/olx_apartments_2024.csv', 'buildingType', matchBuildingType],
      ['listings/olx_apartments_2024.csv', 'bathroom', matchBathroom],
      ['listings/uybor_apartments_2025_b.csv', 'bathrooms', matchBathroom],
    ];
    for (const [file, column, match] of columns) {
      const labels = distinct(readCsv(file), column);
      expect(labels.filter((l) => !isPlaceholder(l)).length).toBeGreaterThan(0);
      expectAllMapped(labels, match);
    }
  });

  test('yes/no columns, placeholders included', () => {
    const uybor = ['Lift', 'Security', 'Internet', 'Playground', 'Sewerage', 'Separate Bathrooms', 'Furniture', 'Gas'];
    const uyborB = ['lifts', 'securities', 'internets', 'playgrounds', 'sewerages', 'bathrooms', 'video_monitor', 'parking_spaces', 'air_conditions', 'furnitures'];
    const columns: [string, string[]][] = [
      ['listings/uybor_apartments_2025.csv', uybor],
      ['listings/uybor_houses_2025.csv', uybor],
      ['listings/uybor_apartments_2025_b.csv', uyborB],
      ['listings/olx_apartments_2024.csv', ['setOfFurniture', 'comission']],
    ];
    for (const [file, names] of columns) {
      const rows = readCsv(file);
      for (const column of names) {
        const unparsed = distinct(rows, column).filter((label) => label !== '' && parseYesNo(label) === null);
        expect([column, unparsed]).toEqual([column, []]);
      }
    }
  });
});

describe('mahalla gazetteer', () => {
  const uyborFiles: [string, string][] = [
    ['listings/uybor_apartments_2025.csv', 'Address'],
    ['listings/uybor_apartments_2025_b.csv', 'addresses'],
    ['listings/uybor_houses_2025.csv', 'Address'],
  ];

  test('has mahallas for every district of the uybor files', () => {
    const districts = new Set<DistrictId>();
    for (const [file, column] of uyborFiles) {
      for (const row of readCsv(file)) {
        const district = districtInAddress(row[column] ?? '');
        if (district !== null) districts.add(district.id);
      }
    }
    expect(districts.size).toBe(12);
    for (const district of districts) expect([district, mahallasOf(district).length > 0]).toEqual([district, true]);
  });

  test('every mahalla named in a uybor or olx address is found in its district, by name or alias', () => {
    for (const [file, column] of [...uyborFiles, ['listings/olx_apartments_2021.csv', 'location']]) {
      for (const address of distinct(readCsv(file), column)) {
        const found = mahallaInAddress(address);
        if (found === null) continue;
        const match = matchMahalla(found.mahalla, found.district);
        expect([found.mahalla, match?.district, match?.via === 'fuzzy']).toEqual([found.mahalla, found.district, false]);
      }
    }
  });

  test('the committed mahallas.json is what the generator makes from the data', () => {
    const committed = JSON.parse(readFileSync(GAZETTEER_PATH, 'utf8'));
    const { gazetteer } = buildGazetteer();
    expect(committed).toEqual(gazetteer);
    expect(committed.generated).toContain('models/vocabulary/build-gazetteer.ts');
    const ids = gazetteer.mahallas.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
