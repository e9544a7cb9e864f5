/**
 * The canonical listing record every adapter produces and the trainer consumes.
 * Free text (titles, addresses) never reaches it: it is parsed into codes and dropped.
 */
import type { Bathroom, BuildingType, DistrictId, Market, PropertyType, Renovation, SellerType } from '../vocabulary';

/**
 * A listing file's source, `observations` (an organisation's observed prices, ./observation-listings.ts),
 * or a site the service collects itself (`*_collected`, ./collectors/).
 */
export type ListingSource = 'uybor_2026' | 'uybor_2023' | 'uybor_2025' | 'uybor_2025_b' | 'uybor_2025_en' | 'uybor_houses_2025' | 'olx_2024' | 'olx_2021' | 'observations' | 'uybor_collected' | 'olx_collected';

export interface ListingRecord {
  source: ListingSource;
  sourceRow: number;            // 1-based data row in the file
  period: string;               // 'YYYY-MM' the price was asked: the listing date where the file has one (uybor 2026), else the scrape month
  propertyType: PropertyType;   // 'apartment' | 'house'
  priceUsd: number;
  district: DistrictId;         // rows without a resolvable Tashkent district are dropped
  mahallaId: string | null;
  area: number;                 // total m²
  rooms: number | null;
  floor: number | null;
  totalFloors: number | null;
  landAreaSotka: number | null; // houses
  renovation: Renovation | null;
  buildingType: BuildingType | null;
  furniture: boolean | null;
  bathroom: Bathroom | null;
  market: Market | null;        // new | resale
  seller: SellerType | null;    // owner | agency
  amenities: Record<string, boolean> | null; // null when the block was not filled in
  lat: number | null; lon: number | null;
}
