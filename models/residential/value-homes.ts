/**
 * One runtime call for many normalised home inputs (./request.ts normalises them; ./valuation.ts
 * says what the runtime is): apart from the normalisation, so that the request does not depend on
 * the runtime that values it.
 */
import type { ApiError } from '../../schema/errors';
import type { HomeValuationView } from '../../schema/home-rest';
import { InsufficientHouseDataError } from '../house/valuation';
import { insufficientHouseData, type NormalisedHomeInput } from './request';
import type { ResidentialRuntime } from './valuation';

/**
 * Values normalised inputs with one runtime call, as every surface answers them (the subgraph,
 * the valuate CLI): the runtime's value with where, when and the warnings, or INSUFFICIENT_MARKET_DATA
 * in place of a refused house. Output order = input order.
 */
export async function valueHomes(runtime: ResidentialRuntime, inputs: readonly NormalisedHomeInput[]): Promise<(HomeValuationView | ApiError)[]> {
  const values = await runtime.value(inputs.map((i) => i.request));
  const valuedAt = new Date().toISOString();
  return values.map((value, i) => {
    if (value instanceof InsufficientHouseDataError) return insufficientHouseData(value);
    const { location, warnings } = inputs[i];
    // Object.assign, not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
    return Object.assign({}, value, { location, valuedAt, warnings });
  });
}
