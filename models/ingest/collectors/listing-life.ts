/**
 * A listing's life as daily runs see it, and the rules that move it (pure; the files are
 * platform/collect/lifecycle-store.ts):
 * - seen: first and last day seen; a new asking price (amount or currency changed) is appended with
 *   its day and the day's official rate; a new bump time is appended; seen again after a removal,
 *   it is relisted.
 * - removed: marked inactive by the site (archived, sold: `active` false), gone (410), or absent from
 *   two consecutive completed runs of its site (one missed page is not a removal). The removal day is
 *   the first completed run it was absent from, or the day the site said so.
 * - derived (`lifeFacts`): days on market (last seen − listed, listed being the site's posting day
 *   when earlier than first seen), price cuts (each asking price below the one before, in the seller's
 *   currency), and the last asking price before removal: the closest public signal to a sale price.
 */
import type { VehicleRecord } from '../../vehicle/ingest/record';
import type { ListingRecord } from '../record';
import type { CollectedListing, CollectSite } from './collected-listing';

export interface PricePoint {
  day: string;
  amount: number;
  currency: 'USD' | 'UZS';
  priceUsd: number;
  /** The official soʻm per USD of that day. */
  uzsPerUsd: number;
}

export type RemovalReason = 'absent' | 'inactive' | 'gone';

export interface ListingLife {
  key: string; // `${site}:${id}`
  site: CollectSite;
  id: string;
  url: string | null;
  postedAt: string | null;
  firstSeen: string;
  lastSeen: string;
  prices: PricePoint[];
  bumps: string[];
  removed: { day: string; reason: RemovalReason } | null;
  /** Completed runs of its site in a row without it, and the day of the first of them. */
  missedRuns: number;
  firstMissed: string | null;
  /** The run that last saw it. */
  lastRun: string;
  relists: number;
  coordinatesBlurred: boolean;
  pin: { lat: number; lon: number } | null;
  home: ListingRecord | null;
  vehicle: VehicleRecord | null;
  /** The key of the listing on another site it is the same flat as (the one counted), or null. */
  duplicateOf: string | null;
}

export function listingKey(site: CollectSite, id: string): string {
  return `${site}:${id}`;
}

/** Days from `from` to `to`, both 'YYYY-MM-DD'. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** Applies one sighting; returns the life (new or updated in place). */
export function applySighting(life: ListingLife | undefined, listing: CollectedListing, runId: string, day: string, uzsPerUsd: number): ListingLife {
  const price: PricePoint = { day, amount: listing.price.amount, currency: listing.price.currency, priceUsd: listing.price.priceUsd, uzsPerUsd };
  if (!life) {
    life = {
      key: listingKey(listing.site, listing.id),
      site: listing.site,
      id: listing.id,
      url: listing.url,
      postedAt: listing.postedAt,
      firstSeen: day,
      lastSeen: day,
      prices: [price],
      bumps: listing.bumpedAt ? [listing.bumpedAt] : [],
      removed: null,
      missedRuns: 0,
      firstMissed: null,
      lastRun: runId,
      relists: 0,
      coordinatesBlurred: listing.coordinatesBlurred,
      pin: listing.pin,
      home: listing.home,
      vehicle: listing.vehicle,
      duplicateOf: null,
    };
  } else {
    if (day > life.lastSeen) life.lastSeen = day;
    if (day < life.firstSeen) life.firstSeen = day;
    life.lastRun = runId;
    life.missedRuns = 0;
    life.firstMissed = null;
    if (life.removed && listing.active) {
      life.removed = null;
      life.relists++;
    }
    const last = life.prices[life.prices.length - 1];
    if (last.amount !== price.amount || last.currency !== price.currency) life.prices.push(price);
    if (listing.bumpedAt && !life.bumps.includes(listing.bumpedAt)) life.bumps.push(listing.bumpedAt);
    life.url = listing.url ?? life.url;
    life.postedAt = life.postedAt ?? listing.postedAt;
    life.pin = listing.pin ?? life.pin;
    life.home = listing.home ?? life.home;
    life.vehicle = listing.vehicle ?? life.vehicle;
  }
  if (!listing.active && !life.removed) life.removed = { day, reason: 'inactive' };
  return life;
}

/** The site answered that the listing is gone (410) or no longer live. */
export function applyGone(life: ListingLife, day: string, reason: RemovalReason): void {
  if (!life.removed) life.removed = { day, reason };
}

/** A completed run of the listing's site that did not see it. */
export function applyMissedRun(life: ListingLife, day: string): void {
  if (life.removed) return;
  life.missedRuns++;
  if (life.missedRuns === 1) life.firstMissed = day;
  if (life.missedRuns >= 2) life.removed = { day: life.firstMissed ?? day, reason: 'absent' };
}

export interface LifeFacts {
  listedOn: string;
  daysOnMarket: number;
  priceCuts: number;
  /** The total cut from the first asking price, in USD at each day's rate (negative: raised). */
  cutUsd: number;
  lastAskingPrice: PricePoint;
  removed: boolean;
}

export function lifeFacts(life: ListingLife): LifeFacts {
  const posted = life.postedAt?.slice(0, 10);
  const listedOn = posted && posted < life.firstSeen ? posted : life.firstSeen;
  let priceCuts = 0;
  for (let i = 1; i < life.prices.length; i++) {
    const before = life.prices[i - 1];
    const now = life.prices[i];
    const lower = before.currency === now.currency ? now.amount < before.amount : now.priceUsd < before.priceUsd;
    if (lower) priceCuts++;
  }
  const first = life.prices[0];
  const last = life.prices[life.prices.length - 1];
  return {
    listedOn,
    daysOnMarket: daysBetween(listedOn, life.lastSeen),
    priceCuts,
    cutUsd: Math.round((first.priceUsd - last.priceUsd) * 100) / 100,
    lastAskingPrice: last,
    removed: life.removed !== null,
  };
}
