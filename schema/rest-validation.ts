/**
 * REST body checks before anything is executed: nesting depth (./nesting.ts), personal data (by
 * key and by value), then the field table's JSON Schema (ajv) and the bounds it cannot state,
 * with errors phrased for the client:
 * `{ code: INVALID_PARAMETER, field: 'area', message: 'area must be a number' }`.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ApiError } from './errors';
import { checkInputFields, rangeMessage, requestJsonSchema, restBodyToInput, STRING_FORMATS, withEnumValues, type FieldSpec } from './field-table';
import { checkNesting } from './nesting';
import { looksLikePersonalDataKey, looksLikePersonalDataValue } from './personal-data';

// verbose: errors carry their schema, so range messages can name both bounds.
const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });

export interface BodyValidator {
  /** Returns the body as an object and the warnings about ignored fields; throws ApiError. */
  (body: unknown): { body: Record<string, unknown>; warnings: string[] };
}

export function compileBodyValidator(schema: Record<string, unknown>): BodyValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  const known = new Set(Object.keys(schema.properties as object));
  return (body: unknown) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object');
    }
    const record = body as Record<string, unknown>;
    const warnings: string[] = [];
    for (const [key, value] of Object.entries(record)) {
      checkNesting(value, key.slice(0, 40));
      if (known.has(key)) continue;
      if (looksLikePersonalDataKey(key) || (typeof value === 'string' && looksLikePersonalDataValue(value))) {
        throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `Field "${key.slice(0, 40)}" looks like personal data; the valuation needs none: remove it`, key.slice(0, 40));
      }
      warnings.push(`unknown field "${key.slice(0, 40)}" ignored`);
    }
    if (!validate(record)) throw fromAjv(validate.errors![0]);
    return { body: record, warnings };
  };
}

/** A REST body → the GraphQL input of a field table, checked as compileBodyValidator checks; throws ApiError. */
export type RestBodyParser = (body: unknown) => { input: Record<string, unknown>; warnings: string[] };

export function compileRestBodyParser(fields: readonly FieldSpec[]): RestBodyParser {
  const validate = compileBodyValidator(requestJsonSchema(fields));
  // The JSON Schema cannot state "the current year": those bounds are checked here, as the subgraph
  // checks them, so that no value past GraphQL's Int (year 2147483648, 1e308) reaches a variable.
  const currentYearBounded = fields.filter((f) => f.maxIsCurrentYear);
  return (body) => {
    const { body: record, warnings } = validate(withEnumValues(fields, body));
    const input = restBodyToInput(fields, record, warnings);
    checkInputFields(currentYearBounded, input);
    return { input, warnings };
  };
}

function fromAjv(error: ErrorObject): ApiError {
  if (error.keyword === 'required') {
    const field = String(error.params.missingProperty);
    return new ApiError('MISSING_PARAMETER', `${field} is required`, field);
  }
  const field = error.instancePath.replace(/^\//, '').split('/')[0] || undefined;
  const name = field ?? 'body';
  const schema = error.parentSchema as { minimum?: number; maximum?: number; type?: string | string[]; enum?: unknown[] } | undefined;
  switch (error.keyword) {
    case 'type': {
      const expected = Array.isArray(error.params.type) ? error.params.type.join(' or ') : String(error.params.type);
      return new ApiError('INVALID_PARAMETER', `${name} must be ${expected === 'integer' ? 'an integer' : `a ${expected}`}`, field);
    }
    case 'minimum':
    case 'maximum':
      return new ApiError('INVALID_PARAMETER', rangeMessage(name, schema?.minimum, schema?.maximum), field);
    case 'minLength':
      return new ApiError('INVALID_PARAMETER', `${name} must not be empty`, field);
    case 'maxLength':
      return new ApiError('INVALID_PARAMETER', `${name} is too long`, field);
    case 'enum':
      return new ApiError('INVALID_PARAMETER', `${name} must be one of ${(schema?.enum ?? []).join(', ')}`, field);
    case 'pattern': {
      const format = Object.values(STRING_FORMATS).find((f) => f.pattern === error.params.pattern);
      return new ApiError('INVALID_PARAMETER', `${name} must be ${format?.name ?? `of the form ${String(error.params.pattern)}`}`, field);
    }
    default:
      return new ApiError('INVALID_PARAMETER', `${name} ${error.message ?? 'is invalid'}`, field);
  }
}
