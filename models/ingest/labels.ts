/**
 * Source labels that are not vocabulary names (those go through models/vocabulary): what each site
 * writes for room counts, sellers, markets and "nothing here". Pure data.
 */
import type { Market, SellerType } from '../vocabulary';

/** Cell values that mean "not filled in": uybor writes "None" (condition, material) and "No material". */
export const BLANK_VALUES: ReadonlySet<string> = new Set(['', 'none', 'no material']);

/** Room-count words; an open plan has no room count. */
export const ROOM_WORDS: Readonly<Record<string, number | null>> = {
  'студия': 1,
  'свободная планировка': null,
};

/** olx "type": who placed the ad. */
export const OLX_SELLER_LABELS: Readonly<Record<string, SellerType>> = {
  'Частное лицо': 'owner',
  'Бизнес': 'agency',
};

/** olx "housingType": primary (new build) or secondary market. */
export const OLX_MARKET_LABELS: Readonly<Record<string, Market>> = {
  'Новостройки': 'new',
  'Вторичный рынок': 'resale',
};

/** Prices that are not prices. */
export const NEGOTIABLE_PRICE_WORDS: ReadonlySet<string> = new Set(['договорная']);
