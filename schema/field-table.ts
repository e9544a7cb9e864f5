/**
 * Request field tables: one row per field, read by every surface. From a table come the REST JSON
 * Schema (validated by ajv, published in OpenAPI), the REST body → GraphQL input mapping, and the
 * checks the subgraphs run on GraphQL inputs, so a field has one name, type and range everywhere.
 * Pure data and pure functions; the tables themselves are in ./home-contract.ts and ./vehicle-contract.ts.
 */
import { ApiError } from './errors';
import { looksLikePersonalDataValue } from './personal-data';
import { parseYesNo } from './yes-no';

export interface FieldSpec {
  rest: string;
  /** Other REST spellings accepted for the same field (legacy clients). */
  restAliases?: readonly string[];
  graphql: string;
  /**
   * numberOrText: a number (checked against min/max) or, on REST, a text the field's normalisation
   * reads (an avtoelon "1.5 (Benzin)" engine cell); the text goes to the GraphQL field `textGraphql`,
   * since a GraphQL field has one type.
   */
  kind: 'string' | 'number' | 'integer' | 'yesno' | 'numberOrText' | 'enum';
  /** numberOrText only: the GraphQL String field a REST text goes to. */
  textGraphql?: string;
  /**
   * enum only: the values, as the GraphQL enum spells them (upper case). REST, MCP and batch items
   * take them in any case (enumValue); the published JSON Schema lists them as they are.
   */
  values?: readonly string[];
  required: boolean;
  min?: number;
  max?: number;
  /**
   * The upper bound is the calendar year at the time of the check (model years). JSON Schema cannot
   * say that, so the published schema states it in the description and the check is the subgraph's.
   */
  maxIsCurrentYear?: boolean;
  /** A string field's form (STRING_FORMATS): published and checked as a JSON Schema pattern. */
  format?: keyof typeof STRING_FORMATS;
  description: string;
  example?: unknown;
}

/**
 * Forms a string field may have: the pattern its JSON Schema states (so OpenAPI and the MCP tools
 * publish it and ajv checks it), and how an error names it. Ranges and calendar checks stay with
 * the field's own normalisation (e.g. models/residential/request.ts for valuation_date).
 */
export const STRING_FORMATS = {
  /** YYYY-MM-DD, or YYYY-MM for the 1st of the month. */
  date: { pattern: '^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$', name: 'a date YYYY-MM-DD' },
} as const;

/** How an optional value that is not recognised is answered, for homes and vehicles alike: ignored, with this warning (and what is accepted). */
export const NOT_RECOGNISED = 'is not recognised and was ignored';
/** How a yes/no may be written. */
export const YES_NO_ACCEPTED = "yes/no: ha/yo'q, да/нет, true/false";

export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_STRING_LENGTH = 200;

/** The field's bounds at this moment (see maxIsCurrentYear). */
export function fieldBounds(f: FieldSpec, now: Date = new Date()): { min?: number; max?: number } {
  return { min: f.min, max: f.maxIsCurrentYear ? now.getUTCFullYear() : f.max };
}

/** The JSON Schema of a REST body made of these fields (draft 2020-12, as OpenAPI 3.1 uses). */
export function requestJsonSchema(fields: readonly FieldSpec[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const f of fields) {
    const schema = fieldJsonSchema(f);
    properties[f.rest] = schema;
    for (const alias of f.restAliases ?? []) properties[alias] = { ...schema, description: `Alias of ${f.rest}` };
  }
  return {
    type: 'object',
    required: fields.filter((f) => f.required).map((f) => f.rest),
    properties,
    additionalProperties: true,
  };
}

function fieldJsonSchema(f: FieldSpec): Record<string, unknown> {
  const base: Record<string, unknown> = { description: f.description };
  if (f.example !== undefined) base.examples = [f.example];
  switch (f.kind) {
    case 'string':
      return { ...base, type: 'string', minLength: 1, maxLength: MAX_STRING_LENGTH, ...(f.format && { pattern: STRING_FORMATS[f.format].pattern }) };
    case 'number':
    case 'integer':
      // maxIsCurrentYear: no maximum here, or the published document would go stale every January.
      return { ...base, type: f.kind, minimum: f.min, maximum: f.maxIsCurrentYear ? undefined : f.max };
    case 'yesno':
      return { ...base, type: ['string', 'boolean'], maxLength: MAX_STRING_LENGTH };
    case 'numberOrText':
      // minimum/maximum bind numbers only, minLength/maxLength texts only.
      return { ...base, type: ['number', 'string'], minimum: f.min, maximum: f.max, minLength: 1, maxLength: MAX_STRING_LENGTH };
    case 'enum':
      return { ...base, type: 'string', enum: [...enumValues(f)] };
  }
}

function enumValues(f: FieldSpec): readonly string[] {
  if (!f.values?.length) throw new Error(`field ${f.rest} is an enum without values`);
  return f.values;
}

/** An enum field's value as GraphQL spells it when it names one of the values in any case ("uzs" → "UZS"); anything else as it is, for the checks to refuse. */
export function enumValue(f: FieldSpec, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const upper = value.trim().toUpperCase();
  return enumValues(f).includes(upper) ? upper : value;
}

/** A REST body with its enum fields (and their aliases) spelled as GraphQL spells them; the body itself is not changed. */
export function withEnumValues(fields: readonly FieldSpec[], body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  let out = body as Record<string, unknown>;
  for (const f of fields) {
    if (f.kind !== 'enum') continue;
    for (const name of [f.rest, ...(f.restAliases ?? [])]) {
      if (typeof out[name] === 'string' && enumValue(f, out[name]) !== out[name]) out = { ...out, [name]: enumValue(f, out[name]) };
    }
  }
  return out;
}

