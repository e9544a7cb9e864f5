/**
 * The vehicle valuation request: one field table for every surface (./field-table.ts).
 * REST uses the snake_case names (POST /api/predict/vehicle, docs/ARCHITECTURE.md, "The REST contract"), GraphQL
 * the camelCase ones (VehicleValuationInput). The REST JSON Schema (validated by ajv, published in
 * OpenAPI) and the subgraph's checks (models/vehicle/request.ts) are both derived from this table.
 */
import { BODY_TYPES, COLOURS, DRIVES, FUELS, PAINTS, REGION_IDS, TRANSMISSIONS } from './vehicle-codes';
import { CURRENCY_FIELD, EXCHANGE_RATE_FIELD } from './currency-contract';
import { requestJsonSchema, type FieldSpec } from './field-table';
import type { ValuationDateRange } from './valuation-date';

/** Oldest model year valued: older cars are collectors' items, not collateral. */
export const MIN_MODEL_YEAR = 1960;
/** The highest odometer reading taken as one: above it a reading is a placeholder, ignored with a warning. */
export const MAX_MILEAGE_KM = 2_000_000;
/** Inputs per `vehicleValuations` call. */
export const MAX_VEHICLES_PER_CALL = 1000;

/** Accepted `condition` values, grouped by what they mean for the model (defects or not). */
export const CONDITIONS = { good: ['good', 'excellent', 'new', 'no_defects'], defects: ['needs_repair', 'damaged', 'defects'] } as const;

/**
 * Dates a vehicle may be valued at: from the oldest vehicle listings in data/ (avtoelon, 2020) to 12
 * months ahead; past the newest data the market index's allowance widens the interval (market_level).
 */
export const VEHICLE_VALUATION_DATES: ValuationDateRange = { earliest: '2020-01-01', monthsAhead: 12 };

/**
 * The segments of the vehicle market index (the `vehicleMarketIndex` query): UzAuto's badge family,
 * the Russian makes, every other make. The model in service may add its own; these are always accepted.
 */
export const VEHICLE_SEGMENTS = ['domestic', 'russian', 'foreign'] as const;


const UNRECOGNISED = `an unrecognised value is ignored with a warning`;

export const VEHICLE_FIELDS: readonly FieldSpec[] = [
  { rest: 'make', graphql: 'make', kind: 'string', required: true, description: 'Make in any common spelling: Chevrolet, Шевроле, Daewoo, Lada (VAZ), Mercedes; an unknown make gets UNKNOWN_VEHICLE with suggestions', example: 'Chevrolet' },
  { rest: 'model', graphql: 'model', kind: 'string', required: true, description: 'Model of that make in any script, with or without the make: Cobalt, Кобальт, Nexia 3, Шевроле Кобальт. avtoelon\'s trim suffix is read as trim ("Cobalt, 4 pozitsiya EVRO" = Cobalt, trim 4). A misspelt model gets UNKNOWN_VEHICLE with suggestions; a model of a known make that the catalogue does not list (and nothing like it) is valued on the make\'s level with a wider interval and a warning (vehicle.model null, basis make), or 422 INSUFFICIENT_MARKET_DATA', example: 'Cobalt' },
  { rest: 'year', graphql: 'year', kind: 'integer', required: true, min: MIN_MODEL_YEAR, maxIsCurrentYear: true, description: `Model year, ${MIN_MODEL_YEAR} to the current year, and not before the model was made (a 1985 Cobalt is refused)`, example: 2019 },
  { rest: 'mileage', graphql: 'mileage', kind: 'integer', required: false, min: 0, description: `Odometer reading in km; one above ${MAX_MILEAGE_KM.toLocaleString('en')} km, or a placeholder such as 777777 (what sellers type when the site's form insists), is ignored with a warning`, example: 60000 },
  { rest: 'body_type', graphql: 'bodyType', kind: 'string', required: false, description: `Body: ${BODY_TYPES.join(', ')}, or Uzbek/Russian forms (Sedan, Седан, Krossover, Miniven); ${UNRECOGNISED}`, example: 'sedan' },
  { rest: 'transmission', graphql: 'transmission', kind: 'string', required: false, description: `Gearbox: ${TRANSMISSIONS.join(', ')}, or Uzbek/Russian forms (Avtomat, Механика, АКПП); ${UNRECOGNISED}`, example: 'automatic' },
  { rest: 'fuel', graphql: 'fuel', kind: 'string', required: false, description: `Fuel: ${FUELS.join(', ')} (gas_petrol: a petrol car converted to methane or propane), or Uzbek/Russian forms (Benzin, Газ-бензин, Metan); ${UNRECOGNISED}. Without it, the fuel of an engine text ("1.5 (Benzin)")`, example: 'petrol' },
  { rest: 'drive', graphql: 'drive', kind: 'string', required: false, description: `Driven wheels: ${DRIVES.join(', ')}, or Uzbek/Russian forms (Oldi, Полный); ${UNRECOGNISED}`, example: 'front' },
  { rest: 'condition', graphql: 'condition', kind: 'string', required: false, description: `Defects: ${[...CONDITIONS.good, ...CONDITIONS.defects].join(', ')}, or Uzbek/Russian forms (yaxshi, kami yo'q, ta'mir talab, kami bor, хорошее, требует ремонта, битый). A paint condition here (original_paint, "Kraska toza", …) is read as paint, with a warning; ${UNRECOGNISED}`, example: 'good' },
  { rest: 'paint', graphql: 'paint', kind: 'string', required: false, description: `Paint condition: ${PAINTS.join(', ')}, or avtoelon's words in Uzbek/Russian/English (Kraska toza, Pyatno bor, Kraskasi bor, To'liq kraskalangan, Родная краска, Есть пятна, Крашеная, Полностью окрашена, original_paint, paint_spots, repainted, fully_repainted). Echoed in the reply; it does not move the estimate (no listing data records it); ${UNRECOGNISED}`, example: 'original' },
  { rest: 'colour', restAliases: ['color'], graphql: 'colour', kind: 'string', required: false, description: `Body colour: ${COLOURS.join(', ')}, or Uzbek/Russian forms (Oq, Qora, Mokriy asfalt, Delfin, Белый); echoed in the reply; ${UNRECOGNISED}`, example: 'white' },
  { rest: 'region', graphql: 'region', kind: 'string', required: false, description: `Region, city or district where the car is sold, in Uzbek, Russian or English: Toshkent, Ташкентская область, Farg'ona, Samarkand; ${UNRECOGNISED}`, example: 'Toshkent' },
  {
    rest: 'engine', graphql: 'engine', kind: 'numberOrText', textGraphql: 'engineText', required: false, min: 0.5, max: 10,
    description: 'Engine displacement in litres: a number, or avtoelon\'s text "1.5 (Benzin)", "1.5 (Газ-бензин)", "1.5" (the fuel in brackets is used when fuel is not given; an unreadable text is ignored with a warning)',
    example: 1.5,
  },
  { rest: 'trim', graphql: 'trim', kind: 'integer', required: false, min: 1, max: 4, description: 'Trim level (avtoelon "pozitsiya"): 1 is the base trim. Given, it wins over a trim in the model text (with a warning when they differ)', example: 2 },
  { rest: 'valuation_date', graphql: 'valuationDate', kind: 'string', format: 'date', required: false, description: `Date the value is wanted at, YYYY-MM-DD (or YYYY-MM, read as the 1st), from ${VEHICLE_VALUATION_DATES.earliest} to ${VEHICLE_VALUATION_DATES.monthsAhead} months ahead; default today (market_level in the reply)`, example: '2026-11-24' },
  { rest: 'asking_price', graphql: 'askingPrice', kind: 'number', required: false, min: 100, max: 10_000_000, description: 'Asking price in USD, if known: flagged when outside the interval' },
  CURRENCY_FIELD,
  EXCHANGE_RATE_FIELD,
];

