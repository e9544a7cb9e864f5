/** The USD/UZS rates (models/currency): the CBU's daily official rates, the monthly table, which rate a date gets, and the listing files that state rates. */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CBU_DAILY_RATES, dailyRateOn, rateBasisOf, rateForDate, USD_UZS_RATES, UZS_PER_USD, uzsToUsd } from '../../models/currency';
import { CBU_DAILY_PATH, loadDailyRates, parseDailyRates } from '../../models/currency/cbu-daily';
import { checkRatesAgainstListings, describeRateCheck, RATE_TOLERANCE } from '../../models/currency/rates-check';
import { DATA_DIR } from '../../models/paths';
import { OFFICIAL_RATES_SPAN } from '../../schema/currency-contract';

describe('the daily official rates (data/currency/cbu_usd_uzs_daily.csv)', () => {
  it('are loaded at start: one row per published day, 2024-06-19 to 2026-08-21, oldest first', () => {
    expect(CBU_DAILY_RATES).toHaveLength(541);
    expect(CBU_DAILY_RATES[0]).toEqual({ date: '2024-06-19', usdToUzs: 12_627.02 });
    expect(CBU_DAILY_RATES[CBU_DAILY_RATES.length - 1]).toEqual({ date: '2026-08-21', usdToUzs: 11_847.16 });
    for (const r of CBU_DAILY_RATES) expect(r.usdToUzs).toBeGreaterThan(10_000);
    // The contract's descriptions state the same span (schema/ loads no data).
    expect(OFFICIAL_RATES_SPAN).toEqual({ first: CBU_DAILY_RATES[0].date, last: CBU_DAILY_RATES[CBU_DAILY_RATES.length - 1].date });
  });

  it('are the file data/SHA256SUMS records', () => {
    const sha = createHash('sha256').update(readFileSync(join(DATA_DIR, CBU_DAILY_PATH))).digest('hex');
    expect(readFileSync(join(DATA_DIR, 'SHA256SUMS'), 'utf8')).toContain(`${sha}  ./${CBU_DAILY_PATH}\n`);
  });

  it('give a day its own rate, else the newest before it (weekends, holidays), and nothing before the first day', () => {
    expect(dailyRateOn('2026-07-21')).toEqual({ date: '2026-07-21', usdToUzs: 11_960.09 });
    expect(dailyRateOn('2026-07-19')).toEqual({ date: '2026-07-17', usdToUzs: 12_093.35 }); // a Sunday
    expect(dailyRateOn('2024-06-18')).toBeNull();
    expect(dailyRateOn('2027-01-01')?.date).toBe('2026-08-21');
  });

  it('refuse a missing or malformed file with what is wrong and where', () => {
    expect(() => loadDailyRates(mkdtempSync(join(tmpdir(), 'no-rates-')))).toThrow(/^data\/currency\/cbu_usd_uzs_daily\.csv cannot be read .*see data\/README\.md/);
    expect(() => parseDailyRates('day,rate\n2024-06-19,1\n')).toThrow(/first line must be "date,uzs_per_usd"/);
    expect(() => parseDailyRates('date,uzs_per_usd\n2024-06-19,12627.02\n2024-06-20,abc\n')).toThrow(/line 3: expected "YYYY-MM-DD,<soʻm per USD>", got "2024-06-20,abc"/);
    expect(() => parseDailyRates('date,uzs_per_usd\n2024-02-30,12627.02\n')).toThrow(/line 2/);
    expect(() => parseDailyRates('date,uzs_per_usd\n2024-06-19,-1\n')).toThrow(/line 2/);
    expect(() => parseDailyRates('date,uzs_per_usd\n2024-06-20,1\n2024-06-19,1\n')).toThrow(/line 3: 2024-06-19 is not after 2024-06-20/);
    expect(() => parseDailyRates('date,uzs_per_usd\n')).toThrow(/no rates/);
    expect(parseDailyRates('\uFEFFdate,uzs_per_usd\r\n2024-06-19,12627.02\r\n')).toEqual([{ date: '2024-06-19', usdToUzs: 12_627.02 }]);
  });
});

