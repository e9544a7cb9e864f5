import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../models/paths';
import { accuracyClass, type AccuracyMetrics } from '../../models/ensemble/metrics';
import type { AccuracyClass } from '../../models/ensemble/confidence';
import { CONFIDENCE_RULE, malformedSvg } from '../../models/ensemble/card-kit';
import { vehicleGroup } from '../../models/vehicle/features';
import { ingestVehicles, type VehicleIngestResult, type VehicleRecord } from '../../models/vehicle/ingest';
import { currentVersion, readManifest, setCurrentVersion, VEHICLE_DIR, type VehicleManifest } from '../../models/vehicle/manifest';
import {
  renderVehicleModelCard, vehicleFlagRules, vehicleMarketFindings, writeVehicleModelCard, FIT_AGES, VEHICLE_ACCURACY_CLASS_RULE, VEHICLE_FIGURE_TITLES,
  type VehicleEvaluationFile,
} from '../../models/vehicle/model-card';
import { runVehicleModelCardCli } from '../../models/vehicle/model-card-cli';
import { VEHICLE_OUT_OF_DISTRIBUTION_FLAGS } from '../../models/vehicle/runtime';
import { Random } from '../../models/trainers/random';

const VERSION = '2099.01.0';
const GROUPS = ['Chevrolet Cobalt', 'Chevrolet Spark', 'Chevrolet Gentra', 'Chevrolet Tahoe'];

/** Fixed, easy-to-check numbers: group i of GROUPS gets n = 400 − 100·i (Tahoe: 12), R² = 0.9 − 0.1·i, … */
function groupMetrics(i: number, coverage = 0.5 + 0.1 * i): AccuracyMetrics {
  return {
    n: i === 3 ? 12 : 400 - 100 * i,
    r2: 0.9 - 0.1 * i,
    mape: 0.08 + 0.03 * i,
    medianApe: 0.06 + 0.02 * i,
    maeUsd: 900 + 100 * i + 0.4,
    ppe10: 0.7 - 0.1 * i,
    ppe20: 0.9 - 0.05 * i,
    intervalCoverage: coverage,
    intervalCoverageBounds95: { low: coverage - 0.03, high: coverage + 0.03 },
    medianIntervalWidth: 0.3 + 0.02 * i,
  };
}

const HEADLINE: AccuracyMetrics = { n: 1012, r2: 0.81234, mape: 0.15432, medianApe: 0.14713, maeUsd: 1978.2, ppe10: 0.26, ppe20: 0.73, intervalCoverage: 0.5616, intervalCoverageBounds95: { low: 0.5312, high: 0.5914 }, medianIntervalWidth: 0.37 };
const KFOLD: AccuracyMetrics = { n: 4321, r2: 0.87, mape: 0.1002, medianApe: 0.0617, maeUsd: 1036.8, ppe10: 0.67, ppe20: 0.88, intervalCoverage: 0.9074, intervalCoverageBounds95: { low: 0.8985, high: 0.9156 }, medianIntervalWidth: 0.318 };

