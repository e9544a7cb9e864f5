/**
 * How each site is walked, as pure functions: which address to ask for next, and what one answer
 * holds. The cursor is plain JSON so a crawl can write it to its checkpoint and resume from it.
 * Fetching, waiting and storing are the platform's (platform/collect/); nothing here does I/O.
 *
 * Paging rules (docs/COLLECTING.md):
 * - uybor: `page` from 1, `limit` ≤ 100, until `page × limit ≥ total` or an empty page; one query per category.
 * - olx: `offset` + `limit` ≤ 50, and an offset over 1,000 answers 400. So each query is a slice
 *   (category × price band); a slice whose total is over what 1,000 + 50 can reach is split in two
 *   price bands before it is walked further.
 * - avtoelon: `page` from 1 while the pager links the next one.
 * A redirect or a 404 answering a page means the query has no more pages: `endOfQuery`.
 */
import type { PropertyType } from '../../vocabulary';
import type { Collected } from './collected-listing';
import type { CollectSite } from './collected-listing';
import { adaptOlxOffer, type OlxAnswer, type OlxOffer } from './olx';
import { parseAvtoelonDetailPage, parseAvtoelonSearchPage, type VehicleAdaptContext } from './avtoelon';
import type { HomeAdaptContext } from './home-fields';
import { adaptUyborListing, UYBOR_CATEGORY, type UyborAnswer } from './uybor';

export interface PageRead<C> {
  listings: Collected[];
  next: C | null;
  /** The query's total as the site states it, when it does. */
  total: number | null;
}

export interface SiteCollector<C = unknown> {
  readonly site: CollectSite;
  first(): C;
  /** Path and query of the page, relative to the site's base address. */
  path(cursor: C): string;
  read(body: string, cursor: C, seenOn: string): PageRead<C>;
  /** Where to go when the site says this query has no such page (redirect, 404). */
  endOfQuery(cursor: C): C | null;
  /** A short description of where the cursor stands, for progress lines. */
  describe(cursor: C): string;
  /**
   * The listing's own page, asked for a listing a completed run missed for the first time: the site
   * may say at once that it is gone (410) or archived, rather than waiting for a second missed run.
   * Absent where the site's listing address is not known (uybor).
   */
  detailPath?(id: string): string;
  readDetail?(status: number, body: string): DetailState;
}

/** What a listing's own page says: still on sale, archived or sold, gone (410), or nothing certain. */
export type DetailState = 'active' | 'inactive' | 'gone' | 'unknown';

export const UYBOR_PAGE_LIMIT = 100;
export const OLX_PAGE_LIMIT = 50;
export const OLX_MAX_OFFSET = 1000;

// ---- uybor ---------------------------------------------------------------------------------

export interface UyborCursor {
  categories: number[];
  category: number; // index into categories
  page: number;
}

export function uyborCollector(home: Omit<HomeAdaptContext, 'seenOn'>, categories: number[] = [UYBOR_CATEGORY.flat, UYBOR_CATEGORY.house]): SiteCollector<UyborCursor> {
  const nextCategory = (cursor: UyborCursor): UyborCursor | null =>
    cursor.category + 1 < cursor.categories.length ? { ...cursor, category: cursor.category + 1, page: 1 } : null;
  return {
    site: 'uybor',
    first: () => ({ categories, category: 0, page: 1 }),
    path(cursor) {
      const query = new URLSearchParams({
        operationType__eq: 'sale',
        category__eq: String(cursor.categories[cursor.category]),
        region__eq: '13',
        isActive__eq: 'true',
        moderationStatus__in: 'approved',
        mode: 'search',
        order: '-createdAt',
        embed: 'category,subCategory,residentialComplex,region,city,district,zone,street,metro',
        page: String(cursor.page),
        limit: String(UYBOR_PAGE_LIMIT),
      });
      return `/api/v1/listings?${query}`;
    },
    read(body, cursor, seenOn) {
      const answer = JSON.parse(body) as UyborAnswer;
      const results = Array.isArray(answer.results) ? answer.results : [];
      const listings = results.map((listing) => adaptUyborListing(listing, { ...home, seenOn }));
      const more = results.length > 0 && cursor.page * UYBOR_PAGE_LIMIT < answer.total;
      return { listings, next: more ? { ...cursor, page: cursor.page + 1 } : nextCategory(cursor), total: answer.total ?? null };
    },
    endOfQuery: nextCategory,
    describe: (cursor) => `category ${cursor.categories[cursor.category]} page ${cursor.page}`,
  };
}

// ---- olx -----------------------------------------------------------------------------------

export interface OlxSlice {
  categoryId: number;
  propertyType: PropertyType;
  /** Price band in the site's filter, inclusive; `to` null is open. */
  priceFrom: number;
  priceTo: number | null;
}

export interface OlxCursor {
  slices: OlxSlice[];
  slice: number;
  offset: number;
}

/**
 * The categories asked for. The ids are our assumption of olx.uz's "flats for sale" and "houses for
 * sale": no public source states them and they could not be checked here; set OLX_CATEGORIES to change.
 */
export const OLX_DEFAULT_CATEGORIES: readonly { categoryId: number; propertyType: PropertyType }[] = [
  { categoryId: 13, propertyType: 'apartment' },
  { categoryId: 1602, propertyType: 'house' },
];
/** The widest band: a flat asks under $10 m. */
const OLX_TOP_PRICE = 10_000_000;

