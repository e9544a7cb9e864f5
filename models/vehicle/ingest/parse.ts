/**
 * Parsing of the cells avtoelon.uz writes: mileage, "engine (fuel)", model names with the fuel
 * glued on. Pure functions of the cell text; numbers are read by the residential parser.
 */
import { isBlank, parseNumber } from '../../ingest/parse';
import { normaliseFuel, type Fuel } from '../vocabulary';
import { MILEAGE_KM } from './limits';

const KM_UNIT = /\s*(?:km|км)\s*$/i;

/** "66 000 km" → 66000; blank or unreadable → null. */
export function parseMileage(text: string): number | null {
  if (isBlank(text)) return null;
  return parseNumber(text.replace(KM_UNIT, ''));
}

/** 777, 7 777, 999 999 km: what sellers type when the form wants a mileage they will not give. */
export function isPlaceholderMileage(km: number): boolean {
  const digits = String(km);
  return digits.length >= MILEAGE_KM.placeholderMinDigits && /^(\d)\1+$/.test(digits);
}

export interface EngineCell {
  litres: number | null;
  fuel: Fuel | null;
}

const ENGINE_CELL = /^\s*([\d.,]*)\s*(?:\(([^)]*)\))?\s*$/;

/** "1.3 (Gaz-benzin)" → 1.3 l, gas-petrol; "1.5" or "(Benzin)" → what is there; anything else → nulls. */
export function parseEngineCell(text: string): EngineCell {
  const match = ENGINE_CELL.exec(text ?? '');
  if (match === null) return { litres: null, fuel: null };
  return {
    litres: match[1] === '' ? null : parseNumber(match[1]),
    fuel: match[2] === undefined ? null : normaliseFuel(match[2]),
  };
}

/** Where a capital follows a small letter: the joints of "GentraGaz-benzin", "TrackerPremier". */
const CAMEL_JOINT = /(?<=\p{Ll})(?=\p{Lu})/u;

/**
 * "GentraGaz-benzin" → Gentra + gas-petrol: the 2023 scrape glued the fuel to some model names.
 * Splits at the last joint whose tail is a fuel name; null when none is.
 */
export function splitGluedFuel(name: string): { model: string; fuel: Fuel } | null {
  const parts = name.trim().split(CAMEL_JOINT);
  for (let i = parts.length - 1; i >= 1; i--) {
    const fuel = normaliseFuel(parts.slice(i).join(''));
    if (fuel !== null) return { model: parts.slice(0, i).join(''), fuel };
  }
  return null;
}
