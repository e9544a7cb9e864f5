/**
 * Region names the official SOATO tables (data/geo/uz_regions.csv, uz_districts.csv) do not give:
 * English and Russian forms, and towns avtoelon.uz lists that are not district names. Pure data.
 */
import type { RegionId } from '../../../schema/vehicle-codes';

/** English (and the odd Russian) spellings the transliteration folds do not reach. */
export const REGION_ALIASES: Readonly<Record<RegionId, readonly string[]>> = {
  tashkent_city: ['Tashkent', 'Tashkent city'],
  tashkent_region: ['Tashkent region', 'Tashkent oblast'],
  andijan: ['Andijan region'],
  bukhara: ['Bukhara region'],
  fergana: ['Fergana', 'Ferghana', 'Fergana region', 'Ferghana Valley'],
  jizzakh: ['Jizzakh', 'Djizak', 'Jizzakh region'],
  kashkadarya: ['Kashkadarya', 'Kashkadarya region', 'Кашкадарья'],
  khorezm: ['Khorezm', 'Khwarazm', 'Khorezm region', 'Хорезм'],
  namangan: ['Namangan region'],
  navoi: ['Navoi', 'Navoi region'],
  samarkand: ['Samarkand', 'Samarkand region'],
  surkhandarya: ['Surkhandarya', 'Surkhandarya region', 'Сурхандарья'],
  syrdarya: ['Syrdarya', 'Syrdarya region', 'Сырдарья'],
  karakalpakstan: ['Karakalpakstan', 'Republic of Karakalpakstan', 'Каракалпакстан', 'Qoraqalpog‘iston'],
};

/**
 * Towns and settlements on avtoelon.uz's city list that are not SOATO district names, with their
 * region; null where one name is two places (no guess).
 */
export const TOWN_REGIONS: Readonly<Record<string, RegionId | null>> = {
  Keles: 'tashkent_region', // Toshkent tumani
  "G'azalkent": 'tashkent_region', // Bo‘stonliq tumani
  "Xo'jakent": 'tashkent_region', // Bo‘stonliq tumani
  Chorvoq: 'tashkent_region', // Bo‘stonliq tumani
  Eshonguzar: 'tashkent_region', // Zangiota tumani
  Nazarbek: 'tashkent_region', // Zangiota tumani
  Durmen: 'tashkent_region', // Qibray tumani
  Salar: 'tashkent_region', // Qibray tumani
  "Ko'ksaroy": 'tashkent_region',
  Qorasuv: 'andijan', // border town, Andijan region
  // Jizzax tumani's name since 2021.
  'Sharof Rashidov tumani': 'jizzakh',
  // Yangiobod: a Tashkent-region town (Angren) and a district of Jizzakh region; Turkiston: no town of that name here.
  Yangiobod: null,
  Turkiston: null,
};
