/**
 * From a client's home valuation input (any spelling, GraphQL field names) to the canonical
 * request the model runtime takes. Used by the residential subgraph and by the valuate CLI,
 * so every surface validates and normalises the same way.
 */
import { ApiError } from '../../schema/errors';
import { checkInputFields, NOT_RECOGNISED, rangeMessage, restFieldName, YES_NO_ACCEPTED } from '../../schema/field-table';
import { parseValuationDate, type ValuationDateRange } from '../../schema/valuation-date';
import { HOME_FIELDS, HOUSE_STOREYS, M2_PER_SOTKA } from '../../schema/home-contract';
import {
  DISTRICT_NAMES, districtInAddress, matchBathroom, matchBuildingType, matchDistrict, matchMahalla, matchRenovation,
  parseYesNo, suggestDistricts, PROPERTY_TYPES, type DistrictMatch, type Market, type PropertyType, type SellerType,
} from '../vocabulary';
import { BATHROOM_LABELS, BUILDING_TYPE_LABELS, RENOVATION_LABELS } from '../vocabulary/attribute-labels';
import type { FeatureSource } from './features';
import { InsufficientHouseDataError, type HouseRequest } from '../house/valuation';
import { reverseDistrict } from '../location/geocode';
import type { ResolvedLocation } from '../../schema/home-value';

/** Client input with GraphQL field names; names in any spelling. */
export interface HomeInput {
  /** 'apartment' (default) or 'house', in any of their spellings (PROPERTY_TYPE_ALIASES). */
  propertyType?: string | null;
  district: string;
  mahalla?: string | null;
  lat?: number | null;
  lon?: number | null;
  area: number;
  rooms: number;
  /** Required for an apartment; does not apply to a house. */
  floor?: number | null;
  /** Required for an apartment; a house's storeys (1–5), optional. */
  totalFloors?: number | null;
  /** House only: the plot in sotka. */
  landArea?: number | null;
  /** House only: the plot in m² (instead of landArea). */
  landAreaM2?: number | null;
  gas?: boolean | string | null;
  water?: boolean | string | null;
  sewerage?: boolean | string | null;
  renovation?: string | null;
  buildingType?: string | null;
  furniture?: boolean | string | null;
  bathroom?: string | null;
  market?: string | null;
  sellerType?: string | null;
  askingPrice?: number | null;
  /** 'YYYY-MM-DD' (or 'YYYY-MM'): the date the value is wanted at; default today. */
  valuationDate?: string | null;
}

/** The canonical flat request: codes, not names; the features' source minus the listing period, with the API's required fields. */
export interface ApartmentRequest extends Omit<FeatureSource, 'period' | 'rooms' | 'floor' | 'totalFloors'> {
  propertyType?: 'apartment';
  rooms: number;
  floor: number;
  totalFloors: number;
  askingPrice: number | null;
  /** 'YYYY-MM-DD'; null = today (the runtime's clock). */
  valuationDate: string | null;
}

/** A canonical home request: a flat (the default) or a house (models/house). */
export type HomeRequest = ApartmentRequest | HouseRequest;

export const isHouseRequest = (request: HomeRequest): request is HouseRequest => request.propertyType === 'house';

/** The request as a flat's, for code that runs the flat model alone (the benchmarks); a house is a bug there. */
export function apartmentRequest(request: HomeRequest): ApartmentRequest {
  if (isHouseRequest(request)) throw new Error('a house request where only flats are valued');
  return request;
}

// Where a valuation is anchored is part of its reply on every door: schema/home-value.ts.
export type { ResolvedLocation } from '../../schema/home-value';

export interface NormalisedHomeInput {
  request: HomeRequest;
  location: ResolvedLocation;
  warnings: string[];
}

