/**
 * What every source adapter does: turn one raw CSV row into a canonical record, or say why it cannot.
 * Plus the steps most adapters share (price to USD, Russian address to district and mahalla, the
 * record with what a file does not say left null). A site's files share more through its own reader
 * (./uybor-form.ts, ./olx-form.ts).
 */
import type { DistrictId } from '../../vocabulary';
import { isTashkentCityAddress } from '../address';
import type { RawRow } from '../csv';
import type { Normaliser } from '../normaliser';
import { parseArea, parseMoney, toUsd } from '../parse';
import type { Correction, DropReason } from '../reasons';
import type { ListingRecord } from '../record';
import type { SourceFile } from '../sources';

export type Adapted = { record: ListingRecord; corrections: Correction[] } | { drop: DropReason };

export interface SourceAdapter {
  readonly file: SourceFile;
  adapt(row: RawRow, sourceRow: number): Adapted;
}

export function isDrop<T extends object>(result: T | { drop: DropReason }): result is { drop: DropReason } {
  return 'drop' in result;
}

/** The fields fixed by the file rather than the row. */
export function fileFields(file: SourceFile, sourceRow: number): Pick<ListingRecord, 'source' | 'sourceRow' | 'period' | 'propertyType'> {
  return { source: file.source, sourceRow, period: file.period, propertyType: file.propertyType };
}

/** What a row says: the price, district and area always; any other field it leaves out is null. */
export type RowFields = Pick<ListingRecord, 'priceUsd' | 'district' | 'area'> & Partial<Omit<ListingRecord, 'source' | 'sourceRow' | 'priceUsd' | 'district' | 'area'>>;

/** The fields after the area, unsaid: null, in the record's order (../record.ts). */
const UNSAID_AFTER_AREA: Omit<ListingRecord, 'source' | 'sourceRow' | 'period' | 'propertyType' | 'priceUsd' | 'district' | 'mahallaId' | 'area'> = {
  rooms: null, floor: null, totalFloors: null, landAreaSotka: null, renovation: null, buildingType: null,
  furniture: null, bathroom: null, market: null, seller: null, amenities: null, lat: null, lon: null,
};

/**
 * The record of a row, with what the row leaves out null and the period and property type the
 * file's unless the row says otherwise. Its keys stand in the record's order whatever order the row
 * gives its fields in: the row's fields fill them in place.
 */
export function listingRecord(file: SourceFile, sourceRow: number, fields: RowFields): ListingRecord {
  const { priceUsd, district, area, ...said } = fields;
  return { ...fileFields(file, sourceRow), priceUsd, district, mahallaId: null, area, ...UNSAID_AFTER_AREA, ...said };
}

/** The asking price in USD and the total area in m²: a row missing either cannot be valued. */
export interface PriceAndArea {
  priceUsd: number;
  area: number;
  corrections: Correction[];
}

export function priceAndArea(priceText: string, areaText: string, period: string): PriceAndArea | { drop: DropReason } {
  const money = parseMoney(priceText);
  if (money === null) return { drop: 'no_price' };
  const area = parseArea(areaText);
  if (area === null) return { drop: 'no_area' };
  return {
    priceUsd: toUsd(money, period),
    area,
    corrections: money.currency === 'UZS' ? ['price_converted_from_uzs'] : [],
  };
}

export interface Location {
  district: DistrictId;
  mahallaId: string | null;
}

/** "город Ташкент, <district> район, махаллинский сход граждан <mahalla>, …" → codes. */
export function locateRussianAddress(address: string, normaliser: Normaliser): Location | { drop: DropReason } {
  if (!isTashkentCityAddress(address)) return { drop: 'outside_tashkent' };
  const district = normaliser.districtOfAddress(address);
  if (district === null) return { drop: 'unknown_district' };
  return { district, mahallaId: normaliser.mahallaOfAddress(address, district) };
}