/**
 * A REST body (snake_case names and aliases, already checked against requestJsonSchema) → the
 * GraphQL input. An optional yes/no that reads as neither is, by `unreadable`: left out with a
 * warning pushed there (as an unrecognised optional description is), 'kept' as text for the
 * valuing code to warn about (a batch item's home, valued later), or refused (the default).
 */
export function restBodyToInput(fields: readonly FieldSpec[], body: Readonly<Record<string, unknown>>, unreadable: string[] | 'keep' | 'refuse' = 'refuse'): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const f of fields) {
    let value = body[f.rest];
    for (const alias of f.restAliases ?? []) if (value === undefined) value = body[alias];
    if (value === undefined || value === null) continue;
    if (f.kind === 'yesno' && typeof value === 'string') {
      const parsed = parseYesNo(value);
      if (parsed === null && Array.isArray(unreadable) && !f.required) {
        unreadable.push(`${f.rest} "${value.slice(0, 40)}" ${NOT_RECOGNISED}; accepted: ${YES_NO_ACCEPTED}`);
        continue;
      }
      if (parsed === null && unreadable !== 'keep') throw new ApiError('INVALID_PARAMETER', `${f.rest} must be yes/no (${YES_NO_ACCEPTED})`, f.rest);
      value = parsed ?? value;
    }
    input[f.kind === 'numberOrText' && typeof value === 'string' ? textGraphqlName(f) : f.graphql] = value;
  }
  return input;
}

/**
 * The checks a subgraph runs on a GraphQL input (GraphQL has checked the types it knows): presence,
 * integers, ranges, and personal data inside free-text fields. Errors name fields as REST clients
 * know them, since a REST route reports the subgraph's error as it is.
 */
export function checkInputFields(fields: readonly FieldSpec[], input: Readonly<Record<string, unknown>>, now: Date = new Date()): void {
  for (const f of fields) {
    if (f.kind !== 'numberOrText') {
      checkField(f, input[f.graphql], now);
      continue;
    }
    // The number and the text are two GraphQL fields; a required field needs one of them.
    const text = input[textGraphqlName(f)];
    checkField({ ...f, kind: 'number', required: f.required && (text === undefined || text === null) }, input[f.graphql], now);
    checkField({ ...f, kind: 'string', required: false }, text, now);
  }
}

function textGraphqlName(f: FieldSpec): string {
  if (!f.textGraphql) throw new Error(`field ${f.rest} is numberOrText without textGraphql`);
  return f.textGraphql;
}

function checkField(f: FieldSpec, value: unknown, now: Date): void {
  if (value === undefined || value === null) {
    if (f.required) throw new ApiError('MISSING_PARAMETER', `${f.rest} is required`, f.rest);
    return;
  }
  switch (f.kind) {
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ApiError('INVALID_PARAMETER', `${f.rest} must be a number`, f.rest);
      if (f.kind === 'integer' && !Number.isInteger(value)) throw new ApiError('INVALID_PARAMETER', `${f.rest} must be an integer`, f.rest);
      const { min, max } = fieldBounds(f, now);
      if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
        throw new ApiError('INVALID_PARAMETER', rangeMessage(f.rest, min, max), f.rest);
      }
      return;
    }
    case 'string':
      if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', `${f.rest} must be a string`, f.rest);
      if (value.trim() === '' && f.required) throw new ApiError('MISSING_PARAMETER', `${f.rest} is required`, f.rest);
      if (looksLikePersonalDataValue(value)) throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `${f.rest} looks like it contains a phone number or e-mail address`, f.rest);
      return;
    case 'yesno':
      if (typeof value !== 'string' && typeof value !== 'boolean') throw new ApiError('INVALID_PARAMETER', `${f.rest} must be yes/no or true/false`, f.rest);
      return;
    case 'enum':
      if (typeof value !== 'string' || !enumValues(f).includes(value)) throw new ApiError('INVALID_PARAMETER', `${f.rest} must be one of ${enumValues(f).join(', ')}`, f.rest);
      return;
    case 'numberOrText':
      throw new Error('numberOrText fields are checked as their number and their text (checkInputFields)');
  }
}

/** "year must be between 1960 and 2025", or one bound alone. */
export function rangeMessage(name: string, min: number | undefined, max: number | undefined): string {
  if (min === undefined) return `${name} must be at most ${max}`;
  if (max === undefined) return `${name} must be at least ${min}`;
  return `${name} must be between ${min} and ${max}`;
}

/** The REST name of a field given its GraphQL name, or its text's (unknown names are returned as they are). */
export function restFieldName(fields: readonly FieldSpec[], graphqlName: string): string {
  return fields.find((f) => f.graphql === graphqlName || f.textGraphql === graphqlName)?.rest ?? graphqlName;
}

/**
 * The table's description of a GraphQL input field, with its range: one wording on every surface
 * (the GraphQL input types read the table as REST's JSON Schema and the MCP tools do). A range the
 * description already states is not repeated.
 */
export function graphqlDescription(fields: readonly FieldSpec[], graphqlName: string): string {
  const f = fields.find((field) => field.graphql === graphqlName || field.textGraphql === graphqlName);
  if (!f) throw new Error(`no field ${graphqlName} in the table`);
  const description = f.textGraphql ? `${f.description}. In GraphQL, ${f.graphql} takes the number and ${f.textGraphql} the text` : f.description;
  if (f.min === undefined || f.max === undefined) return description;
  const range = `${f.min.toLocaleString('en')} to ${f.max.toLocaleString('en')}`;
  return description.includes(range) || description.includes(`${f.min} to ${f.max}`) ? description : `${description} (${range})`;
}
