/**
 * uybor.uz's listing form as its Russian-labelled scrapes write it (uybor_2025, uybor_2025_b,
 * uybor_houses_2025): a full Russian address, price, area, rooms, condition and material, the floors
 * and the amenity block. One reader; each file's adapter says where its cells stand and how it
 * writes the floors, the plot and the amenity block.
 */
import type { RawRow } from '../csv';
import type { Normaliser } from '../normaliser';
import { parseRooms } from '../parse';
import type { ListingRecord, ListingSource } from '../record';
import { sourceFile } from '../sources';
import { fileFields, isDrop, locateRussianAddress, priceAndArea, type SourceAdapter } from './adapter';

/** The form's cells every Russian-labelled file has, by the file's column names. */
export interface UyborFormColumns {
  address: string;
  price: string;
  area: string;
  rooms: string;
  renovation: string;
  material: string;
}

/** How one file writes the form. */
export interface UyborFormLayout {
  source: ListingSource;
  columns: UyborFormColumns;
  /** The flat's floor and the building's floors (a house: its storeys, no floor). */
  floors(row: RawRow): Pick<ListingRecord, 'floor' | 'totalFloors'>;
  /** The plot in sotka (houses), else null. */
  landAreaSotka(row: RawRow): number | null;
  amenities(row: RawRow): ListingRecord['amenities'];
}

/**
 * What the amenity block says about furniture and the bathroom: an empty block says nothing, and an
 * unticked "separate bathroom" does not mean a combined one.
 */
function uyborAmenityFields(amenities: ListingRecord['amenities']): Pick<ListingRecord, 'furniture' | 'bathroom' | 'amenities'> {
  return {
    furniture: amenities === null ? null : amenities.furniture,
    bathroom: amenities?.separate_bathroom ? 'separate' : null,
    amenities,
  };
}

export function createUyborFormAdapter(normaliser: Normaliser, layout: UyborFormLayout): SourceAdapter {
  const file = sourceFile(layout.source);
  const { columns } = layout;
  return {
    file,
    adapt(row, sourceRow) {
      const location = locateRussianAddress(row[columns.address], normaliser);
      if (isDrop(location)) return location;
      const price = priceAndArea(row[columns.price], row[columns.area], file.period);
      if (isDrop(price)) return price;
      const { floor, totalFloors } = layout.floors(row);
      return {
        record: {
          ...fileFields(file, sourceRow),
          priceUsd: price.priceUsd,
          ...location,
          area: price.area,
          rooms: parseRooms(row[columns.rooms]),
          floor,
          totalFloors,
          landAreaSotka: layout.landAreaSotka(row),
          renovation: normaliser.renovation(row[columns.renovation]),
          buildingType: normaliser.buildingType(row[columns.material]),
          ...uyborAmenityFields(layout.amenities(row)),
          market: null,
          seller: null,
          lat: null,
          lon: null,
        },
        corrections: price.corrections,
      };
    },
  };
}
