/**
 * Pieces every kind's feature module shares: listing periods as month indices, and the running
 * sums behind smoothed target encodings (a group's mean shrunk towards its parent's).
 */

/** Months since January 2020 of a 'YYYY-MM' period. */
export function periodIndex(period: string): number {
  const [year, month] = period.split('-').map(Number);
  return (year - 2020) * 12 + (month - 1);
}

/** Adds one target value to a group's running sum. */
export function accumulate(map: Map<string, { sum: number; n: number }>, key: string, y: number): void {
  const entry = map.get(key);
  if (entry) {
    entry.sum += y;
    entry.n += 1;
  } else map.set(key, { sum: y, n: 1 });
}
