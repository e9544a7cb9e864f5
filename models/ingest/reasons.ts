/** Why a row was dropped, and what was changed in a row that was kept. Pure data: code → explanation. */

export const DROP_REASONS = {
  outside_tashkent: 'address outside Tashkent city (Tashkent region, other towns)',
  unknown_district: 'no resolvable Tashkent district',
  no_price: 'no price (negotiable or blank)',
  no_area: 'no parseable total area',
  area_out_of_range: 'total area under 10 or over 1000 m²',
  land_area_out_of_range: 'house plot under 0.5 or over 50 sotka',
  rooms_out_of_range: 'room count under 1',
  rooms_area_mismatch: 'room count impossible for the area',
  floor_above_total: 'floor above the number of floors',
  too_many_floors: 'more floors than the property type allows',
  not_residential: 'land plot or commercial property, not a home',
  house_area_unclear: 'house whose area is neither clearly the floor area nor the land',
  price_below_minimum: 'price under $5,000 and not a price per m²',
  down_payment: 'price per m² far below the city level: a down payment or instalment',
  duplicate_in_file: 'repeat of a listing earlier in the same file',
  fallback_district_copy: 'copy of a listing under the scraper’s fall-back district or street',
  duplicate_across_sources: 'same flat in another scrape; the more complete/recent record kept',
  price_outlier: 'log price per m² outside its district’s median ± k·MAD fence',
} as const;
export type DropReason = keyof typeof DROP_REASONS;

export const CORRECTIONS = {
  price_converted_from_uzs: 'soʻm price converted to USD at the period’s CBU rate',
  price_per_m2_scaled: 'price given per m², multiplied by the area',
  rooms_typo_cleared: 'room count over 20 (digits run together) set to unknown',
  coordinates_joined: 'latitude/longitude joined from the geocoded 2021 file',
  area_from_price_per_m2: 'total area missing, computed from the price and the price per m²',
  district_from_coordinates: 'district missing, taken from the coordinates (district polygons)',
  coordinates_withheld: 'geocode was a shared fall-back point or outside the city; left empty',
} as const;
export type Correction = keyof typeof CORRECTIONS;
