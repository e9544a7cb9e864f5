/** How many records each month holds (months in order) and the first and last month; null ends when there are none. */
export function countByPeriod(records: readonly { period: string }[]): { byPeriod: Record<string, number>; first: string | null; last: string | null } {
  const byPeriod: Record<string, number> = {};
  for (const period of records.map((r) => r.period).sort()) byPeriod[period] = (byPeriod[period] ?? 0) + 1;
  const months = Object.keys(byPeriod);
  return { byPeriod, first: months[0] ?? null, last: months[months.length - 1] ?? null };
}
