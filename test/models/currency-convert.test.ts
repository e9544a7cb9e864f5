/** models/currency inCurrency: a valuation in USD as the models make it → in the currency asked for. */
import { inCurrency, rateForDate, usdAmountInUzs, uzsAmountInUsd } from '../../models/currency';

/** A house valued at 2025-04-17, moved by an organisation's observations: every amount a home valuation has. */
const HOUSE = {
  propertyType: 'house',
  estimate: 182_300,
  currency: 'USD' as const,
  pricePerM2: 911.5,
  landPricePerSotka: 12_345.67,
  interval: { low: 150_100, high: 221_900, coverage: 0.9 },
  confidence: { level: 'medium', score: 0.61 },
  models: [{ name: 'gbm', estimate: 180_000 }, { name: 'knn', estimate: 184_600 }],
  anomaly: {
    districtMedianPricePerM2: 1_010.4,
    deviationFromDistrictMedian: -0.098,
    mahallaMedianPricePerM2: null,
    deviationFromMahallaMedian: null,
    districtMedianPricePerSotka: 11_900.2,
    landShare: 0.41,
    modelSpread: 0.03,
    flags: ['ASKING_PRICE_OUTSIDE_INTERVAL'],
  },
  marketLevel: { valuationDate: '2025-04-17', newestDataPeriod: '2026-07', dataAgeMonths: 0, indexRatio: 0.93, intervalWidening: 0 },
  marketAdjustment: { baseEstimate: 190_000, baseLow: 160_000, baseHigh: 230_000, factor: 0.9595, group: 'Tashkent › Yunusabad › house', asOf: '2026-11-24' },
  modelVersion: '2026.11.5',
  warnings: ['land_area read as sotka'],
};