/** The reply's `vehicle` (REST and GraphQL): what each field of what was understood means. */
export const VALUED_VEHICLE_DESCRIPTION = 'The vehicle valued, as the service understood the request: catalogue names and codes; null where a field was not given or not recognised (the warnings say which)';
export const VALUED_VEHICLE_DESCRIPTIONS = {
  make: 'Canonical make, e.g. Chevrolet for "Шевроле"',
  model: 'Canonical model, e.g. Cobalt for "Кобальт" or "Cobalt, 4 pozitsiya EVRO"; null for a model the catalogue does not list (valued on the make\'s level: basis)',
  trim: 'Trim level 1 to 4, given or read from the model name ("4 pozitsiya")',
  engine: 'Engine displacement in litres, given or read from an engine text ("1.5 (Benzin)")',
  fuel: `${FUELS.join(', ')}: given, or from the engine text's brackets`,
  transmission: TRANSMISSIONS.join(', '),
  bodyType: BODY_TYPES.join(', '),
  drive: DRIVES.join(', '),
  region: `Region code: ${REGION_IDS.join(', ')}`,
  condition: 'good or needs_repair, as condition was read (null when it named a paint condition)',
  paint: `${PAINTS.join(', ')}: from paint, or from a paint word sent as condition; kept and reported, it does not move the estimate`,
  colour: 'Colour code, e.g. white, wet_asphalt, dolphin',
} as const;

export const VEHICLE_BASIS_DESCRIPTION = "What the estimate stands on: model (the make and model's own listings), make (the make's level, for a model the data does not hold; wider interval) or segment (the market's level for the body, engine and year, when the make has too little data of its own)";

/** The example request of the README and the tests. */
export const SAMPLE_VEHICLE_REQUEST = {
  make: 'Chevrolet',
  model: 'Cobalt',
  year: 2019,
  mileage: 60000,
  body_type: 'sedan',
  transmission: 'automatic',
  fuel: 'petrol',
  condition: 'good',
  region: 'Toshkent',
} as const;

/**
 * A bank's car-loan request in avtoelon.uz's own words (issue 16): the trim in the model name, the
 * engine cell with its fuel, the paint condition in `condition`, colour and region as the site
 * writes them. Reads as SAMPLE_VEHICLE_REQUEST's Cobalt with trim 4, engine 1.5, petrol, front drive, white and
 * original paint (the condition's paint word yields to `paint`).
 */
export const SITE_VEHICLE_REQUEST = {
  make: 'Chevrolet',
  model: 'Cobalt, 4 pozitsiya EVRO',
  year: 2019,
  mileage: 60000,
  engine: '1.5 (Benzin)',
  transmission: 'Avtomat',
  body_type: 'Sedan',
  drive: 'Oldi',
  colour: 'Oq',
  paint: 'Kraska toza',
  condition: 'original_paint',
  region: 'Toshkent',
} as const;

/** The JSON Schema of the REST body (draft 2020-12, as OpenAPI 3.1 uses). */
export function vehicleRequestJsonSchema(): Record<string, unknown> {
  return requestJsonSchema(VEHICLE_FIELDS);
}
