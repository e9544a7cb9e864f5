/** The USD/UZS rate table (models/currency/cbu-rates.ts): its entries, the listing files that state rates, and which entry a date gets. */
import { rateForDate, USD_UZS_RATES, UZS_PER_USD, uzsToUsd } from '../../models/currency';
import { checkRatesAgainstListings, describeRateCheck } from '../../models/currency/rates-check';
import { DATA_DIR } from '../../models/paths';


describe('the rate table', () => {
  it('lists months oldest first, each with a rate, its day in that month and a source', () => {
    expect(USD_UZS_RATES.length).toBeGreaterThanOrEqual(6);
    USD_UZS_RATES.forEach((r, i) => {
      expect(r.period).toMatch(/^\d{4}-\d{2}$/);
      if (i > 0) expect(r.period > USD_UZS_RATES[i - 1].period).toBe(true);
      expect(r.date.startsWith(`${r.period}-`)).toBe(true);
      expect(r.usdToUzs).toBeGreaterThan(8_000);
      expect(r.usdToUzs).toBeLessThan(16_000);
      expect(r.source).toMatch(r.official ? /^Central Bank of Uzbekistan/ : /^Not a CBU rate/);
    });
  });

  it('keeps the rates ingestion converted soʻm prices with, so its results do not move', () => {
    expect(UZS_PER_USD).toMatchObject({ '2021-02': 10_480, '2024-04': 12_630, '2025-02': 12_970, '2025-04': 12_937, '2025-06': 12_760 });
    expect(uzsToUsd(12_630_000, '2024-04')).toBe(1_000);
    expect(() => uzsToUsd(1, '2023-10')).toThrow(/no USD\/UZS rate for 2023-10/);
  });

  it('agrees within 0.5% with the rate of every listing file that states prices in both currencies (the refresh\'s check)', () => {
    const checks = checkRatesAgainstListings();
    expect(checks.map((c) => `${c.file} ${c.month}`)).toEqual(['listings/uybor_listings_2026_07.csv 2026-07']);
    for (const check of checks) expect(check.ok).toBe(true);
    expect(describeRateCheck(checks[0])).toMatch(/^rate table: 2026-07 12031.25 agrees with/);
  });

  it('says which month to add, and which rate to re-check, when the table lacks or misses a month', () => {
    const [missing] = checkRatesAgainstListings(DATA_DIR, USD_UZS_RATES.filter((r) => r.period !== '2026-07'));
    expect(missing.ok).toBe(false);
    expect(describeRateCheck(missing)).toMatch(/^rate table: no rate for 2026-07: add the CBU rate of 2026-07/);
    const [off] = checkRatesAgainstListings(DATA_DIR, USD_UZS_RATES.map((r) => (r.period === '2026-07' ? { ...r, usdToUzs: 12_500 } : r)));
    expect(describeRateCheck(off)).toMatch(/is more than 0.5% from/);
  });
});

describe('the rate of a valuation date', () => {
  it('is the entry of its own month, without a warning when that is the CBU rate', () => {
    expect(rateForDate('2025-04-17')).toEqual({ rate: expect.objectContaining({ period: '2025-04', usdToUzs: 12_937, date: '2025-04-01' }), warning: null });
  });

  it('is the newest entry before it when its month has none, with a warning', () => {
    const { rate, warning } = rateForDate('2025-05-20');
    expect(rate.period).toBe('2025-04');
    expect(warning).toBe('no USD/UZS rate for 2025-05 in the table: converted at the 2025-04 rate, the newest before it');
  });

  it('past the newest entry is the newest, with a warning naming it', () => {
    const { rate, warning } = rateForDate('2026-11-24');
    expect(rate).toBe(USD_UZS_RATES[USD_UZS_RATES.length - 1]);
    expect(warning).toMatch(/^no USD\/UZS rate after 2026-07 in the table: converted at the 2026-07 rate; the 2026-07 rate is not the CBU's/);
  });

  it('before the oldest entry is the oldest, with a warning', () => {
    expect(rateForDate('2021-01-15')).toEqual({ rate: USD_UZS_RATES[0], warning: 'no USD/UZS rate before 2021-02 in the table: converted at the 2021-02 rate' });
  });

  it('says when the entry of its own month is not the CBU rate', () => {
    expect(rateForDate('2026-07-05').warning).toBe("the 2026-07 rate is not the CBU's but the one uybor.uz's listings imply (exchange_rate.source)");
  });
});
