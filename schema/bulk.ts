/**
 * Bulk valuation with per-item errors, the one rule every bulk surface follows (the subgraphs'
 * bulk queries, `npm run valuate`): each input is checked on its own, and a bad one gets its
 * catalogue error in its place; the valid ones are valued together, in one model call.
 */
import { ApiError } from './errors';

/**
 * `normalise` each input (an ApiError it throws becomes that item's result), then `value` all the
 * valid ones at once; `value` returns, in their order, a result or an ApiError for each. The
 * results come back in input order. Errors other than ApiErrors are bugs and propagate.
 */
export async function valueEach<I, N, R>(
  inputs: readonly I[],
  normalise: (input: I, index: number) => N,
  value: (valid: N[]) => Promise<(R | ApiError)[]>,
): Promise<(R | ApiError)[]> {
  const results: (R | ApiError)[] = new Array(inputs.length);
  const valid: { index: number; normalised: N }[] = [];
  inputs.forEach((input, index) => {
    try {
      valid.push({ index, normalised: normalise(input, index) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results[index] = error;
    }
  });
  const values = valid.length ? await value(valid.map((v) => v.normalised)) : [];
  valid.forEach(({ index }, i) => {
    results[index] = values[i];
  });
  return results;
}