/** market in English, Uzbek (Latin and Cyrillic) and Russian, as sites and banks label it; keys as aliasKey writes them (new_building = new building). */
const MARKET_ALIASES: Record<string, Market> = {
  new: 'new', 'new build': 'new', 'new building': 'new', 'new buildings': 'new', newbuild: 'new', 'new construction': 'new', primary: 'new', 'primary market': 'new',
  novostroyka: 'new', novostroyki: 'new', 'новостройка': 'new', 'новостройки': 'new', 'первичка': 'new', 'первичный': 'new', 'первичный рынок': 'new',
  yangi: 'new', 'yangi bino': 'new', 'yangi uy': 'new', 'янги': 'new', 'янги бино': 'new',
  resale: 'resale', secondary: 'resale', 'secondary market': 'resale', 'resale market': 'resale',
  ikkilamchi: 'resale', 'ikkilamchi bozor': 'resale', 'иккиламчи': 'resale', 'вторичный': 'resale', 'вторичка': 'resale', 'вторичный рынок': 'resale', 'вторичное жилье': 'resale', 'вторичное жильё': 'resale',
};
const SELLER_ALIASES: Record<string, SellerType> = { owner: 'owner', private: 'owner', mulkdor: 'owner', 'частное лицо': 'owner', 'собственник': 'owner', agency: 'agency', business: 'agency', agentlik: 'agency', 'агентство': 'agency', 'бизнес': 'agency' };
/** property_type in English, Uzbek (Latin and Cyrillic) and Russian; keys as aliasKey writes them. */
const PROPERTY_TYPE_ALIASES: Record<string, PropertyType> = {
  apartment: 'apartment', flat: 'apartment', kvartira: 'apartment', 'квартира': 'apartment',
  house: 'house', cottage: 'house', villa: 'house', hovli: 'house', 'uy joy': 'house', 'xususiy uy': 'house',
  'ҳовли': 'house', 'уй жой': 'house', 'хусусий уй': 'house', 'частный дом': 'house', 'дом': 'house', 'коттедж': 'house', 'дача': 'house',
};

/** Fields of one property type only: given for the other, they are ignored with a warning. */
const APARTMENT_ONLY = ['floor', 'market', 'furniture', 'bathroom', 'sellerType'] as const satisfies readonly (keyof HomeInput)[];
const HOUSE_ONLY = ['landArea', 'landAreaM2', 'gas', 'water', 'sewerage'] as const satisfies readonly (keyof HomeInput)[];
/** Optional in the field table (a house goes without them), required for an apartment. */
const APARTMENT_REQUIRED = ['floor', 'totalFloors'] as const satisfies readonly (keyof HomeInput)[];

/** How far land_area and land_area_m2 may disagree when both are given. */
const PLOT_TOLERANCE = 0.01;

export const PLOT_NOT_GIVEN_WARNING = 'land_area not given: valued without the plot, with a wider interval';

export function normaliseHomeInput(input: HomeInput): NormalisedHomeInput {
  const warnings: string[] = [];
  checkInputFields(HOME_FIELDS, input as unknown as Record<string, unknown>);
  const propertyType = resolvePropertyType(input.propertyType);
  const ignored = propertyType === 'house' ? APARTMENT_ONLY : HOUSE_ONLY;
  for (const name of ignored) {
    if (given(input[name])) warnings.push(`${field(name)} does not apply to ${propertyType === 'house' ? 'a house' : 'an apartment'}: ignored`);
  }
  if (propertyType === 'apartment') {
    for (const name of APARTMENT_REQUIRED) {
      if (!given(input[name])) throw new ApiError('MISSING_PARAMETER', `${field(name)} is required for an apartment (property_type house values a house without it)`, field(name));
    }
    if (input.floor! > input.totalFloors!) {
      throw new ApiError('INVALID_PARAMETER', `floor (${input.floor}) must not be above total_floors (${input.totalFloors})`, field('floor'));
    }
  } else if (given(input.totalFloors) && (input.totalFloors < HOUSE_STOREYS.min || input.totalFloors > HOUSE_STOREYS.max)) {
    throw new ApiError('INVALID_PARAMETER', `${rangeMessage(field('totalFloors'), HOUSE_STOREYS.min, HOUSE_STOREYS.max)} for a house (its storeys)`, field('totalFloors'));
  }
  const landAreaSotka = propertyType === 'house' ? plotSotka(input.landArea, input.landAreaM2) : null;

  const district = resolveDistrict(input.district, warnings);

  let mahallaId: string | null = null;
  let mahallaName: string | null = null;
  if (present(input.mahalla)) {
    const mahalla = matchMahalla(input.mahalla, district.id);
    if (mahalla && mahalla.district === district.id) {
      mahallaId = mahalla.id;
      mahallaName = mahalla.name;
      if (mahalla.via === 'fuzzy') warnings.push(`mahalla "${clip(input.mahalla)}" read as ${mahalla.name}`);
    } else {
      warnings.push(`mahalla "${clip(input.mahalla)}" is not known in ${district.name}: valued at district level`);
    }
  }

  const point = resolvePoint(input.lat, input.lon, district, warnings);
  // Whole object literals, not a spread of the shared fields and then more: V8 adds each field after
  // a spread one by one through its slow path, which was half of normalising's time.
  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  const renovation = category(input.renovation, 'renovation', matchRenovation, warnings);
  const buildingType = category(input.buildingType, 'buildingType', matchBuildingType, warnings);
  const askingPrice = input.askingPrice ?? null;
  const date = valuationDate(input.valuationDate);
  let request: HomeRequest;
  if (propertyType === 'house') {
    if (landAreaSotka === null) warnings.push(PLOT_NOT_GIVEN_WARNING);
    request = {
      propertyType,
      district: district.id,
      mahallaId,
      lat,
      lon,
      area: input.area,
      renovation,
      buildingType,
      askingPrice,
      valuationDate: date,
      landAreaSotka,
      rooms: input.rooms,
      totalFloors: input.totalFloors ?? null,
      gas: yesNo(input.gas, 'gas', warnings),
      water: yesNo(input.water, 'water', warnings),
      sewerage: yesNo(input.sewerage, 'sewerage', warnings),
    };
  } else {
    request = {
      district: district.id,
      mahallaId,
      lat,
      lon,
      area: input.area,
      renovation,
      buildingType,
      askingPrice,
      valuationDate: date,
      rooms: input.rooms,
      floor: input.floor!,
      totalFloors: input.totalFloors!,
      furniture: yesNo(input.furniture, 'furniture', warnings),
      bathroom: category(input.bathroom, 'bathroom', matchBathroom, warnings),
      market: resolveMarket(input.market),
      seller: category(input.sellerType, 'sellerType', (s) => SELLER_ALIASES[s.trim().toLowerCase()] ?? null, warnings),
    };
  }
  return {
    request,
    location: { district: DISTRICT_NAMES[district.id], mahalla: mahallaName, mahallaId, matched: mahallaId ? 'mahalla' : 'district' },
    warnings,
  };
}

