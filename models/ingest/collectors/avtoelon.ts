/**
 * avtoelon.uz's HTML pages (docs/COLLECTING.md; recorded pages in ../shared/fixtures/avtoelon/):
 *
 * - A search page holds up to 20 cards `div.a-elem[data-id]`, each preceded by a script
 *   `listing.items.push({...})` whose JSON has `attributes{brand,model}`, `lastUpdate` (bumped),
 *   `status` (`live`), `unitPrice` (USD) and `url`. The card adds what the JSON lacks: the year
 *   (`.year`), "1.5 л, Бензин, 98 000 км, Седан, КПП Автомат, …" (`.desc`), the trim in the title
 *   ("Chevrolet Cobalt, 4 позиция") and the region. The pager links the next page.
 * - A detail page (`/a/show/{id}`) says whether the car is still on sale: its inline `var data`
 *   has `advert{id, price, storage, isLive}`; the title is `h1.a-title__text`, the specs a
 *   `dl.description-params` of `dt.value-title`/`dd.value`.
 */
import { parse, type HTMLElement } from 'node-html-parser';
import type { VehicleLookups } from '../../vehicle/ingest/lookups';
import type { VehicleRecord } from '../../vehicle/ingest/record';
import type { Collected } from './collected-listing';
import { dayOf } from './home-fields';

export interface AvtoelonCardScript {
  attributes?: { brand?: string; model?: string };
  lastUpdate?: string;
  status?: string;
  unitPrice?: number;
  url?: string;
}

export interface AvtoelonSearchPage {
  listings: Collected[];
  /** The page number the pager links after the current one, or null on the last page. */
  nextPage: number | null;
  /** The JSON-LD `offerCount`: the search's total, when the page states it. */
  offerCount: number | null;
}

export interface VehicleAdaptContext {
  lookups: VehicleLookups;
  seenOn: string;
}

const PUSH_CALL = /listing\.items\.push\((\{[\s\S]*?\})\);/g;

/** The JSON of each `listing.items.push(...)` call, by listing id (from its url). */
function cardScripts(html: string): Map<string, AvtoelonCardScript> {
  const byId = new Map<string, AvtoelonCardScript>();
  for (const match of html.matchAll(PUSH_CALL)) {
    try {
      const script = JSON.parse(match[1]) as AvtoelonCardScript;
      const id = /\/a\/show\/(\d+)/.exec(script.url ?? '')?.[1];
      if (id) byId.set(id, script);
    } catch {
      // A call the page builds differently is skipped; its card is then skipped as unpriced.
    }
  }
  return byId;
}

function text(element: HTMLElement | null): string {
  return element ? element.text.replace(/\u00a0|&nbsp;/g, ' ').replace(/\s+/g, ' ').trim() : '';
}

/** "1.5 л, Бензин, 98 000 км, Седан, КПП Автомат, Литые диски…" → the fields the form has. */
function descriptionFields(description: string, lookups: VehicleLookups): Pick<VehicleRecord, 'engineLitres' | 'fuel' | 'mileageKm' | 'body' | 'transmission'> {
  const fields: Pick<VehicleRecord, 'engineLitres' | 'fuel' | 'mileageKm' | 'body' | 'transmission'> = {
    engineLitres: null, fuel: null, mileageKm: null, body: null, transmission: null,
  };
  for (const raw of description.split(',')) {
    const token = raw.trim();
    const litres = /^(\d+(?:\.\d+)?)\s*л$/.exec(token);
    const km = /^([\d\s]+)\s*км$/.exec(token);
    if (litres) fields.engineLitres = Number(litres[1]);
    else if (km) fields.mileageKm = Number(km[1].replace(/\s/g, ''));
    else if (/^КПП\s+/i.test(token)) fields.transmission = lookups.transmission(token.replace(/^КПП\s+/i, ''));
    else if (fields.fuel === null && lookups.fuel(token) !== null) fields.fuel = lookups.fuel(token);
    else if (fields.body === null && lookups.body(token) !== null) fields.body = lookups.body(token);
  }
  return fields;
}

