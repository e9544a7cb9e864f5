/**
 * uybor_listings_2023_10.csv (uybor.uz, October 2023): one scrape of apartments, houses and land
 * together, with only price, price per unit, area, floors and a Russian address; no rooms column.
 *
 * What a row is, read from its cells:
 * - apartment: "53.3 м²" and a floor pair "8/12";
 * - house: "4 сот." (the plot) and "250 м²" (the floor area) → a house record (the house model's rows);
 * - land: a price per сотка and no floor area → not a home.
 * When the area cell is empty the scraper shifted the cells: the floor pair sits in "Square" and the
 * renovation in "Floors"; the area is then the price divided by the price per m². A single number in
 * "Square" there is a house's storeys.
 */
import type { Normaliser } from '../normaliser';
import { parseArea, parseCount, parseFloorPair, parseLandAreaSotka, parseMoney, parseNumber } from '../parse';
import type { Correction } from '../reasons';
import type { ListingRecord } from '../record';
import { sourceFile } from '../sources';
import { fileFields, isDrop, locateRussianAddress, type SourceAdapter } from './adapter';

const PER_M2 = /у\.\s*е\.\s*\/\s*м²\s*$/;
const PER_SOTKA = /у\.\s*е\.\s*\/\s*сот\.?\s*$/;

export function createUybor2023Adapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_2023');
  return {
    file,
    adapt(row, sourceRow) {
      const location = locateRussianAddress(row['Adress'], normaliser);
      if (isDrop(location)) return location;
      const money = parseMoney(row['Price']);
      if (money === null) return { drop: 'no_price' };
      const unitPrice = row['Prices per m2'];
      const square = row['Square'].trim();
      const base = {
        ...fileFields(file, sourceRow),
        priceUsd: money.amount, // every price in the file is у.е.
        ...location,
        furniture: null, bathroom: null, market: null, seller: null, amenities: null, lat: null, lon: null,
      } satisfies Partial<ListingRecord>;
      const none = { rooms: null, renovation: null, buildingType: null } as const;

      const land = parseLandAreaSotka(square);
      if (land !== null || PER_SOTKA.test(unitPrice)) {
        const floorArea = parseArea(row['Floors']);
        if (land === null || floorArea === null) return { drop: 'not_residential' };
        return { record: { ...base, ...none, propertyType: 'house', area: floorArea, landAreaSotka: land, floor: null, totalFloors: null }, corrections: [] };
      }

      const area = parseArea(square);
      if (area !== null && /м²/.test(square)) {
        const pair = parseFloorPair(row['Floors']);
        return { record: { ...base, ...none, area, landAreaSotka: null, floor: pair?.floor ?? null, totalFloors: pair?.totalFloors ?? null }, corrections: [] };
      }

      // Shifted cells: the area from price ÷ price per m².
      const perM2 = PER_M2.test(unitPrice) ? parseNumber(unitPrice.replace(PER_M2, '')) : null;
      if (perM2 === null || perM2 <= 0) return { drop: 'no_area' };
      const derived = Math.round((money.amount / perM2) * 10) / 10;
      const corrections: Correction[] = ['area_from_price_per_m2'];
      const renovation = normaliser.renovation(row['Floors']);
      const pair = parseFloorPair(square);
      if (pair) {
        return { record: { ...base, ...none, renovation, area: derived, landAreaSotka: null, floor: pair.floor, totalFloors: pair.totalFloors }, corrections };
      }
      const storeys = parseCount(square);
      if (storeys === null) return { drop: 'no_area' };
      return { record: { ...base, ...none, renovation, propertyType: 'house', area: derived, landAreaSotka: null, floor: null, totalFloors: storeys }, corrections };
    },
  };
}
