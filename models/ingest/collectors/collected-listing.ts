/**
 * What a collector makes of one listing on a site's page: the site's identity for it, its life-cycle
 * facts (posted, bumped, still active) and its asking price as the site wrote it, around the canonical
 * record the ingestion already uses (../record.ts for homes, ../../vehicle/ingest/record.ts for cars).
 * Pure data; the adapters beside this file fill it, platform/collect/ stores it.
 */
import type { VehicleRecord } from '../../vehicle/ingest/record';
import type { ListingRecord } from '../record';

export const COLLECT_SITES = ['uybor', 'olx', 'avtoelon'] as const;
export type CollectSite = (typeof COLLECT_SITES)[number];

export function isCollectSite(text: string): text is CollectSite {
  return (COLLECT_SITES as readonly string[]).includes(text);
}

/** The total asking price in the currency the seller wrote, and in USD at the day's official rate. */
export interface AskingPrice {
  amount: number;
  currency: 'USD' | 'UZS';
  priceUsd: number;
}

export interface CollectedListing {
  site: CollectSite;
  /** The site's own listing id (unique within the site). */
  id: string;
  url: string | null;
  /** ISO time the site says the listing was created, when it says. */
  postedAt: string | null;
  /** ISO time of the last paid or free "raise to the top" (uybor upAt, olx pushup_time, avtoelon lastUpdate). */
  bumpedAt: string | null;
  /** False when the site marks it archived, sold or not live: it counts as removed. */
  active: boolean;
  price: AskingPrice;
  /** The map pin as the site gives it, or null. */
  pin: { lat: number; lon: number } | null;
  /**
   * The site moves the pin by a few kilometres (olx): it may place the district, never the house, so
   * the canonical record carries no coordinates then (the model would read them as exact).
   */
  coordinatesBlurred: boolean;
  /** The canonical home record (flats and houses), else null. */
  home: ListingRecord | null;
  /** The canonical car record, else null. */
  vehicle: VehicleRecord | null;
}

/** A listing the adapter could not turn into a record, and why (a drop reason of the ingestion, or the collector's own). */
export interface SkippedListing {
  site: CollectSite;
  id: string;
  skip: string;
}

export type Collected = CollectedListing | SkippedListing;

export function isSkipped(result: Collected): result is SkippedListing {
  return 'skip' in result;
}