function cardListing(card: HTMLElement, script: AvtoelonCardScript | undefined, context: VehicleAdaptContext): Collected {
  const id = card.getAttribute('data-id') ?? '';
  const skip = (reason: string): Collected => ({ site: 'avtoelon', id, skip: reason });
  if (!script || typeof script.unitPrice !== 'number' || !(script.unitPrice > 0)) return skip('no_price');
  const make = context.lookups.make(script.attributes?.brand ?? '');
  if (make === null) return skip('unknown_model');
  const model = context.lookups.model(make, script.attributes?.model ?? '');
  if (model === null) return skip('unknown_model');
  const year = Number(/(\d{4})/.exec(text(card.querySelector('.year')))?.[1]);
  if (!Number.isInteger(year) || year < 1950) return skip('no_year');
  const title = text(card.querySelector('.a-el-info-title'));
  const trim = /(\d)\s*позиция/i.exec(title)?.[1];
  const description = text(card.querySelector('.desc')).replace(/^\d{4}\s*г\.,?\s*/, '');
  const vehicle: VehicleRecord = {
    source: 'avtoelon_collected',
    sourceRow: 0,
    period: context.seenOn.slice(0, 7),
    make,
    model,
    year,
    ...descriptionFields(description, context.lookups),
    drive: null,
    colour: null,
    trim: trim ? Number(trim) : null,
    defects: null,
    region: context.lookups.region(text(card.querySelector('.a-info-text__region'))),
    priceUsd: script.unitPrice,
  };
  return {
    site: 'avtoelon',
    id,
    url: script.url ?? `https://avtoelon.uz/a/show/${id}`,
    postedAt: null, // the card says "11 ноября" without a year; first seen stands in
    bumpedAt: dayOf(script.lastUpdate) ? script.lastUpdate! : null,
    active: (script.status ?? 'live') === 'live',
    price: { amount: script.unitPrice, currency: 'USD', priceUsd: script.unitPrice },
    pin: null,
    coordinatesBlurred: false,
    home: null,
    vehicle,
  };
}

/** The pager's link to `current + 1`, if any. */
function nextPageOf(root: HTMLElement, current: number): number | null {
  for (const link of root.querySelectorAll('.pager a')) {
    const page = Number(/[?&]page=(\d+)/.exec(link.getAttribute('href') ?? '')?.[1]);
    if (page === current + 1) return page;
  }
  return null;
}

export function parseAvtoelonSearchPage(html: string, currentPage: number, context: VehicleAdaptContext): AvtoelonSearchPage {
  const root = parse(html, { blockTextElements: { script: true, style: false, pre: true } });
  const scripts = cardScripts(html);
  const listings = root.querySelectorAll('div.a-elem[data-id]').map((card) => cardListing(card, scripts.get(card.getAttribute('data-id') ?? ''), context));
  const offerCount = Number(/"offerCount"\s*:\s*"?(\d+)/.exec(html)?.[1]);
  return { listings, nextPage: nextPageOf(root, currentPage), offerCount: Number.isFinite(offerCount) ? offerCount : null };
}

export interface AvtoelonDetail {
  id: string;
  active: boolean;
  priceUsd: number | null;
  title: string;
  specs: Record<string, string>;
}

/** A detail page: whether the car is still for sale, its price and its spec list. Null when the page has no advert. */
export function parseAvtoelonDetailPage(html: string): AvtoelonDetail | null {
  const advert = /"advert"\s*:\s*(\{[^{}]*\})/.exec(html)?.[1];
  if (!advert) return null;
  let data: { id?: number; price?: number; storage?: string; isLive?: boolean };
  try {
    data = JSON.parse(advert);
  } catch {
    return null;
  }
  const root = parse(html);
  const specs: Record<string, string> = {};
  for (const term of root.querySelectorAll('dl.description-params dt.value-title')) {
    const value = term.nextElementSibling;
    if (value && value.tagName === 'DD') specs[text(term)] = text(value);
  }
  return {
    id: String(data.id ?? ''),
    active: data.isLive === true && (data.storage ?? 'live') === 'live',
    priceUsd: typeof data.price === 'number' ? data.price : null,
    title: text(root.querySelector('h1.a-title__text')),
    specs,
  };
}
