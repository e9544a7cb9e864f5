/**
 * Official names (Uzbek Latin, Uzbek Cyrillic, Russian) of Uzbekistan's regions and of every
 * district outside Tashkent city, from the SOATO tables in data/geo. Typo matching weighs them
 * against the Tashkent districts, so that "Nurobod tumani" (Samarkand region) or "Мирзаабадский
 * район" (Sirdaryo) is recognised as a place elsewhere instead of being taken for Mirobod.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from '../paths';

/** SOATO region id of Tashkent city in uz_regions.csv / uz_districts.csv. */
const TASHKENT_CITY_REGION = '11';
const NAME_COLUMNS = ['name_uz', 'name_oz', 'name_ru'] as const;

type SoatoRow = Record<'id' | 'region_id' | (typeof NAME_COLUMNS)[number], string>;
const read = (file: string): SoatoRow[] => parse(readFileSync(join(DATA_DIR, 'geo', file)), { columns: true, bom: true });

const places = [...read('uz_regions.csv'), ...read('uz_districts.csv').filter((row) => row.region_id !== TASHKENT_CITY_REGION)];

export const OTHER_PLACE_NAMES: readonly string[] = places.flatMap((row) => NAME_COLUMNS.map((c) => row[c])).filter((name) => name && name !== 'null');
