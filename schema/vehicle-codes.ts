/**
 * Canonical codes of the vehicle attributes shared by ingestion, the trainer and the API (the field
 * table ./vehicle-contract.ts lists them as its enums). Pure data: no I/O, no matching logic (that
 * lives in models/vehicle/vocabulary/, which exports these codes with it).
 */

/** Gas-petrol is a petrol car converted to methane or propane, the usual set-up in Uzbekistan. */
export const FUELS = ['petrol', 'gas_petrol', 'diesel', 'electric', 'hybrid'] as const;
export type Fuel = (typeof FUELS)[number];

export const TRANSMISSIONS = ['manual', 'automatic', 'robot', 'cvt'] as const;
export type Transmission = (typeof TRANSMISSIONS)[number];

/** `suv` covers off-roaders and crossovers; `minivan` includes the microvans (Damas class). */
export const BODY_TYPES = [
  'sedan', 'hatchback', 'wagon', 'suv', 'minivan', 'van', 'minibus', 'pickup', 'coupe', 'convertible', 'limousine',
] as const;
export type BodyType = (typeof BODY_TYPES)[number];

export const DRIVES = ['front', 'rear', 'all'] as const;
export type Drive = (typeof DRIVES)[number];

/**
 * Paint condition as avtoelon.uz asks it ("Kraska toza", "Pyatno bor", "Kraskasi bor", "To'liq
 * kraskalangan"): a field of its own beside `condition` (defects). No listing file records it, so
 * the model does not use it yet; the request keeps it and says so.
 */
export const PAINTS = ['original', 'spots', 'repainted_partly', 'fully_repainted'] as const;
export type Paint = (typeof PAINTS)[number];

/**
 * The colours avtoelon.uz offers. "Wet asphalt" and "dolphin" are GM Uzbekistan's paint names and
 * kept apart from grey: buyers ask for them by name.
 */
export const COLOURS = [
  'white', 'black', 'silver', 'grey', 'wet_asphalt', 'dolphin', 'beige', 'blue', 'light_blue', 'red', 'cherry',
  'yellow', 'orange', 'green', 'brown', 'gold', 'bronze', 'purple', 'turquoise', 'chameleon',
] as const;
export type Colour = (typeof COLOURS)[number];

/** The 12 regions, the Republic of Karakalpakstan and Tashkent city (a region of its own, apart from Tashkent region). */
export const REGION_IDS = [
  'tashkent_city', 'tashkent_region', 'andijan', 'bukhara', 'fergana', 'jizzakh', 'kashkadarya', 'khorezm',
  'namangan', 'navoi', 'samarkand', 'surkhandarya', 'syrdarya', 'karakalpakstan',
] as const;
export type RegionId = (typeof REGION_IDS)[number];

/** English display names. */
export const REGION_NAMES: Readonly<Record<RegionId, string>> = {
  tashkent_city: 'Tashkent',
  tashkent_region: 'Tashkent Region',
  andijan: 'Andijan Region',
  bukhara: 'Bukhara Region',
  fergana: 'Fergana Region',
  jizzakh: 'Jizzakh Region',
  kashkadarya: 'Kashkadarya Region',
  khorezm: 'Khorezm Region',
  namangan: 'Namangan Region',
  navoi: 'Navoi Region',
  samarkand: 'Samarkand Region',
  surkhandarya: 'Surkhandarya Region',
  syrdarya: 'Syrdarya Region',
  karakalpakstan: 'Republic of Karakalpakstan',
};

/** SOATO region codes (data/geo/uz_regions.csv, column soato_id) → region. */
export const REGION_BY_SOATO: Readonly<Record<string, RegionId>> = {
  '1726': 'tashkent_city',
  '1727': 'tashkent_region',
  '1703': 'andijan',
  '1706': 'bukhara',
  '1730': 'fergana',
  '1708': 'jizzakh',
  '1710': 'kashkadarya',
  '1733': 'khorezm',
  '1714': 'namangan',
  '1712': 'navoi',
  '1718': 'samarkand',
  '1722': 'surkhandarya',
  '1724': 'syrdarya',
  '1735': 'karakalpakstan',
};