describe('inCurrency', () => {
  it('leaves a valuation in USD as it is, with exchangeRate null, when USD or nothing is asked for', () => {
    for (const currency of [undefined, null, 'USD'] as const) expect(inCurrency(HOUSE, currency)).toEqual({ ...HOUSE, exchangeRate: null });
  });

  it('converts every amount to soʻm at the rate of the valuation date: values to whole 1,000 soʻm, prices per unit to whole soʻm; ratios stay', () => {
    const k = 12_994.59; // the CBU's official rate of 2025-04-17
    const thousands = (usd: number) => Math.round((usd * k) / 1000) * 1000;
    expect(inCurrency(HOUSE, 'UZS')).toEqual({
      ...HOUSE,
      currency: 'UZS',
      estimate: thousands(182_300),
      pricePerM2: Math.round(911.5 * k),
      landPricePerSotka: Math.round(12_345.67 * k),
      interval: { low: thousands(150_100), high: thousands(221_900), coverage: 0.9 },
      models: [{ name: 'gbm', estimate: thousands(180_000) }, { name: 'knn', estimate: thousands(184_600) }],
      anomaly: { ...HOUSE.anomaly, districtMedianPricePerM2: Math.round(1_010.4 * k), districtMedianPricePerSotka: Math.round(11_900.2 * k) },
      marketAdjustment: { ...HOUSE.marketAdjustment, baseEstimate: thousands(190_000), baseLow: thousands(160_000), baseHigh: thousands(230_000) },
      exchangeRate: { usdToUzs: k, date: '2025-04-17', source: 'Central Bank of Uzbekistan (cbu.uz), official USD rate of 2025-04-17' },
      warnings: HOUSE.warnings,
    });
    expect(inCurrency(HOUSE, 'UZS').estimate).toBe(2_368_914_000);
  });

  it("converts a vehicle's group median price as a value, and a flat without a plot keeps its nulls", () => {
    const car = { estimate: 11_200, currency: 'USD' as const, interval: { low: 9_800, high: 12_700, coverage: 0.9 }, models: [], anomaly: { groupMedianPrice: 11_050, deviationFromGroupMedian: 0.014, marketListings: 420 }, marketLevel: { valuationDate: '2025-06-10' }, marketAdjustment: null, warnings: [] };
    const converted = inCurrency(car, 'UZS');
    expect(converted.anomaly).toEqual({ groupMedianPrice: Math.round((11_050 * 12_712.05) / 1000) * 1000, deviationFromGroupMedian: 0.014, marketListings: 420 });
    expect(converted.marketAdjustment).toBeNull();
    expect(converted.exchangeRate).toMatchObject({ usdToUzs: 12_712.05, date: '2025-06-10' });
    expect(inCurrency({ ...HOUSE, landPricePerSotka: null }, 'UZS').landPricePerSotka).toBeNull();
  });

  it("converts a flat's new-build and resale valuations of a market mixture as values; the probability stays", () => {
    const k = 12_994.59; // 2025-04-17
    const thousands = (usd: number) => Math.round((usd * k) / 1000) * 1000;
    const flat = {
      ...HOUSE,
      propertyType: 'apartment',
      landPricePerSotka: null,
      marketAdjustment: null,
      marketMixture: { newBuildProbability: 0.514, newBuild: { estimate: 114_600, low: 67_700, high: 193_800 }, resale: { estimate: 109_500, low: 88_000, high: 136_200 } },
    };
    const converted = inCurrency(flat, 'UZS');
    expect(converted.marketMixture).toEqual({
      newBuildProbability: 0.514,
      newBuild: { estimate: thousands(114_600), low: thousands(67_700), high: thousands(193_800) },
      resale: { estimate: thousands(109_500), low: thousands(88_000), high: thousands(136_200) },
    });
    expect(converted.marketMixture.newBuild.estimate).toBe(thousands(114_600));
    expect(converted.marketAdjustment).toBeNull();
    expect(inCurrency({ ...flat, marketMixture: null }, 'UZS').marketMixture).toBeNull();
    expect(inCurrency(flat, 'USD').marketMixture).toBe(flat.marketMixture);
  });

  it('past the official rates converts at the last published (2026-08-21), adds the warning saying so and names the rate\'s day', () => {
    const late = inCurrency({ ...HOUSE, marketLevel: { ...HOUSE.marketLevel, valuationDate: '2026-11-24' } }, 'UZS');
    expect(late.warnings).toEqual([...HOUSE.warnings, rateForDate('2026-11-24').warning]);
    expect(late.warnings[1]).toMatch(/last published rate, of 2026-08-21, not the rate of 2026-11-24$/);
    expect(late.exchangeRate).toMatchObject({ usdToUzs: 11_847.16, date: '2026-08-21', source: expect.stringMatching(/last published official USD rate/) });
    expect(late.estimate).toBe(Math.round((182_300 * 11_847.16) / 1000) * 1000);
  });

  it('before the official rates converts at the monthly table, which the reply names', () => {
    const early = inCurrency({ ...HOUSE, marketLevel: { ...HOUSE.marketLevel, valuationDate: '2024-04-17' } }, 'UZS');
    expect(early.exchangeRate).toEqual({ usdToUzs: 12_630, date: '2024-04-01', source: expect.stringMatching(/first banking day of 2024-04.*monthly rate table$/) });
    expect(early.warnings).toEqual(HOUSE.warnings);
  });

  it('refuses to convert twice', () => {
    expect(() => inCurrency(inCurrency(HOUSE, 'UZS'), 'UZS')).toThrow(/cannot be converted again/);
  });
});

describe('one amount at a time (the report converts back and forth with these)', () => {
  it('dollars to soʻm round to the value step (1,000) or the per-unit step (1), and soʻm back to dollars to whole hundreds', () => {
    expect(usdAmountInUzs(98_600, 12_650.5)).toBe(1_247_339_000);
    expect(usdAmountInUzs(911.5, 12_650.5, 'perUnit')).toBe(11_530_931);
    expect(uzsAmountInUsd(1_247_339_000, 12_650.5)).toBe(98_600);
    expect(uzsAmountInUsd(1_247_339_000 + 700_000, 12_650.5)).toBe(98_700);
  });
});
