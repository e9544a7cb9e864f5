/**
 * The listing files and what is known about each scrape (from data/README.md). Pure data.
 * Periods are the scrape month: only uybor_2026 carries listing dates (its adapter dates each row by
 * posted_at and falls back to the period here), so for the rest this is the best time stamp there is.
 */
import type { PropertyType } from '../vocabulary';
import type { ListingSource } from './record';

export interface SourceFile {
  source: ListingSource;
  path: string;             // relative to DATA_DIR
  period: string;           // 'YYYY-MM'
  propertyType: PropertyType;
  freeTextColumns: readonly string[]; // scanned for personal data, never copied
}

/** In output order: newest site scrapes first, the 2021 prices (about 40% below today's) last. */
export const SOURCE_FILES: readonly SourceFile[] = [
  // README: "uybor.uz, one snapshot of 21 July 2026; posted_at from 30 June to 21 July 2026". Each
  // row's period is its posted_at month; this is the snapshot's.
  {
    source: 'uybor_2026',
    path: 'listings/uybor_listings_2026_07.csv',
    period: '2026-07',
    propertyType: 'apartment',
    freeTextColumns: ['address'],
  },
  // README: "uybor.uz, early 2025"; February taken as the middle of "early".
  {
    source: 'uybor_2025',
    path: 'listings/uybor_apartments_2025.csv',
    period: '2025-02',
    propertyType: 'apartment',
    freeTextColumns: ['Title', 'Address'],
  },
  // README: "uybor.uz, April 2025".
  {
    source: 'uybor_2025_b',
    path: 'listings/uybor_apartments_2025_b.csv',
    period: '2025-04',
    propertyType: 'apartment',
    freeTextColumns: ['titles', 'addresses'],
  },
  // README: "uybor.uz, mid-2025".
  {
    source: 'uybor_2025_en',
    path: 'listings/uybor_apartments_2025_en.csv',
    period: '2025-06',
    propertyType: 'apartment',
    freeTextColumns: ['street'],
  },
  // README: "uybor.uz, 2025"; same scraper layout (index column, 20 flags) as the early-2025 apartments.
  {
    source: 'uybor_houses_2025',
    path: 'listings/uybor_houses_2025.csv',
    period: '2025-02',
    propertyType: 'house',
    freeTextColumns: ['Title', 'Address'],
  },
  // README: "uybor.uz, October 2023 (one scrape)"; apartments, houses and land mixed.
  {
    source: 'uybor_2023',
    path: 'listings/uybor_listings_2023_10.csv',
    period: '2023-10',
    propertyType: 'apartment',
    freeTextColumns: ['Adress'],
  },
  // README: "olx.uz, spring 2024".
  {
    source: 'olx_2024',
    path: 'listings/olx_apartments_2024.csv',
    period: '2024-04',
    propertyType: 'apartment',
    freeTextColumns: ['title'],
  },
  // README: "olx.uz, February 2021". Kept for location and shape; the trainer decides about its price level.
  {
    source: 'olx_2021',
    path: 'listings/olx_apartments_2021.csv',
    period: '2021-02',
    propertyType: 'apartment',
    freeTextColumns: ['location'],
  },
];

/** The 2021 olx listings again, with latitude and longitude. */
export const OLX_2021_GEOCODED_PATH = 'listings/olx_apartments_2021_geocoded.csv';

export function sourceFile(source: ListingSource): SourceFile {
  const file = SOURCE_FILES.find((f) => f.source === source);
  if (!file) throw new Error(`unknown listing source ${source}`);
  return file;
}
