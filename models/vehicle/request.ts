/**
 * From a client's vehicle valuation input (any spelling, GraphQL field names) to the canonical
 * request the vehicle runtime takes. Used by the vehicle subgraph and by the valuate CLI, so every
 * surface checks and normalises the same way: types and ranges from the field table
 * (schema/vehicle-contract.ts), names through the vehicle vocabulary. Throws ApiErrors that name
 * the REST field.
 *
 * Banks copy avtoelon.uz's form, so its words are read as it writes them (issue 16): the trim in
 * the model name ("Cobalt, 4 pozitsiya EVRO"), the engine cell with its fuel ("1.5 (Benzin)"), the
 * paint condition in `condition` ("Kraska toza"). An optional text that is not recognised is
 * ignored with a warning rather than refused: a wrong type, a bad range or personal data still are.
 */
import { ApiError } from '../../schema/errors';
import { checkInputFields, fieldBounds, NOT_RECOGNISED, restFieldName } from '../../schema/field-table';
import { parseValuationDate } from '../../schema/valuation-date';
import { CONDITIONS, MAX_MILEAGE_KM, VEHICLE_FIELDS, VEHICLE_VALUATION_DATES } from '../../schema/vehicle-contract';
import type { ValuedVehicle, VehicleCondition, VehicleValuationView } from '../../schema/vehicle-rest';
import { labelMatcher } from '../vocabulary/label-matcher';
import { isPlaceholderMileage, parseEngineCell } from './ingest/parse';
import { InsufficientMarketDataError, type VehicleRequest, type VehicleRuntime } from './valuation';
import {
  BODY_TYPES, COLOURS, DRIVES, FUELS, PAINTS, REGION_NAMES, TRANSMISSIONS, badgeFamily, isResolved, normaliseBody,
  normaliseColour, normaliseDrive, normaliseFuel, normaliseRegion, normaliseTransmission, productionYears,
  resolveMake, resolveModel, resolveVehicle, type Paint,
} from './vocabulary';
import { normalisePaint, PAINT_LABELS } from './vocabulary/paint';

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
  paint?: string | null;
  colour?: string | null;
  region?: string | null;
  engine?: number | null;
  /** The engine as avtoelon writes it, "1.5 (Benzin)" (REST `engine` given as text). */
  engineText?: string | null;
  trim?: number | null;
  /** 'YYYY-MM-DD' (or 'YYYY-MM'): the date the value is wanted at; default today. */
  valuationDate?: string | null;
  askingPrice?: number | null;
}

export interface NormalisedVehicleInput {
  request: VehicleRequest;
  /** What the reply says was valued: the catalogue's names and the codes understood. */
  vehicle: ValuedVehicle;
  warnings: string[];
}

/**
 * How clients describe condition; what the model uses is whether the car has defects. The paint
 * words are in the same matcher, so that a paint condition sent as `condition` (avtoelon's form
 * puts them side by side) is recognised as such and never typo-read as a defect word.
 */
const matchCondition = labelMatcher<VehicleCondition | Paint>({
  good: [
    ...CONDITIONS.good, 'normal', 'ideal', 'perfect', 'yaxshi', "a'lo", 'alo', "zo'r", "kami yo'q", "kamchiligi yo'q",
    'kamchiliksiz', 'ideal holatda', 'Ками йўқ', 'хорошее', 'хороший', 'отличное', 'отличный', 'нормальное', 'идеальное',
    'новый', 'новая', 'без дефектов', 'нет дефектов', 'не битый', 'не битая',
  ],
  needs_repair: [
    ...CONDITIONS.defects, 'broken', 'repair', 'accident', "ta'mir talab", "ta'mirtalab", 'kami bor', 'kamchiligi bor',
    'avariyali', 'urilgan', 'nosoz', 'Ками бор', 'требует ремонта', 'битый', 'битая', 'аварийный', 'аварийная', 'после дтп',
    'с дефектами', 'есть дефекты', 'неисправный',
  ],
  ...PAINT_LABELS,
});
const isPaint = (code: VehicleCondition | Paint): code is Paint => (PAINTS as readonly string[]).includes(code);