function syntheticManifest(ingest: VehicleIngestResult): VehicleManifest {
  const report = (protocol: string, overall: AccuracyMetrics, coverage?: number) => {
    const groups: VehicleManifest['evaluation']['headline']['groups'] = {};
    GROUPS.forEach((g, i) => {
      const m = groupMetrics(i, coverage);
      groups[g] = { ...m, accuracyClass: accuracyClass(m) };
    });
    return { protocol, weights: { gbdt: 0.45, forest: 0.55 }, overall, groups, bySource: { avtoelon_chevrolet_2023: overall } };
  };
  const groupAccuracy: Record<string, AccuracyClass> = Object.fromEntries(GROUPS.map((g, i) => [g, accuracyClass(groupMetrics(i))]));
  const market = (listings: number) => ({ listings, years: { from: 2010, to: 2023 }, medianPriceByYear: {} });
  return {
    kind: 'vehicle',
    version: VERSION,
    trainedAt: '2099-01-15T10:00:00.000Z',
    generatedBy: 'test',
    dataSnapshot: ingest.report.snapshot,
    training: { rows: 4321, bySource: { avtoelon_2022: 3000, avtoelon_chevrolet_2023: 1321 }, byMake: { Chevrolet: 4000, Lada: 321 }, seconds: 1, ingest: ingest.report },
    target: 'log_price',
    features: { names: ['make_prior', 'model_prior', 'year', 'log_mileage', 'period_index'], encoding: { marketMean: 9, make: {}, model: {}, smoothing: 10, newestPeriod: '2023-08' } },
    onnx: { file: 'ensemble.onnx', input: 'features', output: 'prediction', columns: ['gbdt', 'forest', 'interval-scale'] },
    members: [
      { name: 'gbdt', algorithm: 'boosted trees', weight: 0.6, hyperparameters: { maxIter: 10 } },
      { name: 'forest', algorithm: 'random forest', weight: 0.4, hyperparameters: { nEstimators: 5 } },
    ],
    intervals: {
      coverage: 0.9, method: 'normalised split conformal (synthetic)', scale: { column: 'interval-scale', floor: 0.005, pooling: { power: 0.5, center: 0.05 } }, global: 5.2, minRows: 60, thinDataFactor: 1.3, outOfDistributionFactor: 1.25,
      district: Object.fromEntries(GROUPS.map((g, i) => [g, { q: 4 + i, n: 500 - 100 * i, own: true }])),
      drift: { protocol: 'quantiles of the synthetic forward split', global: 5.2, raised: ['Chevrolet Cobalt', 'Chevrolet Spark'] },
    },
    market: { group: { 'Chevrolet Cobalt': market(1992), 'Chevrolet Spark': market(1536), 'Lada Vesta': market(12), 'Tesla Model 3': market(2) }, catalog: [] },
    minListings: 5,
    thinListings: 30,
    evaluation: {
      headline: report('Synthetic time split: fitted on 2022, tested on 2023.', HEADLINE),
      kfold: report('Synthetic 5-fold cross-validation.', KFOLD, 0.9),
      kfoldWithDriftAllowance: { intervalCoverage: 0.9717, medianIntervalWidth: 0.59 },
      featureImportance: [{ feature: 'make and model', importance: 0.7 }, { feature: 'model year', importance: 0.3 }, { feature: 'mileage', importance: 0 }],
    },
    groupAccuracy,
  };
}

/** 40 held-out rows per group, estimates 25% below to 15% above the asking price, intervals ±15%. */
function syntheticEvaluation(): VehicleEvaluationFile {
  const random = new Random(12345);
  const row = (group: string) => {
    const actual = Math.round(5000 + 20000 * random.next());
    const predicted = Math.round(actual * (0.75 + 0.4 * random.next()));
    return { group, source: 'avtoelon_chevrolet_2023', actual, predicted, low: Math.round(predicted * 0.85), high: Math.round(predicted * 1.15) };
  };
  return { protocol: 'Synthetic time split: fitted on 2022, tested on 2023.', rows: GROUPS.flatMap((group) => Array.from({ length: 40 }, () => row(group))) };
}

// Formatting as a reader of the card sees it, written out again here on purpose.
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const signed = (x: number) => (x >= 0 ? `+${pct(x)}` : `−${pct(-x)}`);
const int = (x: number) => String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const middle = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The Cobalt line of the June 2022 scrape, recomputed from the listings without the card's code. */
function cobalt2022(records: readonly VehicleRecord[]) {
  const rows = records.filter((r) => r.source === 'avtoelon_2022' && vehicleGroup(r) === 'Chevrolet Cobalt').map((r) => ({ age: 2022 - r.year, y: Math.log(r.priceUsd) }));
  const fit = rows.filter((r) => r.age >= FIT_AGES.from && r.age <= FIT_AGES.to);
  const meanAge = fit.reduce((s, r) => s + r.age, 0) / fit.length;
  const meanY = fit.reduce((s, r) => s + r.y, 0) / fit.length;
  const slope = fit.reduce((s, r) => s + (r.age - meanAge) * (r.y - meanY), 0) / fit.reduce((s, r) => s + (r.age - meanAge) ** 2, 0);
  return { rate: 1 - Math.exp(slope), listings: fit.length };
}

