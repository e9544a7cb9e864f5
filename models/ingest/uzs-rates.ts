/**
 * Official USD/UZS rates for converting soʻm asking prices to USD at the time they were asked.
 *
 * Source: Central Bank of the Republic of Uzbekistan (CBU), official rate of the US dollar
 * (cbu.uz → "Archive of exchange rates"), the rate in force on the first banking day of the month,
 * rounded to whole soʻm. Values were taken from CBU announcements as reported by the Uzbek press
 * (e.g. 12 546.02 on 14 March 2024, 12 937.16 on 1 April 2025); re-check against the CBU archive
 * when adding a month.
 */
export const UZS_PER_USD: Readonly<Record<string, number>> = {
  '2021-02': 10_480,
  '2024-04': 12_630,
  '2025-02': 12_970,
  '2025-04': 12_937,
  '2025-06': 12_760,
};

/** Converts soʻm to USD at the period's rate; a period without a rate is a programming error, not bad data. */
export function uzsToUsd(amountUzs: number, period: string): number {
  const rate = UZS_PER_USD[period];
  if (rate === undefined) throw new Error(`no USD/UZS rate for ${period}: add it to uzs-rates.ts`);
  return amountUzs / rate;
}