const codes = (list: readonly string[]) => `${list.join(', ')}, or their Uzbek/Russian forms`;
const ACCEPTED = {
  condition: `${[...CONDITIONS.good, ...CONDITIONS.defects].join(', ')}, or Uzbek/Russian forms (yaxshi, kami yo'q, ta'mir talab, kami bor, хорошее, требует ремонта), or a paint condition`,
  paint: `${PAINTS.join(', ')}, or avtoelon's words (Kraska toza, Pyatno bor, Kraskasi bor, To'liq kraskalangan, Родная краска, Есть пятна, Крашеная, Полностью окрашена)`,
  colour: codes(COLOURS),
  fuel: codes(FUELS),
  transmission: codes(TRANSMISSIONS),
  bodyType: codes(BODY_TYPES),
  drive: codes(DRIVES),
  region: `a region, city or district of Uzbekistan in Uzbek, Russian or English (${Object.values(REGION_NAMES).join(', ')})`,
  engineText: 'litres as a number (1.5) or as avtoelon writes it ("1.5 (Benzin)", "1.5 (Газ-бензин)", "1.5")',
};

/** Checks and normalises one input; throws ApiError (INVALID_PARAMETER, MISSING_PARAMETER, UNKNOWN_VEHICLE, PERSONAL_DATA_NOT_ACCEPTED). */
export function normaliseVehicleInput(input: VehicleInput, now: Date = new Date()): NormalisedVehicleInput {
  checkInputFields(VEHICLE_FIELDS, input as unknown as Record<string, unknown>, now);
  const warnings: string[] = [];
  const named = splitTrim(input.model);
  const { make, model } = resolveName(input.make, named.model, input.model, warnings);
  if (model !== null) checkProductionYears(make, model, input.year);
  const trim = chooseTrim(input.trim ?? null, named, warnings);
  const { condition, paint } = conditionAndPaint(input.condition, input.paint, warnings);
  const engine = readEngine(input.engine ?? null, input.engineText, now, warnings);
  const fuel = chooseFuel(attribute(input.fuel, 'fuel', normaliseFuel, warnings), engine, warnings);
  const vehicle: ValuedVehicle = {
    make,
    model,
    year: input.year,
    trim,
    engine: engine.litres,
    fuel,
    transmission: attribute(input.transmission, 'transmission', normaliseTransmission, warnings),
    bodyType: attribute(input.bodyType, 'bodyType', normaliseBody, warnings),
    drive: attribute(input.drive, 'drive', normaliseDrive, warnings),
    region: attribute(input.region, 'region', normaliseRegion, warnings),
    condition,
    paint,
    colour: attribute(input.colour, 'colour', normaliseColour, warnings),
  };
  const request: VehicleRequest = {
    make,
    model,
    year: vehicle.year,
    mileageKm: readMileage(input.mileage ?? null, warnings),
    engineLitres: vehicle.engine,
    fuel: vehicle.fuel,
    transmission: vehicle.transmission,
    body: vehicle.bodyType,
    drive: vehicle.drive,
    trim,
    defects: condition === null ? null : condition === 'needs_repair',
    region: vehicle.region,
    paint,
    colour: vehicle.colour,
    valuationDate: parseValuationDate(input.valuationDate, field('valuationDate'), VEHICLE_VALUATION_DATES, now),
    askingPrice: input.askingPrice ?? null,
  };
  return { request, vehicle, warnings };
}

/** A model name with avtoelon's trim suffix taken off: "Cobalt, 4 pozitsiya EVRO" → Cobalt and trim 4 ("4 pozitsiya EVRO"). */
export interface NamedTrim {
  model: string;
  trim: number | null;
  /** The suffix taken off, for warnings; null when there was none. */
  suffix: string | null;
}

/** The field specs the normaliser reads bounds from, looked up once. */
const TRIM_FIELD = VEHICLE_FIELDS.find((f) => f.graphql === 'trim')!;
const ENGINE_FIELD = VEHICLE_FIELDS.find((f) => f.graphql === 'engine')!;

const TRIM_WORD = String.raw`(?:pozit?s?iy?a\p{L}*|poz\.?|позици\p{L}*|поз\.?)`;
/** "4 pozitsiya", "4-pozitsiya", "4-позиция", "pozitsiya 4", and anything after it (EVRO, Elegant, LTZ …). */
const TRIM_SUFFIX = new RegExp(String.raw`(?:(?<![\p{L}\p{N}.])(\d)\s*-?\s*${TRIM_WORD}|(?<![\p{L}])${TRIM_WORD}\s*-?\s*(\d)(?![\p{N}.]))(?![\p{L}]).*$`, 'iu');
/** Separators a name may trail: "Tracker," is the Tracker. */
const TRAILING_SEPARATORS = /[\s,;:/|-]+$/u;
/**
 * Equipment words sellers add after the model without a trim number ("Cobalt LTZ", "Gentra Elegant"):
 * taken off only when the whole text names no model, so that a model named so is kept.
 */
