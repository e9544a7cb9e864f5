/**
 * The vehicle valuation request: one field table for every surface (./field-table.ts).
 * REST uses the snake_case names (POST /api/predict/vehicle, ARCHITECTURE.md section 2), GraphQL
 * the camelCase ones (VehicleValuationInput). The REST JSON Schema (validated by ajv, published in
 * OpenAPI) and the subgraph's checks (models/vehicle/request.ts) are both derived from this table.
 */
import { BODY_TYPES, DRIVES, FUELS, TRANSMISSIONS } from '../models/vehicle/vocabulary';
import { requestJsonSchema, type FieldSpec } from './field-table';

/** Oldest model year valued: older cars are collectors' items, not collateral. */
export const MIN_MODEL_YEAR = 1960;
/** Inputs per `vehicleValuations` call. */
export const MAX_VEHICLES_PER_CALL = 1000;

/** Accepted `condition` values, grouped by what they mean for the model (defects or not). */
export const CONDITIONS = { good: ['good', 'excellent', 'new', 'no_defects'], defects: ['needs_repair', 'damaged', 'defects'] } as const;

export const VEHICLE_FIELDS: readonly FieldSpec[] = [
  { rest: 'make', graphql: 'make', kind: 'string', required: true, description: 'Make in any common spelling: Chevrolet, Шевроле, Daewoo, Lada (VAZ), Mercedes; an unknown make gets UNKNOWN_VEHICLE with suggestions', example: 'Chevrolet' },
  { rest: 'model', graphql: 'model', kind: 'string', required: true, description: 'Model of that make in any script, with or without the make: Cobalt, Кобальт, Nexia 3, Шевроле Кобальт', example: 'Cobalt' },
  { rest: 'year', graphql: 'year', kind: 'integer', required: true, min: MIN_MODEL_YEAR, maxIsCurrentYear: true, description: `Model year, ${MIN_MODEL_YEAR} to the current year`, example: 2019 },
  { rest: 'mileage', graphql: 'mileage', kind: 'integer', required: false, min: 0, max: 2_000_000, description: 'Odometer reading in km', example: 60000 },
  { rest: 'body_type', graphql: 'bodyType', kind: 'string', required: false, description: `Body: ${BODY_TYPES.join(', ')}, or Uzbek/Russian forms (Sedan, Седан, Krossover, Miniven)`, example: 'sedan' },
  { rest: 'transmission', graphql: 'transmission', kind: 'string', required: false, description: `Gearbox: ${TRANSMISSIONS.join(', ')}, or Uzbek/Russian forms (Avtomat, Механика, АКПП)`, example: 'automatic' },
  { rest: 'fuel', graphql: 'fuel', kind: 'string', required: false, description: `Fuel: ${FUELS.join(', ')} (gas_petrol: a petrol car converted to methane or propane), or Uzbek/Russian forms (Benzin, Газ-бензин, Metan)`, example: 'petrol' },
  { rest: 'drive', graphql: 'drive', kind: 'string', required: false, description: `Driven wheels: ${DRIVES.join(', ')}, or Uzbek/Russian forms (Oldi, Полный)`, example: 'front' },
  { rest: 'condition', graphql: 'condition', kind: 'string', required: false, description: `Condition: ${[...CONDITIONS.good, ...CONDITIONS.defects].join(', ')}, or Uzbek/Russian forms (yaxshi, ta'mir talab, kami bor, хорошее, требует ремонта, битый)`, example: 'good' },
  { rest: 'region', graphql: 'region', kind: 'string', required: false, description: "Region, city or district where the car is sold, in Uzbek, Russian or English: Toshkent, Ташкентская область, Farg'ona, Samarkand", example: 'Toshkent' },
  { rest: 'engine', graphql: 'engine', kind: 'number', required: false, min: 0.5, max: 10, description: 'Engine displacement in litres', example: 1.5 },
  { rest: 'trim', graphql: 'trim', kind: 'integer', required: false, min: 1, max: 4, description: 'Trim level (avtoelon "pozitsiya"): 1 is the base trim', example: 2 },
  { rest: 'asking_price', graphql: 'askingPrice', kind: 'number', required: false, min: 100, max: 10_000_000, description: 'Asking price in USD, if known: flagged when outside the interval' },
];

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

/** The JSON Schema of the REST body (draft 2020-12, as OpenAPI 3.1 uses). */
export function vehicleRequestJsonSchema(): Record<string, unknown> {
  return requestJsonSchema(VEHICLE_FIELDS);
}
