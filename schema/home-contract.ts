/**
 * The home valuation request: one field table for every surface.
 * REST uses the snake_case names (POST /api/predict/home, fixed: docs/ARCHITECTURE.md, "The REST contract"),
 * GraphQL the camelCase ones (HomeValuationInput). The REST JSON Schema (validated by ajv and
 * published in OpenAPI) and the subgraph's range checks are both derived from this table
 * (./field-table.ts).
 */
import { CURRENCY_FIELD, EXCHANGE_RATE_FIELD } from './currency-contract';
import { requestJsonSchema, type FieldSpec } from './field-table';

export { MAX_BODY_BYTES, MAX_STRING_LENGTH, type FieldSpec } from './field-table';
export { PERSONAL_DATA_KEY_PATTERN, looksLikePersonalDataKey, looksLikePersonalDataValue } from './personal-data';

/** Square metres in a sotka, the unit plots are sold in. */
export const M2_PER_SOTKA = 100;
/** The plot sizes a house valuation accepts, in sotka: those of the training houses (models/ingest/limits.ts). */
export const HOUSE_PLOT_SOTKA = { min: 0.5, max: 50 } as const;
/** The storeys a house may have (total_floors of a house). */
export const HOUSE_STOREYS = { min: 1, max: 5 } as const;

/** How property_type is spelled, for the field's description (the aliases are models/residential/request.ts's). */
const PROPERTY_TYPE_SPELLINGS = "apartment (the default: a flat; also flat, kvartira, квартира) or house (a private house with its plot; also hovli, uy-joy, xususiy uy, ҳовли, уй-жой, хусусий уй, частный дом, дом, коттедж, дача, cottage, villa). A house takes area (floor area), land_area (sotka) or land_area_m2, rooms, total_floors (storeys, 1 to 5), renovation, qurilish_turi, gas, water and sewerage; floor, market, mebel, sanuzel and seller_type do not apply to it";

