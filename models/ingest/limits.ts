/** Bounds a real Tashkent listing stays within; the rules using them are in ./clean.ts. Pure data. */
import type { PropertyType } from '../vocabulary';

export const AREA_M2 = { min: 10, max: 1000 };
export const LAND_AREA_SOTKA = { min: 0.5, max: 50 };
export const ROOMS = { min: 1, max: 20 };
export const MIN_PRICE_USD = 5_000;

/**
 * A price under MIN_PRICE_USD inside this range is a price per m² (olx ads say so in the title:
 * "1м²=600 у.е.", "5,6 млн за квадрат"); below it, nothing plausible.
 */
export const PRICE_PER_M2_USD = { min: 200, max: MIN_PRICE_USD };

export interface PropertyLimits {
  maxTotalFloors: number;
  /** m² per room: under 8 no room fits; over the maximum, a 1-room "flat" is a mistyped area or room count. */
  m2PerRoom: { min: number; max: number };
}

export const PROPERTY_LIMITS: Readonly<Record<PropertyType, PropertyLimits>> = {
  // Tashkent's tallest residential towers have 51 floors.
  apartment: { maxTotalFloors: 60, m2PerRoom: { min: 8, max: 120 } },
  // A house's area often includes annexes and terraces, so only the lower bound says anything.
  house: { maxTotalFloors: 5, m2PerRoom: { min: 8, max: Number.POSITIVE_INFINITY } },
};