const EQUIPMENT_WORDS = /(?:[\s,]+(?:evro|euro|евро|elegant|элегант|ltz|lt|ls|lux|luxe|люкс|premier|comfort|комфорт|style|optimum|standard|стандарт))+\s*$/iu;

export function splitTrim(text: string): NamedTrim {
  const match = TRIM_SUFFIX.exec(text);
  if (match === null) return { model: text.replace(TRAILING_SEPARATORS, ''), trim: null, suffix: null };
  const model = text.slice(0, match.index).replace(TRAILING_SEPARATORS, '');
  // An empty name ("4 pozitsiya" alone) is left to the resolver as it was written.
  if (model.trim() === '') return { model: text, trim: null, suffix: null };
  return { model, trim: Number(match[1] ?? match[2]), suffix: match[0].trim() };
}

/** The trim given, else the model name's; a name's trim outside 1 to 4 is not one. */
function chooseTrim(given: number | null, named: NamedTrim, warnings: string[]): number | null {
  const trimField = field('trim');
  const spec = TRIM_FIELD;
  if (named.trim !== null && (named.trim < spec.min! || named.trim > spec.max!)) {
    warnings.push(`${named.suffix} in the model is not a trim level (${spec.min} to ${spec.max}): ignored`);
    return given;
  }
  if (given !== null && named.trim !== null && given !== named.trim) {
    warnings.push(`${trimField} ${given} given; "${named.suffix}" in the model ignored`);
  }
  return given ?? named.trim;
}

/**
 * The catalogue's make and model. An unknown make, or a model with close spellings (a likely typo),
 * is UNKNOWN_VEHICLE naming the field with suggestions; a model another make has is too. A model of
 * a known make that nothing in the catalogue is like goes on as null (valued on the make's level, or
 * refused by the runtime), with a warning.
 */
function resolveName(makeText: string, modelText: string, written: string, warnings: string[]): { make: string; model: string | null } {
  const make = resolveMake(makeText);
  if (!isResolved(make)) {
    throw new ApiError('UNKNOWN_VEHICLE', `Unknown make "${clip(makeText)}"${didYouMean(make.suggestions)}`, field('make'), make.suggestions);
  }
  const model = resolveModel(make, modelText);
  if (isResolved(model)) return { make, model };
  const bare = modelText.replace(EQUIPMENT_WORDS, '');
  if (bare !== modelText && bare.trim() !== '') {
    const withoutEquipment = resolveModel(make, bare);
    if (isResolved(withoutEquipment)) return { make, model: withoutEquipment };
  }
  if (model.suggestions.length > 0) {
    throw new ApiError('UNKNOWN_VEHICLE', `Unknown ${make} model "${clip(written)}"${didYouMean(model.suggestions)}`, field('model'), model.suggestions);
  }
  const other = resolveVehicle(modelText);
  if (isResolved(other) && badgeFamily(other.make) !== badgeFamily(make)) {
    const name = `${other.make} ${other.model}`;
    throw new ApiError('UNKNOWN_VEHICLE', `"${clip(written)}" is a ${other.make} model, not a ${make} one; did you mean ${name}?`, field('model'), [name]);
  }
  warnings.push(`model "${clip(written)}" is not in the catalogue: valued on the make's level with a wider interval`);
  return { make, model: null };
}

/** A model year before the model was made (or more than a year after it stopped) is a typo, not collateral. */
function checkProductionYears(make: string, model: string, year: number): void {
  const made = productionYears(make, model);
  if (made === null) return;
  const name = `${make} ${model}`;
  if (year < made.from) {
    throw new ApiError('INVALID_PARAMETER', `${name} was made from ${made.from}; year ${year} is before that`, field('year'));
  }
  if (made.to !== null && year > made.to + 1) {
    throw new ApiError('INVALID_PARAMETER', `${name} was made until ${made.to}; year ${year} is after that`, field('year'));
  }
}

/**
 * Defects from `condition`, and the paint condition from `paint` or, when `paint` is not given,
 * from a paint word sent as `condition` (which then says nothing about defects).
 */