/** apartment (absent: the default) or house in any of their spellings; anything else is a 400 listing what is accepted. */
export function resolvePropertyType(value: string | null | undefined): PropertyType {
  if (!present(value)) return 'apartment';
  const type = PROPERTY_TYPE_ALIASES[aliasKey(value)];
  if (!type) {
    throw new ApiError('INVALID_PARAMETER', `${field('propertyType')} "${clip(value)}" is not recognised; accepted: ${PROPERTY_TYPES.join(' or ')} (or ${Object.keys(PROPERTY_TYPE_ALIASES).filter((k) => !(PROPERTY_TYPES as readonly string[]).includes(k)).join(', ')})`, field('propertyType'));
  }
  return type;
}

/** Lower case, hyphens and runs of spaces as one space: "Uy-joy" and "uy  joy" are one key. */
function aliasKey(value: string): string {
  return value.trim().toLowerCase().replace(/[\s\-_]+/g, ' ');
}

/** The plot in sotka from land_area (sotka) and/or land_area_m2; both given, they must agree within PLOT_TOLERANCE. */
function plotSotka(sotka: number | null | undefined, m2: number | null | undefined): number | null {
  const fromM2 = given(m2) ? m2 / M2_PER_SOTKA : null;
  if (!given(sotka)) return fromM2;
  if (fromM2 !== null && Math.abs(fromM2 - sotka) > PLOT_TOLERANCE * sotka) {
    throw new ApiError('INVALID_PARAMETER', `${field('landAreaM2')} (${m2} m²) disagrees with ${field('landArea')} (${sotka} sotka = ${sotka * M2_PER_SOTKA} m²): send one, or both alike`, field('landAreaM2'));
  }
  return sotka;
}

/** The runtime's refusal of a house as the catalogue error (HTTP 422); its message names the district and its house listings. */
export function insufficientHouseData(error: InsufficientHouseDataError): ApiError {
  return new ApiError('INSUFFICIENT_MARKET_DATA', error.message, field('district'));
}

/**
 * A district in any spelling (English, Uzbek Latin or Cyrillic, Russian; small typos read with a
 * warning) → its match; unknown → UNKNOWN_DISTRICT with suggestions. Shared by every query taking a district.
 */
