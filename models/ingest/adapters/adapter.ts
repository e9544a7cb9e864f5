/**
 * What every source adapter does: turn one raw CSV row into a canonical record, or say why it cannot.
 * Plus the steps most adapters share (price to USD, Russian address to district and mahalla).
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

/**
 * What uybor's amenity block says about furniture and the bathroom (all three uybor layouts):
 * an empty block says nothing, and an unticked "separate bathroom" does not mean a combined one.
 */
export function uyborAmenityFields(amenities: ListingRecord['amenities']): Pick<ListingRecord, 'furniture' | 'bathroom' | 'amenities'> {
  return {
    furniture: amenities === null ? null : amenities.furniture,
    bathroom: amenities?.separate_bathroom ? 'separate' : null,
    amenities,
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
