/**
 * Pieces every kind's feature module shares: listing periods as month indices, and the running
 * sums behind smoothed target encodings (a group's mean shrunk towards its parent's).
 */

/** Months since January 2020 of a 'YYYY-MM' period. */
export function periodIndex(period: string): number {
  // Sliced rather than split: serving reads several per valuation, and the arrays cost more than the rest of it.
  const dash = period.indexOf('-');
  if (dash < 0) return NaN;
  const next = period.indexOf('-', dash + 1);
  return (Number(period.slice(0, dash)) - 2020) * 12 + (Number(period.slice(dash + 1, next < 0 ? undefined : next)) - 1);
}

/** Adds one target value to a group's running sum. */
export function accumulate(map: Map<string, { sum: number; n: number }>, key: string, y: number): void {
  const entry = map.get(key);
  if (entry) {
    entry.sum += y;
    entry.n += 1;
  } else map.set(key, { sum: y, n: 1 });
}

/**
 * Each group's mean shrunk toward its prior (m-estimate): (sum + smoothing·prior) / (n + smoothing),
 * so a group with few rows stays near its parent and one with many speaks for itself.
 */
export function shrunkMeans(sums: Map<string, { sum: number; n: number }>, smoothing: number, priorOf: (group: string) => number): Record<string, { mean: number; n: number }> {
  const out: Record<string, { mean: number; n: number }> = {};
  for (const [id, { sum, n }] of sums) out[id] = { mean: (sum + smoothing * priorOf(id)) / (n + smoothing), n };
  return out;
}