function cobaltPrices(records: readonly VehicleRecord[], source: string, year: number): number[] {
  return records.filter((r) => r.source === source && vehicleGroup(r) === 'Chevrolet Cobalt' && r.year === year).map((r) => r.priceUsd);
}

describe('vehicle model card', () => {
  let ingest: VehicleIngestResult;
  const roots: string[] = [];
  const artifacts = (withEvaluation = true) => {
    const root = mkdtempSync(join(tmpdir(), 'vehicle-card-'));
    roots.push(root);
    mkdirSync(join(root, VERSION));
    writeFileSync(join(root, VERSION, 'manifest.json'), JSON.stringify(syntheticManifest(ingest)));
    if (withEvaluation) writeFileSync(join(root, VERSION, 'evaluation.json'), JSON.stringify(syntheticEvaluation()));
    setCurrentVersion(VERSION, root);
    return root;
  };
  let card: Awaited<ReturnType<typeof renderVehicleModelCard>>;

  beforeAll(async () => {
    // The scrapes the version in service was trained on; avtoelon_2020 joins at the next retraining.
    ingest = ingestVehicles({ sources: ['avtoelon_2022', 'avtoelon_chevrolet_2023'] });
    card = await renderVehicleModelCard(VERSION, { artifactsRoot: artifacts(), ingest });
  });
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  test('sections, header, the honesty rules and the rules quoted word for word', () => {
    const { markdown, warnings } = card;
    expect(warnings).toEqual([]);
    for (const heading of [
      '# Model card: used-vehicle valuation, vehicle model 2099.01.0', '## Summary for the credit committee', '## What this means for a bank today',
      '## Honesty rules, flags and confidence', '### Confidence rule', '## Data', '### The two scrapes', '### Ingestion', '### Listings per make', '## The market',
      '### Depreciation by age', '### Intervals and drift', '## Method', '## Evaluation', '### By make and model (headline)', '### By make and model (k-fold)', '## How to read the numbers',
    ]) expect(markdown).toContain(heading);
    expect(markdown).toContain('| Trained at | 2099-01-15T10:00:00.000Z |');
    expect(markdown).toContain('| Ensemble members and weights | `gbdt` 0.60, `forest` 0.40 (learned out of fold; 2 members) |');
    for (const f of ingest.report.snapshot.files) expect(markdown).toContain(`| \`${f.path}\` | ${int(f.rows)} | \`${f.sha256}\` |`);
    // market.group: Tesla Model 3 (2) below minListings, Lada Vesta (12) thin, two solid groups.
    expect(markdown).toContain('| No valuation (INSUFFICIENT_MARKET_DATA) | make and model with fewer than `minListings` = 5 training listings (1 of 4 make/model groups) |');
    expect(markdown).toContain('1 make/model group with 5–29 listings is valued with the flag THIN_MODEL_DATA.');
    expect(markdown).toContain(CONFIDENCE_RULE);
    expect(markdown).toContain(VEHICLE_ACCURACY_CLASS_RULE);
    expect(VEHICLE_ACCURACY_CLASS_RULE).toMatch(/^A make\/model group with fewer than 30 held-out listings is \*\*low\*\*/);
    // 2023-08 to 2099-01: the data's age in months, and the flag every valuation now carries.
    expect(markdown).toContain(`**The market data are ${(2099 - 2023) * 12 + (1 - 8)} months old.**`);
    expect(markdown).toContain('**every valuation it makes now carries that flag**');
    expect(markdown).not.toMatch(/undefined|NaN/);
  });

  test('evaluation: overall, per group with counts and Wilson bounds, the drift allowance', () => {
    const { markdown } = card;
    expect(markdown).toContain('| headline (fitted on June 2022, tested 14 months later) | 1,012 | 0.812 | 15.4% | 14.7% | 1,978 | 26% | 73% | 56.2% | 53.1%–59.1% | 37% |');
    expect(markdown).toContain('| k-fold (random split) | 4,321 | 0.870 | 10.0% | 6.2% | 1,037 | 67% | 88% | 90.7% | 89.8%–91.6% | 32% |');
    expect(markdown).toMatch(/\| k-fold, served intervals \(with the drift allowance\) \| 4,321 \|  \|  \|  \|  \|  \|  \| 97\.2% \| \d+\.\d%–\d+\.\d% \| 59% \|/);
    GROUPS.forEach((g, i) => {
      const m = groupMetrics(i);
      expect(markdown).toContain(`| ${g} | ${int(m.n)} | ${m.r2.toFixed(3)} | ${pct(m.mape)} | ${pct(m.medianApe)} | ${int(m.maeUsd)} | ${pct(m.ppe10, 0)} | ${pct(m.ppe20, 0)} | ${pct(m.intervalCoverage)} | ${pct(m.intervalCoverage - 0.03)}–${pct(m.intervalCoverage + 0.03)} | ${pct(m.medianIntervalWidth, 0)} | ${accuracyClass(m)} |`);
    });
    expect(markdown).toContain('2 groups were raised');
    expect(markdown).toContain('on the k-fold rows the served intervals hold 97.2%');
    expect(markdown).toContain('instead of 90.7%, with a median width of 59% of the estimate instead of 32%');
    expect(markdown).toContain('### Direction of errors (headline)');
    expect(markdown).toContain('### Does the confidence level sort valuations by error?');
  });

  test('every flag of the runtime is documented, and only those; thresholds as the runtime has them', () => {
    const source = readFileSync(join(PROJECT_ROOT, 'models', 'vehicle', 'runtime.ts'), 'utf8');
    const raised = [...source.matchAll(/flags\.push\('([A-Z_0-9]+)'\)/g)].map((m) => m[1]);
    const rules = vehicleFlagRules({ thinListings: 30, features: { names: [], encoding: { marketMean: 0, make: {}, model: {}, smoothing: 10, newestPeriod: '2023-08' } } });
    expect(rules.map((r) => r.flag).sort()).toEqual([...new Set(raised)].sort());
    const line = (flag: string) => source.split('\n').find((l) => l.includes(`flags.push('${flag}')`))!;
    expect(line('UNUSUAL_MILEAGE')).toContain('60_000');
    expect(line('MARKET_DATA_OLDER_THAN_12_MONTHS')).toContain('> 12');
    expect(line('FAR_FROM_GROUP_MEDIAN')).toContain('> 0.5');
    expect(line('MODELS_DISAGREE')).toContain('> 0.2');
    expect(source).toContain('request.year < market.years.from - 1 || request.year > market.years.to + 1');
    for (const r of rules) expect(card.markdown).toContain(`| \`${r.flag}\` | ${r.when} | ${VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(r.flag) ? 'widens ×1.25' : 'no'} |`);
  });

  test('the market numbers quoted are the listings\' own, recomputed here', () => {
    const { markdown } = card;
    const records = ingest.records;
    const cobalt = cobalt2022(records);
    expect(markdown).toMatch(new RegExp(`\\| Cobalt \\| ${pct(cobalt.rate).replace('.', '\\.')} \\(\\d+\\.\\d%–\\d+\\.\\d%\\) \\| ${cobalt.listings} \\|`));
    expect(markdown).toContain(`a Cobalt ${pct(cobalt.rate)} a year`);
    expect(cobalt.rate).toBeGreaterThan(0.02);
    expect(cobalt.rate).toBeLessThan(0.08);

    // The same model and model year, 14 months apart.
    const before = middle(cobaltPrices(records, 'avtoelon_2022', 2019));
    const after = middle(cobaltPrices(records, 'avtoelon_chevrolet_2023', 2019));
    expect(markdown).toContain(`| 2019 | ${signed(after / before - 1)} |`);
    expect(after / before - 1).toBeGreaterThan(0.15);

    // The dealer's price: the most common asking price of a new (2023) Cobalt in August 2023.
    const fresh = cobaltPrices(records, 'avtoelon_chevrolet_2023', 2023);
    const counts = new Map<number, number>();
    for (const p of fresh) counts.set(p, (counts.get(p) ?? 0) + 1);
    const dealer = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
    const oneYearOld = middle(cobaltPrices(records, 'avtoelon_chevrolet_2023', 2022));
    expect(dealer).toBeLessThan(oneYearOld);
    expect(markdown).toContain(`A new Cobalt at the dealer's price (${int(dealer)} USD in August 2023) sits below a one-year-old used one (median ${int(oneYearOld)} USD, ${signed(oneYearOld / dealer - 1)})`);
  });

  test('the findings follow the data: prices 10% higher in 2023 move the change and the dealer price, not the 2022 depreciation', () => {
    const base = vehicleMarketFindings(ingest.records);
    const dearer = vehicleMarketFindings(ingest.records.map((r) => (r.source === 'avtoelon_chevrolet_2023' ? { ...r, priceUsd: r.priceUsd * 1.1 } : r)));
    const change = (f: typeof base) => f.changes.find((c) => c.series === 'Cobalt' && c.year === 2019)!.change;
    expect(1 + change(dearer)).toBeCloseTo((1 + change(base)) * 1.1, 10);
    const rate = (f: typeof base, source: string) => f.fits.find((x) => x.series === 'Cobalt' && x.source === source)!.annualRate;
    expect(rate(dearer, 'avtoelon_2022')).toBe(rate(base, 'avtoelon_2022'));
    expect(rate(dearer, 'avtoelon_chevrolet_2023')).toBeCloseTo(rate(base, 'avtoelon_chevrolet_2023'), 10);
    const dealer = (f: typeof base) => f.newCars.find((x) => x.series === 'Cobalt' && x.source === 'avtoelon_chevrolet_2023')!.dealer!.price;
    expect(dealer(dearer)).toBeCloseTo(dealer(base) * 1.1, 6);
    // Other makes exist only in the 2022 scrape, and depreciate faster than the Cobalt there.
    const others = base.fits.filter((x) => x.series === 'other makes');
    expect(others.map((x) => x.source)).toEqual(['avtoelon_2022']);
    expect(others[0].annualRate).toBeGreaterThan(rate(base, 'avtoelon_2022'));
  });

  test('five figures, valid SVG, with their titles', () => {
    const { figures, markdown } = card;
    expect(Object.keys(figures).sort()).toEqual(Object.keys(VEHICLE_FIGURE_TITLES).sort());
    for (const [name, title] of Object.entries(VEHICLE_FIGURE_TITLES)) {
      expect(malformedSvg(figures[name])).toBeNull();
      expect(figures[name]).toContain(`>${title}</text>`);
      expect(markdown).toContain(`(vehicle-model-card/${name}.svg)`);
    }
    expect(figures['predicted-vs-actual']).toContain('Actual asking price (USD, log scale)');
    expect(figures['error-by-group']).toContain('MAPE, k-fold (random split)');
    expect(figures['interval-coverage']).toContain('88–92%');
    expect(figures.depreciation).toContain('other makes');
    expect(figures.depreciation).toContain('Cobalt');
  });

  test('deterministic and written: two writes are byte-identical; a version without evaluation.json drops the scatter', async () => {
    const artifactsRoot = artifacts();
    const docsDir = join(artifactsRoot, 'docs');
    const first = await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    expect(first.markdown).toBe(join(docsDir, 'VEHICLE_MODEL_CARD.md'));
    expect(first.figures.sort()).toEqual(Object.keys(VEHICLE_FIGURE_TITLES).map((n) => join(docsDir, 'vehicle-model-card', `${n}.svg`)).sort());
    const bytes = [first.markdown, ...first.figures].map((p) => readFileSync(p));
    expect(bytes[0].toString()).toBe(card.markdown);
    await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    expect([first.markdown, ...first.figures].map((p) => readFileSync(p))).toEqual(bytes);

    unlinkSync(join(artifactsRoot, VERSION, 'evaluation.json'));
    await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    const markdown = readFileSync(join(docsDir, 'VEHICLE_MODEL_CARD.md'), 'utf8');
    expect(markdown).toContain('not drawn, this version has no evaluation.json');
    expect(existsSync(join(docsDir, 'vehicle-model-card', 'predicted-vs-actual.svg'))).toBe(false);
    expect(existsSync(join(docsDir, 'vehicle-model-card', 'depreciation.svg'))).toBe(true);
  });

  test('CLI: CURRENT by default, prints the paths; unknown version is refused', async () => {
    const artifactsRoot = artifacts();
    const docsDir = join(artifactsRoot, 'docs');
    const lines: string[] = [];
    expect(await runVehicleModelCardCli([], (l) => lines.push(l), { artifactsRoot, docsDir, ingest })).toBe(0);
    expect(lines).toHaveLength(1 + Object.keys(VEHICLE_FIGURE_TITLES).length);
    expect(lines[0]).toMatch(/VEHICLE_MODEL_CARD\.md$/);
    const refused: string[] = [];
    expect(await runVehicleModelCardCli(['2000.01.0'], (l) => refused.push(l), { artifactsRoot, docsDir, ingest })).toBe(2);
    expect(refused[0]).toMatch(/unknown version 2000\.01\.0/);
  });

  const served = currentVersion(VEHICLE_DIR);
  (served ? test : test.skip)('the version in service: its headline and k-fold numbers, and the data unchanged since training', async () => {
    const m = readManifest(served!);
    const { markdown, warnings } = await renderVehicleModelCard(served!, { ingest });
    expect(warnings).toEqual([]);
    const h = m.evaluation.headline.overall;
    const k = m.evaluation.kfold.overall;
    expect(markdown).toContain(`| ${int(h.n)} | ${h.r2.toFixed(3)} | ${pct(h.mape)} | ${pct(h.medianApe)} | ${int(h.maeUsd)} |`);
    expect(markdown).toContain(`| k-fold (random split) | ${int(k.n)} | ${k.r2.toFixed(3)} | ${pct(k.mape)} | ${pct(k.medianApe)} | ${int(k.maeUsd)} |`);
    expect(markdown).toContain(`held only **${pct(h.intervalCoverage)}** of asking prices`);
    expect(markdown).toContain(`served intervals hold ${pct(m.evaluation.kfoldWithDriftAllowance.intervalCoverage)}`);
    expect(markdown).not.toContain('differ from this version\'s snapshot');
  });
});

describe('malformedSvg (the guard every card figure passes)', () => {
  test('names what would not parse', () => {
    const root = '<svg xmlns="http://www.w3.org/2000/svg"';
    expect(malformedSvg(`${root}><g><path d="M0"/></g></svg>\n`)).toBeNull();
    expect(malformedSvg('<html></html>')).toMatch(/<svg> root/);
    expect(malformedSvg(`${root}><g></svg>`)).toBe('</svg> closes another element');
    expect(malformedSvg(`${root}><g>`)).toBe('does not end with </svg>');
  });
});
