/**
 * From a client's vehicle valuation input (any spelling, GraphQL field names) to the canonical
 * request the vehicle runtime takes. Used by the vehicle subgraph and by the valuate CLI, so every
 * surface checks and normalises the same way: types and ranges from the field table
 * (schema/vehicle-contract.ts), names through the vehicle vocabulary. Throws ApiErrors that name
 * the REST field.
 */
import { ApiError } from '../../schema/errors';
import { checkInputFields, restFieldName } from '../../schema/field-table';
import { CONDITIONS, VEHICLE_FIELDS } from '../../schema/vehicle-contract';
import { labelMatcher } from '../vocabulary/label-matcher';
import type { VehicleValuationView } from '../../schema/vehicle-rest';
import { InsufficientMarketDataError, type VehicleRequest, type VehicleRuntime } from './valuation';
import {
  BODY_TYPES, DRIVES, FUELS, REGION_NAMES, TRANSMISSIONS, isResolved, modelsOf, normaliseBody, normaliseDrive,
  normaliseFuel, normaliseRegion, normaliseTransmission, resolveMake, resolveModel, type VehicleName,
} from './vocabulary';

/** Client input with GraphQL field names (VehicleValuationInput); names in any spelling. */
export interface VehicleInput {
  make: string;
  model: string;
  year: number;
  mileage?: number | null;
  bodyType?: string | null;
  transmission?: string | null;
  fuel?: string | null;
  drive?: string | null;
  condition?: string | null;
  region?: string | null;
  engine?: number | null;
  trim?: number | null;
  askingPrice?: number | null;
}

export interface NormalisedVehicleInput {
  request: VehicleRequest;
  /** The catalogue's make and model the input names. */
  vehicle: VehicleName;
  warnings: string[];
}

/** How clients describe condition; what the model uses is whether the car has defects. */
const matchCondition = labelMatcher({
  good: [
    ...CONDITIONS.good, 'normal', 'ideal', 'perfect', 'yaxshi', "a'lo", 'alo', "zo'r", "kami yo'q", 'ideal holatda',
    'хорошее', 'хороший', 'отличное', 'отличный', 'нормальное', 'идеальное', 'новый', 'новая', 'без дефектов',
  ],
  needs_repair: [
    ...CONDITIONS.defects, 'broken', 'repair', 'accident', "ta'mir talab", "ta'mirtalab", 'kami bor', 'avariyali',
    'urilgan', 'nosoz', 'требует ремонта', 'битый', 'битая', 'аварийный', 'аварийная', 'после дтп', 'с дефектами', 'неисправный',
  ],
});

const codes = (list: readonly string[]) => `${list.join(', ')}, or their Uzbek/Russian forms`;
const ACCEPTED = {
  condition: `${[...CONDITIONS.good, ...CONDITIONS.defects].join(', ')}, or Uzbek/Russian forms (yaxshi, ta'mir talab, хорошее, требует ремонта)`,
  fuel: codes(FUELS),
  transmission: codes(TRANSMISSIONS),
  bodyType: codes(BODY_TYPES),
  drive: codes(DRIVES),
  region: `a region, city or district of Uzbekistan in Uzbek, Russian or English (${Object.values(REGION_NAMES).join(', ')})`,
};

/** Checks and normalises one input; throws ApiError (INVALID_PARAMETER, MISSING_PARAMETER, UNKNOWN_VEHICLE, PERSONAL_DATA_NOT_ACCEPTED). */
export function normaliseVehicleInput(input: VehicleInput, now: Date = new Date()): NormalisedVehicleInput {
  checkInputFields(VEHICLE_FIELDS, input as unknown as Record<string, unknown>, now);
  const vehicle = resolveName(input.make, input.model);
  const condition = attribute(input.condition, 'condition', matchCondition);
  const request: VehicleRequest = {
    make: vehicle.make,
    model: vehicle.model,
    year: input.year,
    mileageKm: input.mileage ?? null,
    engineLitres: input.engine ?? null,
    fuel: attribute(input.fuel, 'fuel', normaliseFuel),
    transmission: attribute(input.transmission, 'transmission', normaliseTransmission),
    body: attribute(input.bodyType, 'bodyType', normaliseBody),
    drive: attribute(input.drive, 'drive', normaliseDrive),
    trim: input.trim ?? null,
    defects: condition === null ? null : condition === 'needs_repair',
    region: attribute(input.region, 'region', normaliseRegion),
    paint: null,
    colour: null,
    valuationDate: null,
    askingPrice: input.askingPrice ?? null,
  };
  return { request, vehicle, warnings: [] };
}

/** The catalogue's make and model, or UNKNOWN_VEHICLE naming the field with suggestions. */
function resolveName(makeText: string, modelText: string): VehicleName {
  const make = resolveMake(makeText);
  if (!isResolved(make)) {
    throw new ApiError('UNKNOWN_VEHICLE', `Unknown make "${clip(makeText)}"${didYouMean(make.suggestions)}`, 'make', make.suggestions);
  }
  const model = resolveModel(make, modelText);
  if (isResolved(model)) return { make, model };
  const known = modelsOf(make);
  const detail = known.length === 0
    ? `; the catalogue lists no ${make} models yet, so no market data backs a ${make} valuation`
    : didYouMean(model.suggestions);
  throw new ApiError('UNKNOWN_VEHICLE', `Unknown ${make} model "${clip(modelText)}"${detail}`, 'model', model.suggestions);
}

/** A code from any spelling, or INVALID_PARAMETER listing what is accepted; absent → null. */
function attribute<T>(value: string | null | undefined, graphqlName: keyof typeof ACCEPTED, match: (s: string) => T | null): T | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const code = match(value);
  const field = restFieldName(VEHICLE_FIELDS, graphqlName);
  if (code === null) throw new ApiError('INVALID_PARAMETER', `${field} "${clip(value)}" is not recognised; accepted: ${ACCEPTED[graphqlName]}`, field);
  return code;
}

/** The runtime's refusal as the catalogue error (HTTP 422); its message names the make, model and listing count. */
export function insufficientMarketData(error: InsufficientMarketDataError): ApiError {
  return new ApiError('INSUFFICIENT_MARKET_DATA', error.message, 'model');
}

/**
 * Values normalised inputs with one runtime call, as every surface answers them (the subgraph,
 * the valuate CLI): the runtime's value with what was valued and when, or INSUFFICIENT_MARKET_DATA
 * in place of a refusal. Output order = input order.
 */
export async function valueVehicles(runtime: VehicleRuntime, inputs: readonly NormalisedVehicleInput[]): Promise<(VehicleValuationView | ApiError)[]> {
  const values = await runtime.value(inputs.map((i) => i.request));
  const valuedAt = new Date().toISOString();
  return values.map((value, i) => {
    if (value instanceof InsufficientMarketDataError) return insufficientMarketData(value);
    const { vehicle, request, warnings } = inputs[i];
    return { ...value, vehicle: { ...vehicle, year: request.year }, valuedAt, warnings };
  });
}

function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : '';
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