function olxSlicesOf(categories: readonly { categoryId: number; propertyType: PropertyType }[]): OlxSlice[] {
  return categories.map((c) => ({ ...c, priceFrom: 0, priceTo: OLX_TOP_PRICE }));
}

/** A band halved (geometrically: prices are log-spread), or null when it cannot be split further. */
function splitBand(slice: OlxSlice): [OlxSlice, OlxSlice] | null {
  const top = slice.priceTo ?? OLX_TOP_PRICE;
  if (top - slice.priceFrom < 2) return null;
  const middle = Math.max(slice.priceFrom + 1, Math.round(Math.sqrt(Math.max(1, slice.priceFrom) * top)));
  if (middle >= top) return null;
  return [
    { ...slice, priceTo: middle - 1 },
    { ...slice, priceFrom: middle, priceTo: slice.priceTo },
  ];
}

export function olxCollector(home: Omit<HomeAdaptContext, 'seenOn'>, categories = OLX_DEFAULT_CATEGORIES): SiteCollector<OlxCursor> {
  const nextSlice = (cursor: OlxCursor): OlxCursor | null =>
    cursor.slice + 1 < cursor.slices.length ? { ...cursor, slice: cursor.slice + 1, offset: 0 } : null;
  return {
    site: 'olx',
    first: () => ({ slices: olxSlicesOf(categories), slice: 0, offset: 0 }),
    path(cursor) {
      const slice = cursor.slices[cursor.slice];
      const query = new URLSearchParams({
        offset: String(cursor.offset),
        limit: String(OLX_PAGE_LIMIT),
        category_id: String(slice.categoryId),
        region_id: '5',
        city_id: '4',
        sort_by: 'created_at:desc',
        'filter_float_price:from': String(slice.priceFrom),
      });
      if (slice.priceTo !== null) query.set('filter_float_price:to', String(slice.priceTo));
      return `/api/v1/offers/?${query}`;
    },
    read(body, cursor, seenOn) {
      const answer = JSON.parse(body) as OlxAnswer;
      const slice = cursor.slices[cursor.slice];
      const offers = Array.isArray(answer.data) ? answer.data : [];
      const listings = offers.map((offer) => adaptOlxOffer(offer, slice.propertyType, { ...home, seenOn }));
      const total = answer.metadata?.total_elements ?? null;
      if (cursor.offset === 0 && total !== null && total > OLX_MAX_OFFSET + OLX_PAGE_LIMIT) {
        const halves = splitBand(slice);
        if (halves) {
          // This page's offers are kept; the halves are walked from their start (the store de-duplicates).
          const slices = [...cursor.slices.slice(0, cursor.slice), ...halves, ...cursor.slices.slice(cursor.slice + 1)];
          return { listings, next: { slices, slice: cursor.slice, offset: 0 }, total };
        }
      }
      const nextOffset = cursor.offset + OLX_PAGE_LIMIT;
      const more = offers.length > 0 && Boolean(answer.links?.next) && nextOffset <= OLX_MAX_OFFSET && (total === null || nextOffset < total);
      return { listings, next: more ? { ...cursor, offset: nextOffset } : nextSlice(cursor), total };
    },
    endOfQuery: nextSlice,
    detailPath: (id) => `/api/v1/offers/${encodeURIComponent(id)}/`,
    readDetail(status, body) {
      if (status === 410) return 'gone';
      if (status !== 200) return 'unknown';
      try {
        const offer = (JSON.parse(body) as { data?: OlxOffer }).data;
        return offer ? ((offer.status ?? 'active') === 'active' ? 'active' : 'inactive') : 'unknown';
      } catch {
        return 'unknown';
      }
    },
    describe: (cursor) => {
      const slice = cursor.slices[cursor.slice];
      return `category ${slice.categoryId} price ${slice.priceFrom}–${slice.priceTo ?? '∞'} offset ${cursor.offset} (slice ${cursor.slice + 1}/${cursor.slices.length})`;
    },
  };
}

// ---- avtoelon ------------------------------------------------------------------------------

export interface AvtoelonCursor {
  page: number;
}

export function avtoelonCollector(vehicles: Omit<VehicleAdaptContext, 'seenOn'>, searchPath = '/avto/'): SiteCollector<AvtoelonCursor> {
  return {
    site: 'avtoelon',
    first: () => ({ page: 1 }),
    path: (cursor) => `${searchPath}?page=${cursor.page}`,
    read(body, cursor, seenOn) {
      const page = parseAvtoelonSearchPage(body, cursor.page, { ...vehicles, seenOn });
      const next = page.listings.length > 0 && page.nextPage !== null ? { page: page.nextPage } : null;
      return { listings: page.listings, next, total: page.offerCount };
    },
    endOfQuery: () => null,
    describe: (cursor) => `page ${cursor.page}`,
    detailPath: (id) => `/a/show/${encodeURIComponent(id)}`,
    readDetail(status, body) {
      if (status === 410) return 'gone';
      if (status !== 200) return 'unknown';
      const detail = parseAvtoelonDetailPage(body);
      return detail === null ? 'unknown' : detail.active ? 'active' : 'inactive';
    },
  };
}
