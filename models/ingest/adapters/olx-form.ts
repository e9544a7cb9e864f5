/**
 * olx.uz's apartment ad as its scrapes write it (olx_2021, olx_2024): the district in a column of its
 * own, price, total area, rooms, floor and the building's floors. One reader; each file's adapter says
 * where its cells stand and what else it carries.
 */
import type { RawRow } from '../csv';
import type { Normaliser } from '../normaliser';
import { parseCount } from '../parse';
import type { Correction } from '../reasons';
import type { ListingSource } from '../record';
import { sourceFile } from '../sources';
import { isDrop, listingRecord, priceAndArea, type RowFields, type SourceAdapter } from './adapter';

/** The ad's cells every olx file has, by the file's column names. */
export interface OlxFormColumns {
  district: string;
  price: string;
  area: string;
  rooms: string;
  floor: string;
  totalFloors: string;
}

/** What a file's row says beyond the shared cells, and what reading it corrected. */
export interface OlxDetails {
  fields: Omit<Partial<RowFields>, 'priceUsd' | 'district' | 'area' | 'rooms' | 'floor' | 'totalFloors'>;
  corrections: Correction[];
}

/** How one file writes the ad. */
export interface OlxFormLayout {
  source: ListingSource;
  columns: OlxFormColumns;
  /** False for a row the file places outside the city by more than its district column (default: every row is in). */
  inTashkent?(row: RawRow): boolean;
  details(row: RawRow): OlxDetails;
}

export function createOlxFormAdapter(normaliser: Normaliser, layout: OlxFormLayout): SourceAdapter {
  const file = sourceFile(layout.source);
  const { columns } = layout;
  return {
    file,
    adapt(row, sourceRow) {
      if (layout.inTashkent && !layout.inTashkent(row)) return { drop: 'outside_tashkent' };
      const district = normaliser.district(row[columns.district]);
      if (district === null) return { drop: 'unknown_district' };
      const price = priceAndArea(row[columns.price], row[columns.area], file.period);
      if (isDrop(price)) return price;
      const details = layout.details(row);
      return {
        record: listingRecord(file, sourceRow, {
          priceUsd: price.priceUsd,
          district,
          area: price.area,
          rooms: parseCount(row[columns.rooms]),
          floor: parseCount(row[columns.floor]),
          totalFloors: parseCount(row[columns.totalFloors]),
          ...details.fields,
        }),
        corrections: [...price.corrections, ...details.corrections],
      };
    },
  };
}