describe('the monthly table', () => {
  it('lists months oldest first, each with a rate, its day in that month and its CBU source', () => {
    USD_UZS_RATES.forEach((r, i) => {
      expect(r.period).toMatch(/^\d{4}-\d{2}$/);
      if (i > 0) expect(r.period > USD_UZS_RATES[i - 1].period).toBe(true);
      expect(r.date.startsWith(`${r.period}-`)).toBe(true);
      expect(r.usdToUzs).toBeGreaterThan(8_000);
      expect(r.usdToUzs).toBeLessThan(16_000);
      expect(r.source).toMatch(/^Central Bank of Uzbekistan \(cbu\.uz\), official USD rate in force on the first banking day of/);
    });
    expect(USD_UZS_RATES.map((r) => r.period)).not.toContain('2026-07'); // the uybor.uz stand-in is gone
  });

  it('keeps the rates ingestion converted soʻm prices with, so its results do not move', () => {
    expect(UZS_PER_USD).toEqual({ '2021-02': 10_480, '2024-04': 12_630, '2025-02': 12_970, '2025-04': 12_937, '2025-06': 12_760 });
    expect(uzsToUsd(12_630_000, '2024-04')).toBe(1_000);
    expect(() => uzsToUsd(1, '2023-10')).toThrow(/no USD\/UZS rate for 2023-10/);
  });

  it('is within 0.3% of the daily rate of each entry\'s day where both exist', () => {
    for (const entry of USD_UZS_RATES.filter((r) => r.date >= CBU_DAILY_RATES[0].date)) {
      const daily = dailyRateOn(entry.date)!;
      expect(daily.date).toBe(entry.date);
      expect(Math.abs(entry.usdToUzs / daily.usdToUzs - 1)).toBeLessThan(0.003);
    }
  });
});