export const HOME_FIELDS: readonly FieldSpec[] = [
  { rest: 'property_type', graphql: 'propertyType', kind: 'string', required: false, description: `What is valued: ${PROPERTY_TYPE_SPELLINGS}`, example: 'apartment' },
  { rest: 'district', graphql: 'district', kind: 'string', required: true, description: 'Tashkent district in any common spelling: English (Chilanzar), Uzbek Latin (Chilonzor, Chilonzor tumani), Uzbek Cyrillic, Russian (Чиланзарский район)', example: 'Chilonzor' },
  { rest: 'mahalla', graphql: 'mahalla', kind: 'string', required: false, description: 'Mahalla in Latin or Cyrillic; unknown names fall back to district level with a warning', example: 'Qatortol' },
  { rest: 'lat', graphql: 'lat', kind: 'number', required: false, min: 41, max: 41.6, description: 'Latitude of the flat (WGS84), sent with lon: places it more precisely than the mahalla. A point outside the stated district is ignored with a warning', example: 41.2856 },
  { rest: 'lon', graphql: 'lon', kind: 'number', required: false, min: 69, max: 69.6, description: 'Longitude of the flat (WGS84), sent with lat', example: 69.2034 },
  { rest: 'area', graphql: 'area', kind: 'number', required: true, min: 10, max: 1000, description: "Total area in m²: the flat's, or the house's floor area (the plot is land_area)", example: 65 },
  { rest: 'rooms', graphql: 'rooms', kind: 'integer', required: true, min: 1, max: 20, description: 'Number of rooms', example: 3 },
  { rest: 'floor', graphql: 'floor', kind: 'integer', required: false, min: 1, max: 60, description: 'Floor of the flat, 1 to total_floors: required for an apartment; a house has none (ignored with a warning)', example: 4 },
  { rest: 'total_floors', graphql: 'totalFloors', kind: 'integer', required: false, min: 1, max: 60, description: 'Floors in the building: required for an apartment. For a house, its storeys, 1 to 5 (optional)', example: 9 },
  { rest: 'renovation', graphql: 'renovation', kind: 'string', required: false, description: "Renovation: Evro, Yaxshi, O'rtacha, Mualliflik loyihasi, Ta'mir talab (also Ta'mirsiz, без ремонта), Qora suvoq, Tozalashdan avvalgi pardoz, or their Russian/English forms; an unrecognised value is ignored with a warning listing what is accepted", example: 'Evro' },
  { rest: 'qurilish_turi', restAliases: ['building_type'], graphql: 'buildingType', kind: 'string', required: false, description: "Building type: Panelli, G'ishtli, Monolit, Blokli (or Russian/English forms); an unrecognised value is ignored with a warning", example: "G'ishtli" },
  { rest: 'mebel', restAliases: ['furniture'], graphql: 'furniture', kind: 'yesno', required: false, description: "Furnished: ha/yo'q, да/нет, yes/no, true/false; anything else is ignored with a warning", example: 'ha' },
  { rest: 'sanuzel', restAliases: ['bathroom'], graphql: 'bathroom', kind: 'string', required: false, description: 'Bathroom: alohida (separate), birga (combined), 2+; an unrecognised value is ignored with a warning', example: 'alohida' },
  { rest: 'land_area', graphql: 'landArea', kind: 'number', required: false, min: HOUSE_PLOT_SOTKA.min, max: HOUSE_PLOT_SOTKA.max, description: `House only: the plot in sotka (1 sotka = 100 m²), ${HOUSE_PLOT_SOTKA.min} to ${HOUSE_PLOT_SOTKA.max}. Without it (or land_area_m2) the house is valued without the plot, with a wider interval`, example: 6 },
  { rest: 'land_area_m2', graphql: 'landAreaM2', kind: 'number', required: false, min: HOUSE_PLOT_SOTKA.min * M2_PER_SOTKA, max: HOUSE_PLOT_SOTKA.max * M2_PER_SOTKA, description: 'House only: the plot in m², instead of land_area (both given: they must agree within 1%)', example: 600 },
  { rest: 'gas', graphql: 'gas', kind: 'yesno', required: false, description: "House only: connected to mains gas: ha/yo'q, да/нет, yes/no, true/false", example: 'ha' },
  { rest: 'water', graphql: 'water', kind: 'yesno', required: false, description: "House only: connected to mains water: ha/yo'q, да/нет, yes/no, true/false", example: 'ha' },
  { rest: 'sewerage', graphql: 'sewerage', kind: 'yesno', required: false, description: "House only: connected to the sewer: ha/yo'q, да/нет, yes/no, true/false", example: "yo'q" },
  { rest: 'market', graphql: 'market', kind: 'string', required: false, description: 'new (new build) or resale; also as sites and banks write them (new build, new_building, primary, novostroyka, yangi bino, новостройка, первичка; secondary, ikkilamchi, вторичка, вторичный рынок). Absent: the flat is valued as both, mixed by the probability of a new build (market_mixture in the reply)' },
  { rest: 'seller_type', graphql: 'sellerType', kind: 'string', required: false, description: 'owner or agency, when the price comes from a listing; an unrecognised value is ignored with a warning' },
  { rest: 'valuation_date', graphql: 'valuationDate', kind: 'string', format: 'date', required: false, description: 'Date the value is wanted at, YYYY-MM-DD (or YYYY-MM, read as the 1st), from 2021-01-01 to 24 months ahead; default today. Past the newest market data the estimate follows the market index and the interval widens with the months since (market_level in the reply)', example: '2026-11-24' },
  { rest: 'asking_price', graphql: 'askingPrice', kind: 'number', required: false, min: 1000, max: 100_000_000, description: 'Asking price in USD, if known: flagged when outside the interval' },
  CURRENCY_FIELD,
  EXCHANGE_RATE_FIELD,
];

/**
 * A flat valued without its market is valued as a new build and as resale; the estimate is the
 * median and the interval the central 90% of the two weighed by the probability of a new build.
 */
export interface MarketMixture {
  /** The probability that a flat like this one is a new build (0–1), from the flats whose market is known. */
  newBuildProbability: number;
  /** The valuation as a new build, and as resale (USD, or the reply's currency), each with its own calibrated interval. */
  newBuild: MarketMixtureComponent;
  resale: MarketMixtureComponent;
}

export interface MarketMixtureComponent {
  estimate: number;
  low: number;
  high: number;
}

