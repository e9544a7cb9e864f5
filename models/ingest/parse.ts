/**
 * Parsing of the scalar cells the listing sites write: prices, areas, floors, counts.
 * Pure functions of the cell text; nothing here knows which source a cell came from.
 */
import { BLANK_VALUES, NEGOTIABLE_PRICE_WORDS, ROOM_WORDS } from './labels';
import { uzsToUsd } from '../currency';

export type Currency = 'USD' | 'UZS';
export interface Money {
  amount: number;
  currency: Currency;
}
export interface FloorPair {
  floor: number;
  totalFloors: number;
}

// Thousands are grouped with ordinary, no-break or narrow no-break spaces ("83 875.2", "1 000").
const GROUP_SPACES = /[\s\u00a0\u202f]+/g;
const DECIMAL = /^\d+(?:\.\d+)?$/;

export function isBlank(text: string | undefined | null): boolean {
  return text === undefined || text === null || BLANK_VALUES.has(text.trim().toLowerCase());
}

/** "83 875.2" → 83875.2, "60,35" → 60.35; anything that is not a plain non-negative number → null. */
export function parseNumber(text: string): number | null {
  const compact = text.replace(GROUP_SPACES, '').replace(',', '.');
  return DECIMAL.test(compact) ? Number(compact) : null;
}

/** A number followed by an optional unit: "68.29 м²", "6.36 сот.", "70". */
function parseMeasure(text: string, unit: RegExp): number | null {
  if (isBlank(text)) return null;
  return parseNumber(text.replace(unit, ''));
}

/** Floor area in m²: "68.29 м²", "26", "1 000". */
export function parseArea(text: string): number | null {
  return parseMeasure(text, /\s*(?:м²|м2|кв\.?\s*м\.?)\s*$/i);
}

/** Land area in sotka (100 m²): "6.36 сот.". */
export function parseLandAreaSotka(text: string): number | null {
  return parseMeasure(text, /\s*сот(?:\.|ок|ки|ка)?\s*$/i);
}

/** A whole count, where "6+" (the sites' top bucket) counts as 6. */
export function parseCount(text: string): number | null {
  if (isBlank(text)) return null;
  const value = parseNumber(text.trim().replace(/\+$/, ''));
  return value !== null && Number.isInteger(value) ? value : null;
}

/** Rooms: digits, "6+", or a word ("Студия" = 1 room; an open plan has no count). */
export function parseRooms(text: string): number | null {
  const word = text.trim().toLowerCase();
  if (word in ROOM_WORDS) return ROOM_WORDS[word];
  return parseCount(text);
}

/** uybor_2025_b writes floor and building height together: "9/12". */
export function parseFloorPair(text: string): FloorPair | null {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  return match ? { floor: Number(match[1]), totalFloors: Number(match[2]) } : null;
}

const USD_UNIT = /\s*у\.\s*е\.\s*$/i;
const UZS_UNIT = /\s*сум\s*$/i;

/**
 * An asking price: "83 875.2 у.е." (у.е. = USD), "32 000 сум", or a bare number in USD (the English
 * uybor file and olx 2021). "Договорная" (negotiable) and blanks have no price.
 */
export function parseMoney(text: string): Money | null {
  if (isBlank(text) || NEGOTIABLE_PRICE_WORDS.has(text.trim().toLowerCase())) return null;
  const currency: Currency = UZS_UNIT.test(text) ? 'UZS' : 'USD';
  const amount = parseNumber(text.replace(currency === 'UZS' ? UZS_UNIT : USD_UNIT, ''));
  return amount === null ? null : { amount, currency };
}

/** USD at the listing period's official rate. */
export function toUsd(money: Money, period: string): number {
  return money.currency === 'USD' ? money.amount : uzsToUsd(money.amount, period);
}
