/**
 * From a client's home valuation input (any spelling, GraphQL field names) to the canonical
 * request the model runtime takes. Used by the residential subgraph and by the valuate CLI,
 * so every surface validates and normalises the same way.
 */
import { ApiError } from '../../schema/errors';
import { checkInputFields, restFieldName, STRING_FORMATS } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import {
  DISTRICT_NAMES, matchBathroom, matchBuildingType, matchDistrict, matchMahalla, matchRenovation,
  parseYesNo, suggestDistricts, type DistrictMatch, type Market, type SellerType,
} from '../vocabulary';
import type { FeatureSource } from './features';
import type { HouseRequest } from '../house/valuation';
import { reverseDistrict } from '../location/geocode';

/** Client input with GraphQL field names; names in any spelling. */
export interface HomeInput {
  district: string;
  mahalla?: string | null;
  lat?: number | null;
  lon?: number | null;
  area: number;
  rooms: number;
  floor: number;
  totalFloors: number;
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

export interface ResolvedLocation {
  district: string;
  mahalla: string | null;
  mahallaId: string | null;
  /** Where the valuation is anchored: 'mahalla' when the mahalla was recognised, else 'district'. */
  matched: 'mahalla' | 'district';
}

export interface NormalisedHomeInput {
  request: HomeRequest;
  location: ResolvedLocation;
  warnings: string[];
}

const MARKET_ALIASES: Record<string, Market> = { new: 'new', 'new build': 'new', novostroyka: 'new', yangi: 'new', 'новостройка': 'new', 'новостройки': 'new', resale: 'resale', secondary: 'resale', ikkilamchi: 'resale', 'вторичный': 'resale', 'вторичка': 'resale', 'вторичный рынок': 'resale' };
const SELLER_ALIASES: Record<string, SellerType> = { owner: 'owner', private: 'owner', mulkdor: 'owner', 'частное лицо': 'owner', 'собственник': 'owner', agency: 'agency', business: 'agency', agentlik: 'agency', 'агентство': 'agency', 'бизнес': 'agency' };

export function normaliseHomeInput(input: HomeInput): NormalisedHomeInput {
  const warnings: string[] = [];
  checkInputFields(HOME_FIELDS, input as unknown as Record<string, unknown>);
  if (input.floor > input.totalFloors) {
    throw new ApiError('INVALID_PARAMETER', `floor (${input.floor}) must not be above total_floors (${input.totalFloors})`, field('floor'));
  }

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
  const request: HomeRequest = {
    district: district.id,
    mahallaId,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    area: input.area,
    rooms: input.rooms,
    floor: input.floor,
    totalFloors: input.totalFloors,
    renovation: category(input.renovation, 'renovation', matchRenovation),
    buildingType: category(input.buildingType, 'buildingType', matchBuildingType),
    furniture: yesNo(input.furniture),
    bathroom: category(input.bathroom, 'bathroom', matchBathroom),
    market: resolveMarket(input.market),
    seller: category(input.sellerType, 'sellerType', (s) => SELLER_ALIASES[s.trim().toLowerCase()] ?? null),
    askingPrice: input.askingPrice ?? null,
    valuationDate: valuationDate(input.valuationDate),
  };
  return {
    request,
    location: { district: DISTRICT_NAMES[district.id], mahalla: mahallaName, mahallaId, matched: mahallaId ? 'mahalla' : 'district' },
    warnings,
  };
}

/**
 * A district in any spelling (English, Uzbek Latin or Cyrillic, Russian; small typos read with a
 * warning) → its match; unknown → UNKNOWN_DISTRICT with suggestions. Shared by every query taking a district.
 */
export function resolveDistrict(name: string, warnings: string[]): DistrictMatch {
  const district = matchDistrict(name);
  if (!district) {
    const suggestions = suggestDistricts(name, 3);
    throw new ApiError('UNKNOWN_DISTRICT', `Unknown district "${clip(name)}"${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, field('district'), suggestions);
  }
  if (district.via === 'fuzzy') warnings.push(`district "${clip(name)}" read as ${district.name}`);
  return district;
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
  return category(value, 'market', (s) => MARKET_ALIASES[s.trim().toLowerCase()] ?? null);
}

function category<T>(value: string | null | undefined, graphqlName: string, match: (s: string) => T | null): T | null {
  if (!present(value)) return null;
  const code = match(value);
  if (code === null) throw new ApiError('INVALID_PARAMETER', `${field(graphqlName)} "${clip(value)}" is not recognised`, field(graphqlName));
  return code;
}

/** Earliest date a valuation may be asked for: the oldest listings the index reaches back to. */
const EARLIEST_VALUATION_DATE = '2021-01-01';
/** How far ahead a valuation may be dated: the drift allowance is not meant for forecasts. */
const MAX_MONTHS_AHEAD = 24;

const DATE_FORM = new RegExp(STRING_FORMATS.date.pattern);

/** 'YYYY-MM-DD' or 'YYYY-MM' (read as the 1st) → 'YYYY-MM-DD'; anything else, or out of range, is a 400. */
function valuationDate(value: string | null | undefined, today = new Date()): string | null {
  if (!present(value)) return null;
  const text = value.trim();
  const iso = text.length === 7 ? `${text}-01` : text;
  // The form is the field table's (REST clients meet it in ajv first); a real calendar day is checked here.
  if (!DATE_FORM.test(text) || Number.isNaN(Date.parse(iso)) || new Date(iso).toISOString().slice(0, 10) !== iso) {
    throw new ApiError('INVALID_PARAMETER', `${field('valuationDate')} "${clip(value)}" must be ${STRING_FORMATS.date.name}`, field('valuationDate'));
  }
  const latest = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + MAX_MONTHS_AHEAD, today.getUTCDate())).toISOString().slice(0, 10);
  if (iso < EARLIEST_VALUATION_DATE || iso > latest) {
    throw new ApiError('INVALID_PARAMETER', `${field('valuationDate')} must be between ${EARLIEST_VALUATION_DATE} and ${latest}`, field('valuationDate'));
  }
  return iso;
}

function yesNo(value: boolean | string | null | undefined): boolean | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = parseYesNo(value);
  if (parsed === null) throw new ApiError('INVALID_PARAMETER', `mebel "${clip(String(value))}" must be yes/no (ha/yo'q, да/нет, true/false)`, 'mebel');
  return parsed;
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