function conditionAndPaint(conditionText: string | null | undefined, paintText: string | null | undefined, warnings: string[]): { condition: VehicleCondition | null; paint: Paint | null } {
  const paint = attribute(paintText, 'paint', normalisePaint, warnings);
  const condition = attribute(conditionText, 'condition', matchCondition, warnings);
  if (condition === null || !isPaint(condition)) return { condition, paint };
  const said = `${field('condition')} "${clip(conditionText!)}" is a paint condition`;
  if (present(paintText)) {
    warnings.push(`${said}, and ${field('paint')} is given: ignored; ${field('condition')} says nothing about defects`);
    return { condition: null, paint };
  }
  warnings.push(`${said}: read as ${field('paint')} ${condition}; ${field('condition')} says nothing about defects`);
  return { condition: null, paint: condition };
}

interface EngineRead {
  litres: number | null;
  /** The fuel the engine text names, and the text it was read from. */
  fuel: { code: ReturnType<typeof normaliseFuel>; text: string } | null;
}

/** The odometer reading, or null for a placeholder (777777, 9999999) or a reading beyond any car's. */
function readMileage(km: number | null, warnings: string[]): number | null {
  if (km === null || (km <= MAX_MILEAGE_KM && !isPlaceholderMileage(km))) return km;
  warnings.push(`${field('mileage')} ${km} looks like a placeholder (above ${MAX_MILEAGE_KM} km or one digit repeated) and was ignored`);
  return null;
}

const LITRE_UNIT = /(\d)\s*(?:l|л|litr|литр|liter|litre|ltr)\.?(?=\s|\(|$)/iu;

/** The engine from its number, or from its text ("1.5 (Benzin)", "1.5 л"); the number wins over the text's litres. */
function readEngine(litres: number | null, text: string | null | undefined, now: Date, warnings: string[]): EngineRead {
  if (!present(text)) return { litres, fuel: null };
  const cell = parseEngineCell(text.replace(LITRE_UNIT, '$1'));
  const bracket = /\(([^)]*)\)/.exec(text)?.[1]?.trim() ?? text;
  if (cell.litres === null && cell.fuel === null) {
    warnings.push(`${field('engineText')} "${clip(text)}" ${NOT_RECOGNISED}; accepted: ${ACCEPTED.engineText}`);
    return { litres, fuel: null };
  }
  if (cell.litres !== null && litres === null) {
    if (!engineInRange(cell.litres, now)) {
      // The site's cell for an engine nobody filled in ("0 (Benzin)", "0.1 (бензин)"): its fuel still counts.
      warnings.push(`${field('engineText')} "${clip(text)}": ${cell.litres} l is no engine size and was ignored`);
      return { litres: null, fuel: cell.fuel === null ? null : { code: cell.fuel, text: bracket } };
    }
  } else if (cell.litres !== null && litres !== cell.litres) {
    warnings.push(`${field('engine')} ${litres} given; the litres of "${clip(text)}" ignored`);
  }
  return { litres: litres ?? cell.litres, fuel: cell.fuel === null ? null : { code: cell.fuel, text: bracket } };
}

/** Whether litres meet the engine field's range, as a number would. */
function engineInRange(litres: number, now: Date): boolean {
  const { min = -Infinity, max = Infinity } = fieldBounds(ENGINE_FIELD, now);
  return litres >= min && litres <= max;
}

/** The fuel given, else the engine text's. */
function chooseFuel(given: ReturnType<typeof normaliseFuel>, engine: EngineRead, warnings: string[]): ReturnType<typeof normaliseFuel> {
  if (engine.fuel === null) return given;
  if (given !== null && given !== engine.fuel.code) {
    warnings.push(`${field('fuel')} ${given} given; the engine's "${clip(engine.fuel.text)}" (${engine.fuel.code}) ignored`);
  }
  return given ?? engine.fuel.code;
}

/** A code from any spelling; absent → null; not recognised → null with a warning listing what is accepted. */
function attribute<T>(value: string | null | undefined, graphqlName: keyof typeof ACCEPTED, match: (s: string) => T | null, warnings: string[]): T | null {
  if (!present(value)) return null;
  const code = match(value);
  if (code === null) warnings.push(`${field(graphqlName)} "${clip(value)}" ${NOT_RECOGNISED}; accepted: ${ACCEPTED[graphqlName]}`);
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
    const { vehicle, warnings } = inputs[i];
    return { ...value, vehicle, valuedAt, warnings };
  });
}

/** Errors and warnings name fields as REST clients know them. */
function field(graphqlName: string): string {
  return restFieldName(VEHICLE_FIELDS, graphqlName);
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : '';
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
