/**
 * One-at-a-time occlusion, the arithmetic every kind's "what drives the estimate" shares: each field
 * group's contribution is what the estimate would change by were the object typical of its group
 * (its district's) in that group alone. Fixed a priori; the caller values the variants with the
 * serving runtime in one call (models/residential/attribution.ts, models/house/attribution.ts).
 */

export interface Contribution<G extends string = string> {
  group: G;
  /** USD: the estimate with this group typical less the estimate (−9,800: the object's own value adds 9,800). */
  usd: number;
  /** The same as a share of the estimate (−0.1: 10% less were it typical). */
  share: number;
}

/** The changes from the estimate to its variants' estimates, largest first (ties in `order`), at most `top`. */
export function rankedContributions<G extends string>(estimate: number, variants: readonly { group: G; estimate: number }[], order: readonly G[], top = 5): Contribution<G>[] {
  return variants
    .map(({ group, estimate: typicalEstimate }) => ({ group, usd: Math.round((typicalEstimate - estimate) / 100) * 100, share: Math.round((typicalEstimate / estimate - 1) * 1000) / 1000 }))
    .sort((a, b) => Math.abs(b.usd) - Math.abs(a.usd) || order.indexOf(a.group) - order.indexOf(b.group))
    .slice(0, top);
}

/** The most frequent known value (ties: the first met); null when none is known. */
export function mostUsual<T>(values: readonly (T | null)[]): T | null {
  const counts = new Map<T, number>();
  let best: T | null = null;
  for (const v of values) {
    if (v === null) continue;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (best === null || n > counts.get(best)!) best = v;
  }
  return best;
}