describe('the rate of a valuation date', () => {
  it('is the CBU official rate published that day, without a warning', () => {
    expect(rateForDate('2025-04-17')).toEqual({
      rate: { usdToUzs: 12_994.59, date: '2025-04-17', basis: 'cbu-daily', source: 'Central Bank of Uzbekistan (cbu.uz), official USD rate of 2025-04-17' },
      warning: null,
    });
  });

  it('on a weekend or holiday is the newest published before it, named so, without a warning', () => {
    expect(rateForDate('2026-07-19')).toEqual({
      rate: { usdToUzs: 12_093.35, date: '2026-07-17', basis: 'cbu-daily', source: 'Central Bank of Uzbekistan (cbu.uz), official USD rate of 2026-07-17, the newest published before 2026-07-19' },
      warning: null,
    });
  });

  it('past the daily rates is the last published (2026-08-21), and says plainly it is not the rate of its date', () => {
    const { rate, warning } = rateForDate('2026-11-24');
    expect(rate).toEqual({ usdToUzs: 11_847.16, date: '2026-08-21', basis: 'cbu-last-published', source: expect.stringMatching(/last published official USD rate in the service's data, of 2026-08-21: not the rate of 2026-11-24$/) });
    expect(warning).toBe("no official USD/UZS rate after 2026-08-21 in the service's data: converted at the Central Bank of Uzbekistan's last published rate, of 2026-08-21, not the rate of 2026-11-24");
    expect(rateForDate('2026-08-21').warning).toBeNull();
  });

  it('before the daily rates is the monthly table\'s, with its warnings', () => {
    expect(rateForDate('2024-04-17')).toEqual({ rate: expect.objectContaining({ usdToUzs: 12_630, date: '2024-04-01', basis: 'cbu-monthly', source: expect.stringMatching(/first banking day of 2024-04.*monthly rate table$/) }), warning: null });
    expect(rateForDate('2024-06-18')).toEqual({ rate: expect.objectContaining({ date: '2024-04-01', basis: 'cbu-monthly' }), warning: 'no USD/UZS rate for 2024-06 in the monthly table: converted at the 2024-04 rate, the newest before it' });
    expect(rateForDate('2021-01-15')).toEqual({ rate: expect.objectContaining({ usdToUzs: 10_480, date: '2021-02-01' }), warning: 'no USD/UZS rate before 2021-02 in the monthly table: converted at the 2021-02 rate' });
    expect(rateForDate('2024-06-19').rate.basis).toBe('cbu-daily');
  });

  it('refuses what is not a day', () => {
    expect(() => rateForDate('2025-04')).toThrow(/not a date/);
  });
});

describe('the basis of a recorded rate (what a report says of it)', () => {
  it('is the rule\'s when the rule still gives that rate, the monthly table for an older monthly answer, else recorded', () => {
    expect(rateBasisOf(rateForDate('2026-07-19').rate, '2026-07-19')).toBe('cbu-daily');
    expect(rateBasisOf(rateForDate('2026-11-24').rate, '2026-11-24')).toBe('cbu-last-published');
    expect(rateBasisOf(rateForDate('2024-04-17').rate, '2024-04-17')).toBe('cbu-monthly');
    // Answered before the daily rates came: the 2025-04 monthly entry, and the 2026-07 stand-in.
    expect(rateBasisOf(USD_UZS_RATES.find((r) => r.period === '2025-04')!, '2025-04-17')).toBe('cbu-monthly');
    expect(rateBasisOf({ usdToUzs: 12_031.25, date: '2026-07-21', source: 'Not a CBU rate: the rate implied by uybor.uz listings' }, '2026-07-21')).toBe('recorded');
  });
});

describe('the sites\' rates against the official rates (the refresh\'s check)', () => {
  it('compares every listing file that states both prices with the CBU rate of each listing\'s day: the median within a few percent', () => {
    const checks = checkRatesAgainstListings();
    expect(checks.map((c) => c.file)).toEqual(['listings/uybor_listings_2026_07.csv']);
    const [uybor] = checks;
    expect(uybor).toMatchObject({ listings: 700, from: '2026-07-21', to: '2026-07-21', implied: 12_031.25, outside: 0, ok: true });
    // uybor.uz's snapshot of 21 July 2026 converted at the CBU rate of the day before (12,031.25): +0.59% over that day's 11,960.09.
    expect(uybor.ratio!.median).toBeCloseTo(12_031.25 / 11_960.09, 6);
    expect(Math.abs(uybor.ratio!.median - 1)).toBeLessThan(RATE_TOLERANCE);
    expect(uybor.ratio!.max - uybor.ratio!.min).toBeLessThan(1e-5);
    expect(uybor.siteUsedRateOf).toBe('2026-07-20');
    expect(describeRateCheck(uybor)).toBe(
      "official rates: listings/uybor_listings_2026_07.csv (700 listings, 2026-07-21 to 2026-07-21): implied rate 12031.25 soʻm per USD, +0.59% from the CBU official rate of each listing's day (median; 10-90%: +0.59% to +0.59%, extremes +0.59% to +0.60%); the site's rate is the CBU's of 2026-07-20",
    );
  });

  it('says so when a file is further off, and which rates to add when its listings are past them', () => {
    const shifted = CBU_DAILY_RATES.map((r) => ({ ...r, usdToUzs: r.usdToUzs * 1.05 }));
    const [off] = checkRatesAgainstListings(DATA_DIR, shifted);
    expect(off.ok).toBe(false);
    expect(describeRateCheck(off)).toMatch(/^official rates: more than 2% off: .* -4\.\d\d% from the CBU official rate/);
    const [early] = checkRatesAgainstListings(DATA_DIR, CBU_DAILY_RATES.filter((r) => r.date <= '2026-07-10'));
    expect(early).toMatchObject({ listings: 700, outside: 700, ratio: null, ok: false });
    expect(describeRateCheck(early)).toBe(
      "official rates: none for listings/uybor_listings_2026_07.csv (700 listings, 2026-07-21 to 2026-07-21); 700 listings dated outside the official rates not compared: add the CBU's rates up to 2026-07-21 to data/currency/cbu_usd_uzs_daily.csv (CBU archive)",
    );
  });
});
