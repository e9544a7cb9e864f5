/**
 * Other names of the 12 Tashkent districts, written as they occur. Matching folds the usual
 * Russian/Uzbek/English spelling differences (schema/translit.ts spellingKey) and drops "район",
 * "tumani", "district", "r-n" and Russian adjective endings (-ский), so Uzbek Cyrillic forms
 * (Чилонзор тумани) and most Russian ones need no entry of their own. Pure data.
 */
import type { DistrictId } from './codes';

export const DISTRICT_ALIASES: Readonly<Record<DistrictId, readonly string[]>> = {
  // Olmzor: typo in olx_apartments_2021_geocoded.csv.
  almazar: ['Olmazor', 'Алмазарский', 'Олмазорский', 'Olmzor'],
  bektemir: ['Бектемирский'],
  chilanzar: ['Chilonzor', 'Чиланзарский'],
  mirabad: ['Mirobod', 'Мирабадский'],
  mirzo_ulugbek: ["Mirzo Ulug'bek", 'Мирзо-Улугбекский'],
  // Sirg'ali is the official Uzbek name (uz_districts.csv); Сергилийский is the geojson's spelling.
  sergeli: ["Sirg'ali", 'Сергелийский', 'Сергилийский'],
  shaykhantakhur: ['Shayxontohur', 'Shayhontohur', 'Шайхантахурский'],
  // "Orthodpinsky district" (uybor_apartments_2025_en.csv, 95 rows) is a machine translation of
  // Учтепинский район: its streets and mahallas are Uchtepa's in the Russian files (26-й квартал:
  // 76 Uchtepa rows, no other district; Диёрабад, Ватан, Бирлик, улица Такачи, Маданият: Uchtepa),
  // and Uchtepa is the one district otherwise absent from that file.
  uchtepa: ['Учтепинский', 'Orthodpinsky'],
  yakkasaray: ['Yakkasaroy', 'Yakkasarai', 'Яккасарайский'],
  yashnabad: ['Yashnobod', 'Яшнабадский', 'Яшнободский', 'Yashnobodsky'],
  yunusabad: ['Yunusobod', 'Юнусабадский'],
  yangihayot: ['Yangikhayat', 'Янгихаётский'],
};

/** Words that say "district" in the languages of the data; they carry no identity. */
export const DISTRICT_WORDS: readonly string[] = ['district', 'район', 'р-н', 'r-n', 'rayon', 'raion', 'tumani', 'tuman'];

/**
 * The city and country around a district, as other sites prefix it ("г. Ташкент, Юнусабадский
 * район", "Toshkent shahri, Chilonzor tumani"): whole words only, so "Новый Ташкентский район"
 * (a district that is not ours) keeps its name.
 */
export const CITY_WORDS: readonly string[] = [
  'tashkent', 'toshkent', 'ташкент', 'тошкент', 'город', 'г', 'shahri', 'shahar', 'ш', 'city',
  'uzbekistan', "o'zbekiston", 'узбекистан', 'ўзбекистон',
];