export function resolveDistrict(name: string, warnings: string[]): DistrictMatch {
  const district = matchDistrict(name) ?? districtFromAddress(name, warnings);
  if (!district) {
    const suggestions = suggestDistricts(name, 3);
    throw new ApiError('UNKNOWN_DISTRICT', `Unknown district "${clip(name)}"${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, field('district'), suggestions);
  }
  if (district.via === 'fuzzy') warnings.push(`district "${clip(name)}" read as ${district.name}`);
  return district;
}

/**
 * A district field holding more of the address ("Chilonzor tumani, Qatortol MFY"): the district its
 * comma-separated parts name exactly or by an alias (no typo guessing inside an address), with a
 * warning that the rest was not read. Parts naming two districts name none.
 */
function districtFromAddress(text: string, warnings: string[]): DistrictMatch | null {
  const named = text.split(',').map(districtInAddress).filter((d): d is DistrictMatch => d !== null);
  if (named.length === 0 || named.some((d) => d.id !== named[0].id)) return null;
  warnings.push(`district "${clip(text)}" read as ${named[0].name}; the rest of it was not used (a mahalla goes in mahalla)`);
  return named[0];
}

/**
 * The flat's point: lat and lon together or neither (400 naming the one missing); a point whose
 * district polygon is not the stated district is dropped with a warning, since a wrong point would
 * move the value more than a missing one.
 */
function resolvePoint(lat: number | null | undefined, lon: number | null | undefined, district: DistrictMatch, warnings: string[]): { lat: number; lon: number } | null {
  const hasLat = lat !== null && lat !== undefined;
  const hasLon = lon !== null && lon !== undefined;
  if (!hasLat && !hasLon) return null;
  if (!hasLat || !hasLon) {
    const missing = hasLat ? 'lon' : 'lat';
    throw new ApiError('INVALID_PARAMETER', `lat and lon go together: ${field(missing)} is missing`, field(missing));
  }
  const placed = reverseDistrict(lat, lon);
  if (placed !== district.id) {
    warnings.push(`point ${lat}, ${lon} lies ${placed ? `in ${DISTRICT_NAMES[placed]}` : 'outside the city districts'}, not in ${district.name}: valued without it`);
    return null;
  }
  return { lat, lon };
}

/** new / resale in any of their spellings (new build, novostroyka, вторичка, …); absent → null (the market's mix). */
export function resolveMarket(value: string | null | undefined): Market | null {
  if (!present(value)) return null;
  const market = MARKET_ALIASES[aliasKey(value)];
  if (!market) throw new ApiError('INVALID_PARAMETER', `${field('market')} "${clip(value)}" is not recognised; accepted: new or resale (or new build, primary, novostroyka, yangi, secondary, ikkilamchi, вторичка, …)`, field('market'));
  return market;
}

/**
 * What each optional descriptive field accepts, as its warning says. An unrecognised value of one of
 * them is ignored with that warning, not refused: one unknown word ("без ремонта" before it was
 * known) must not fail a portfolio's item, and the valuation without the field is still sound (its
 * calibration group is the one for requests that leave the field out).
 */
const ACCEPTED: Record<'renovation' | 'buildingType' | 'bathroom' | 'sellerType', string> = {
  renovation: acceptedLabels(RENOVATION_LABELS),
  buildingType: acceptedLabels(BUILDING_TYPE_LABELS),
  bathroom: acceptedLabels(BATHROOM_LABELS),
  sellerType: acceptedLabels(groupAliases(SELLER_ALIASES)),
};

/** { alias: code } → { code: [aliases other than the code] }. */
function groupAliases(aliases: Readonly<Record<string, string>>): Record<string, string[]> {
  const byCode: Record<string, string[]> = {};
  for (const [alias, code] of Object.entries(aliases)) if (alias !== code) (byCode[code] ??= []).push(alias);
  return byCode;
}

/** Each code with its spellings: "euro (Евроремонт, Euro renovation, …); …". */
function acceptedLabels(labels: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(labels).map(([code, names]) => `${code} (${names.join(', ')})`).join('; ');
}

/** A code from any spelling; absent → null; not recognised → null with a warning listing what is accepted. */
function category<T>(value: string | null | undefined, graphqlName: keyof typeof ACCEPTED, match: (s: string) => T | null, warnings: string[]): T | null {
  if (!present(value)) return null;
  const code = match(value);
  if (code === null) warnings.push(`${field(graphqlName)} "${clip(value)}" ${NOT_RECOGNISED}; accepted: ${ACCEPTED[graphqlName]}`);
  return code;
}

/**
 * Dates a flat may be valued at: from the oldest listings the index reaches back to, up to 24 months
 * ahead (the drift allowance is not meant for forecasts).
 */
const VALUATION_DATES: ValuationDateRange = { earliest: '2021-01-01', monthsAhead: 24 };

function valuationDate(value: string | null | undefined): string | null {
  return parseValuationDate(value, field('valuationDate'), VALUATION_DATES);
}

/** Yes or no in any language; one that reads as neither is ignored with a warning, as an unrecognised description is. */
function yesNo(value: boolean | string | null | undefined, graphqlName: string, warnings: string[]): boolean | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = parseYesNo(value);
  if (parsed === null) warnings.push(`${field(graphqlName)} "${clip(String(value))}" ${NOT_RECOGNISED}; accepted: ${YES_NO_ACCEPTED}`);
  return parsed;
}

/** A field the client sent (null, absent and an empty string are not). */
function given<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined && value !== '';
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** Errors name fields as REST clients know them (the legacy contract's snake_case). */
function field(graphqlName: string): string {
  return restFieldName(HOME_FIELDS, graphqlName);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