/** Where the market index put this valuation (see models/residential/market-index.ts). */
export interface MarketLevel {
  /** 'YYYY-MM-DD': the request's valuation_date, or today. */
  valuationDate: string;
  /** 'YYYY-MM': the newest listing month the model was trained on. */
  newestDataPeriod: string;
  /** Whole months from the newest data to the valuation date (0 within the data). */
  dataAgeMonths: number;
  /** Days from the newest data the level used (the last day of newestDataPeriod) to the valuation date (0 within the data). */
  dataAgeDays: number;
  /** The index's price level at the valuation date relative to the newest data (1 = the same; 1.04 = 4% above). */
  indexRatio: number;
  /** How much wider (relative, 0.05 = 5%) the interval is for the months past the newest data. */
  intervalWidening: number;
}

/** The reply's market level (REST market_level, GraphQL HomeValuation.marketLevel): what each field means, for both. */
export const MARKET_LEVEL_DESCRIPTIONS: Readonly<Record<keyof MarketLevel, string>> = {
  valuationDate: 'YYYY-MM-DD: the valuation date asked for (the 1st for YYYY-MM), or the day of valuation',
  newestDataPeriod: 'YYYY-MM: the newest listing month the model was trained on',
  dataAgeMonths: 'Whole months from the newest data to the valuation date (0 within the data)',
  dataAgeDays: 'Days from the newest data the market level used to the valuation date (0 within the data): the newest data is dated by the last day of newestDataPeriod, its listing month, so the age is never overstated',
  indexRatio: "The market index's price level at the valuation date relative to the newest data (1 = the same, 1.04 = 4% above); past the newest data, the index's long-run drift",
  intervalWidening: "How much wider the interval is for the months past the newest data (0.05 = 5% wider than the same valuation dated within the data): the index's month-to-month volatility × √months, added to the calibrated half-width as an independent error; 0 within the data",
};
export const MARKET_LEVEL_DESCRIPTION = 'The market level the estimate is at: the valuation date, how old the data behind it is, and what that did to the interval';

/** The reply's market mixture (REST market_mixture, GraphQL HomeValuation.marketMixture): what it is, and what each field means, for both. */
export const MARKET_MIXTURE_DESCRIPTION = "A flat sent without its market (new build or resale) is valued as both: the probability that a flat like it is a new build, and its valuation as each (before any market adjustment from the organisation's observations). estimate and interval above are their mixture: its median and central 90%. null when the market was given, and for houses";
export const MARKET_MIXTURE_DESCRIPTIONS: Readonly<Record<keyof MarketMixture, string>> = {
  newBuildProbability: 'The probability, 0 to 1, that a flat like this one is a new build (from its storeys, floor, size, rooms, finish, building type and district): the weight of the new-build valuation in the mixture',
  newBuild: 'The flat valued as a new build (market new): its estimate and its own calibrated interval',
  resale: 'The flat valued as resale (market resale): its estimate and its own calibrated interval',
};
export const MARKET_MIXTURE_VALUE_DESCRIPTION = "The flat valued as one market (new build or resale): its estimate and its own calibrated interval (of the same coverage as interval), in the valuation's currency";
export const MARKET_MIXTURE_VALUE_DESCRIPTIONS: Readonly<Record<keyof MarketMixtureComponent, string>> = {
  estimate: 'Estimated market value of the flat as this market',
  low: 'Low end of its interval',
  high: 'High end of its interval',
};

/** Fields of the fixed legacy example, in the order the seed request sends them. */
export const SAMPLE_HOME_REQUEST = {
  district: 'Chilanzar',
  mahalla: 'Qatortol',
  area: 65,
  rooms: 3,
  floor: 4,
  total_floors: 9,
  renovation: 'Evro',
  qurilish_turi: "G'ishtli",
  mebel: 'ha',
  sanuzel: 'alohida',
} as const;

/** A house with its plot (the README's example): 200 m² of floor on 6 sotka in Yunusabad. */
export const SAMPLE_HOUSE_REQUEST = {
  property_type: 'house',
  district: 'Yunusabad',
  area: 200,
  land_area: 6,
  rooms: 5,
  total_floors: 2,
} as const;

/** The JSON Schema of the REST body (draft 2020-12, as OpenAPI 3.1 uses). */
export function homeRequestJsonSchema(): Record<string, unknown> {
  return requestJsonSchema(HOME_FIELDS);
}
