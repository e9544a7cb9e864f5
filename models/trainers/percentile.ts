/**
 * The q-quantile (0 <= q <= 1) of values, as scikit-learn computes it for its quantile loss:
 * numpy's linear interpolation when unweighted, the lower weighted percentile otherwise.
 * `values` is reordered (sorted) in place.
 */
export function quantile(values: Float64Array, q: number, weights: Float64Array | null): number {
  const n = values.length;
  if (n === 0) throw new RangeError('quantile of an empty set');
  if (weights === null) {
    values.sort();
    const pos = q * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, n - 1);
    return values[lo] + (pos - lo) * (values[hi] - values[lo]);
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  const target = q * total;
  let cumulative = 0;
  for (let k = 0; k < n; k++) {
    cumulative += weights[order[k]];
    if (cumulative >= target) return values[order[k]];
  }
  return values[order[n - 1]];
}
