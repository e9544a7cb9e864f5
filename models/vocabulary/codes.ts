/**
 * Canonical codes shared by ingestion, features, the subgraphs and the REST layer.
 * Pure data: no I/O, no matching logic (that lives in the modules beside it, exported by ./index.ts).
 */

export const DISTRICT_IDS = [
  'almazar', 'bektemir', 'chilanzar', 'mirabad', 'mirzo_ulugbek', 'sergeli',
  'shaykhantakhur', 'uchtepa', 'yakkasaray', 'yashnabad', 'yunusabad', 'yangihayot',
] as const;
export type DistrictId = (typeof DISTRICT_IDS)[number];

/** English display names, as the published reference table spells them. */
export const DISTRICT_NAMES: Readonly<Record<DistrictId, string>> = {
  almazar: 'Almazar',
  bektemir: 'Bektemir',
  chilanzar: 'Chilanzar',
  mirabad: 'Mirabad',
  mirzo_ulugbek: 'Mirzo-Ulugbek',
  sergeli: 'Sergeli',
  shaykhantakhur: 'Shaykhantakhur',
  uchtepa: 'Uchtepa',
  yakkasaray: 'Yakkasaray',
  yashnabad: 'Yashnabad',
  yunusabad: 'Yunusabad',
  yangihayot: 'Yangihayot',
};

/** Renovation (condition) as uybor/olx label it; `good` ("Yaxshi") is accepted from clients but absent from the data. */
export const RENOVATIONS = ['euro', 'designer', 'good', 'average', 'needs_repair', 'pre_finish', 'rough'] as const;
export type Renovation = (typeof RENOVATIONS)[number];

export const BUILDING_TYPES = ['panel', 'brick', 'monolith', 'block', 'wood', 'other'] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number];

export const BATHROOMS = ['separate', 'combined', 'two_plus'] as const;
export type Bathroom = (typeof BATHROOMS)[number];

// What is valued (a flat or a house) is a contract of every door: schema/home-value.ts.
export { PROPERTY_TYPES, type PropertyType } from '../../schema/home-value';

export const MARKETS = ['new', 'resale'] as const;
export type Market = (typeof MARKETS)[number];

export const SELLER_TYPES = ['owner', 'agency'] as const;
export type SellerType = (typeof SELLER_TYPES)[number];
