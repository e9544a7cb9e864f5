import { fitMarketIndex } from '../../models/residential/market-index';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISTRICT_IDS, DISTRICT_NAMES, type DistrictId } from '../../models/vocabulary/codes';
import type { IngestReport } from '../../models/ingest';
import { accuracyClass } from '../../models/ensemble/metrics';
import { FSD_BANDS, statedConfidence } from '../../models/ensemble/fsd';
import { setCurrentVersion, type ResidentialManifest } from '../../models/residential/manifest';
import { malformedSvg } from '../../tools/cards/card-kit';
import { ACCURACY_CLASS_RULE, CONFIDENCE_RULE, FIGURE_TITLES, renderModelCard, writeModelCard, type HeldOutEvaluationFile } from '../../tools/cards/residential';
import { runModelCardCli } from '../../tools/models/residential/model-card-cli';
import { REFERENCE_DISTRICTS, REFERENCE_FEATURE_IMPORTANCE } from '../../tools/cards/reference-figures';
import type { AccuracyMetrics } from '../../models/residential/valuation';
import type { AccuracyClass } from '../../models/ensemble/confidence';

const VERSION = '2099.01.0';

/** Fixed, easy-to-check numbers: district i of DISTRICT_IDS gets n = 100 + 10·i, R² = 0.9 − 0.03·i, … */
function districtMetrics(i: number): AccuracyMetrics {
  return {
    n: i === 1 ? 12 : 100 + 10 * i,
    r2: 0.9 - 0.03 * i,
    mape: 0.06 + 0.01 * i,
    medianApe: 0.05 + 0.008 * i,
    maeUsd: 5000 + 1000 * i + 0.4,
    ppe10: 0.7 - 0.02 * i,
    ppe20: 0.9 - 0.02 * i,
    intervalCoverage: 0.86 + 0.01 * i,
    medianIntervalWidth: 0.4 + 0.02 * i,
  };
}

const HEADLINE_OVERALL: AccuracyMetrics = { n: 1234, r2: 0.81234, mape: 0.12345, medianApe: 0.0987, maeUsd: 12345.6, ppe10: 0.5, ppe20: 0.8, intervalCoverage: 0.9012, medianIntervalWidth: 0.55 };
const KFOLD_OVERALL: AccuracyMetrics = { n: 4321, r2: 0.8, mape: 0.13, medianApe: 0.09, maeUsd: 14000, ppe10: 0.52, ppe20: 0.79, intervalCoverage: 0.9, medianIntervalWidth: 0.6 };

function syntheticManifest(): ResidentialManifest {
  const districts: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }> = {};
  const byDistrict: Record<string, number> = {};
  const districtAccuracy: Record<string, AccuracyClass> = {};
  DISTRICT_IDS.forEach((id, i) => {
    const m = districtMetrics(i);
    districts[id] = { ...m, accuracyClass: accuracyClass(m) };
    byDistrict[id] = 3 * m.n;
    districtAccuracy[id] = accuracyClass(m);
  });
  const zeros = Object.fromEntries(DISTRICT_IDS.map((d) => [d, 0])) as Record<DistrictId, number>;
  const ingest: IngestReport = {
    snapshot: { id: 'synthetic-snapshot', files: [{ path: 'listings/a.csv', sha256: 'ab'.repeat(32), rows: 900 }] },
    sources: [
      { source: 'olx_2024', path: 'listings/a.csv', period: '2024-04', rowsIn: 900, rowsOut: 800, dropped: { duplicate_in_file: 60, price_outlier: 40 }, corrections: {}, personalData: { phones: 0, emails: 0, contactNames: 0 } },
      { source: 'uybor_2025_b', path: 'listings/b.csv', period: '2025-04', rowsIn: 500, rowsOut: 450, dropped: { duplicate_across_sources: 50 }, corrections: {}, personalData: { phones: 0, emails: 0, contactNames: 0 } },
    ],
    totals: { rowsIn: 1400, rowsOut: 1250, dropped: { duplicate_in_file: 60, price_outlier: 40, duplicate_across_sources: 50 } },
    crossSourceMerges: [{ dropped: 'uybor_2025_b', keptIn: 'olx_2024', count: 50 }],
    fallbackDistricts: {},
    priceFences: [],
    recordsByDistrict: zeros,
    recordsBySourceAndDistrict: { olx_2024: zeros, uybor_2025_b: zeros } as IngestReport['recordsBySourceAndDistrict'],
    elapsedMs: 1000,
  };
  const report = (protocol: string, overall: AccuracyMetrics) => ({ protocol, overall, districts, bySource: { uybor_2025_b: overall } });
  return {
    kind: 'residential',
    version: VERSION,
    trainedAt: '2099-01-15T10:00:00.000Z',
    generatedBy: 'test',
    dataSnapshot: ingest.snapshot,
    training: { rows: 4321, bySource: { olx_2024: 3000, uybor_2025_b: 1321 }, byDistrict, seconds: 1, ingest },
    target: 'log_price_per_m2',
    features: { names: ['district_prior', 'mahalla_prior', 'log_area'], encoding: { cityMean: 7, district: {}, mahalla: {}, smoothing: 10, newestPeriod: '2025-04', mahallaCentres: {} } },
    onnx: { file: 'ensemble.onnx', input: 'features', output: 'prediction', columns: ['gbdt', 'hedonic', 'interval-scale'] },
    members: [
      { name: 'gbdt', algorithm: 'boosted trees', weight: 0.65, hyperparameters: { maxIter: 10 } },
      { name: 'hedonic', algorithm: 'ridge', weight: 0.35, hyperparameters: { alpha: 1 } },
    ],
    intervals: {
      coverage: 0.9, method: 'normalised split conformal (synthetic)', scale: { column: 'interval-scale', floor: 0.005 }, global: 0.3, minRows: 60, thinDataFactor: 1.3, outOfDistributionFactor: 1.25,
      district: Object.fromEntries(DISTRICT_IDS.map((d) => [d, { q: 0.25, n: byDistrict[d], own: byDistrict[d] >= 60 }])),
    },
    market: { district: {}, mahalla: {} },
    marketIndex: fitMarketIndex(
      [...Array(200)].map((_, i) => ({ district: DISTRICT_IDS[i % 12], area: 40 + (i % 50), floor: 1 + (i % 9), totalFloors: 9, market: i % 2 ? 'new' : 'resale', period: i < 100 ? '2024-04' : '2025-04' })),
      Float64Array.from([...Array(200)], (_, i) => 7 + (i < 100 ? 0 : 0.1) + 0.01 * (i % 7)),
    ),
    evaluation: {
      headline: report('Synthetic time split: fitted on old rows, tested on new rows.', HEADLINE_OVERALL),
      leaveOneSourceOut: { ...report('Synthetic leave one source out.', KFOLD_OVERALL), segments: { new: KFOLD_OVERALL, resale: KFOLD_OVERALL }, worstSource: 'uybor_2025_b' },
      backtest: {
        protocol: 'Synthetic earlier step.',
        overall: { ...KFOLD_OVERALL, r2: -0.0004, maeUsd: 1535700 },
        level: { medianLevelError: 0.25, medianApeAtFoundLevel: 0.11, coverageAtFoundLevel: 0.96 },
        grossMisfits: { rule: 'asking price over 10× the estimate or under 1/10 of it', rows: 2, overallWithout: { ...KFOLD_OVERALL, n: 4319, r2: 0.412, maeUsd: 20500.4 } },
      },
      masked: [{
        name: 'district, area, rooms, floor and floors only',
        overall: KFOLD_OVERALL,
        segments: {
          new: { ...KFOLD_OVERALL, n: 1321, medianApe: 0.161, ppe10: 0.34, intervalCoverage: 0.952, intervalCoverageBounds95: { low: 0.94, high: 0.962 }, medianIntervalWidth: 1.34 },
          resale: { ...KFOLD_OVERALL, n: 3000, medianApe: 0.071, intervalCoverage: 0.89, intervalCoverageBounds95: { low: 0.878, high: 0.901 } },
        },
        byConfidence: [
          { level: 'high', n: 1000, medianApe: 0.05, ppe10: 0.7, ppe20: 0.9, coverage: 0.91 },
          { level: 'medium', n: 2000, medianApe: 0.04, ppe10: 0.6, ppe20: 0.8, coverage: 0.9 },
          { level: 'low', n: 1321, medianApe: 0.2, ppe10: 0.3, ppe20: 0.5, coverage: 0.93 },
        ],
      }],
      baseline: { algorithm: 'boosted trees', hyperparameters: { maxIter: 100 }, forward: KFOLD_OVERALL, leaveOneSourceOut: KFOLD_OVERALL, oursLeaveOneSourceOutOnTheSameRows: HEADLINE_OVERALL },
      featureImportance: [{ feature: 'mahalla', importance: 0.5 }, { feature: 'total area', importance: 0.3 }, { feature: 'district', importance: 0.2 }],
    },
    districtAccuracy,
  };
}

function syntheticEvaluation(): HeldOutEvaluationFile {
  let state = 12345;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const rows: HeldOutEvaluationFile['rows'] = [];
  DISTRICT_IDS.forEach((district, i) => {
    for (let k = 0; k < 20; k++) {
      const actual = Math.round(30000 + 200000 * next());
      const predicted = Math.round(actual * (0.8 + 0.45 * next()));
      rows.push({ district, segment: k % 2 ? 'new' : 'resale', source: k % 4 === 0 ? 'uybor_2025_en' : 'uybor_2025_b', actual, predicted, low: Math.round(predicted * 0.8), high: Math.round(predicted * (1.2 + 0.01 * i)) });
    }
  });
  return { protocol: 'Synthetic time split: fitted on old rows, tested on new rows.', rows };
}

function artifacts(withEvaluation = true): string {
  const root = mkdtempSync(join(tmpdir(), 'model-card-'));
  mkdirSync(join(root, VERSION));
  writeFileSync(join(root, VERSION, 'manifest.json'), JSON.stringify(syntheticManifest()));
  if (withEvaluation) writeFileSync(join(root, VERSION, 'evaluation.json'), JSON.stringify(syntheticEvaluation()));
  setCurrentVersion(VERSION, root);
  return root;
}

/** Balanced tags, one <svg> root: enough to know a browser will parse it. */
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const int = (x: number) => String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

describe('model card', () => {
  const roots: string[] = [];
  const root = () => {
    const r = artifacts();
    roots.push(r);
    return r;
  };
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  test('markdown: headline numbers, every district, the comparison, the rules', async () => {
    const { markdown, warnings } = await renderModelCard(VERSION, { artifactsRoot: root() });
    expect(warnings).toEqual([]);
    // Overall table: n, R², MAPE, median APE, MAE, PPE10, PPE20, coverage, median width.
    expect(markdown).toContain('| headline: forward in time and across scrapes (uybor July 2026) | 1,234 | 0.812 | 12.3% | 9.9% | 12,346 | 50% | 80% | 90.1% | 55% |');
    expect(markdown).toContain('| leave one source out (every source but olx 2021) | 4,321 | 0.800 | 13.0% | 9.0% | 14,000 | 52% | 79% | 90.0% | 60% |');
    expect(markdown).toContain('**Headline protocol.** Synthetic time split: fitted on old rows, tested on new rows.');
    expect(markdown).toContain('half of its estimates were within 9.9% of the asking price');
    expect(markdown).toContain('MAPE) was 12.3% and R² 0.812');

    DISTRICT_IDS.forEach((id, i) => {
      const m = districtMetrics(i);
      const row = `| ${DISTRICT_NAMES[id]} | ${int(m.n)} | ${m.r2.toFixed(3)} | ${pct(m.mape)} | ${pct(m.medianApe)} | ${int(m.maeUsd)} | ${pct(m.ppe10, 0)} | ${pct(m.ppe20, 0)} | ${pct(m.intervalCoverage)} | ${pct(m.medianIntervalWidth, 0)} | ${accuracyClass(m)} |`;
      expect(markdown).toContain(row); // headline and leave-one-source-out tables
      const ref = REFERENCE_DISTRICTS[id];
      expect(markdown).toContain(`| ${DISTRICT_NAMES[id]} | ${int(m.n)} | ${ref.r2.toFixed(3)} | ${m.r2.toFixed(3)} | ${m.r2.toFixed(3)} | ${pct(ref.mape)} | ${pct(m.mape)} | ${pct(m.mape)} | ${int(ref.maeUsd)} |`);
    });
    // The reference as printed (docs/ARCHITECTURE.md, "Reference figures").
    expect(markdown).toMatch(/\| Chilanzar \| 120 \| 0\.902 \| [^|]+ \| [^|]+ \| 7\.1% \| [^|]+ \| [^|]+ \| 5,208 \|/);
    expect(markdown).toMatch(/\| Bektemir \| 12 \| 0\.410 \| [^|]+ \| [^|]+ \| 14\.1% \| [^|]+ \| [^|]+ \| 7,883 \|/);
    expect(markdown).toContain('| **overall** | 1,234 | 0.94 | 0.812 | 0.800 | 7% | 12.3% | 13.0% |');
    expect(markdown).toContain('| mahalla | 50.0% | 21.9% | mahalla |');
    expect(markdown).toContain('| listing period | – | 6.1% | month of listing + year of listing |');

    expect(markdown).toContain('estimate × exp(±q·σ(x))');
    expect(markdown).toContain('| Chilanzar | 360 | own | 0.250 | 44% |'); // q in units of σ, then the held-out median width
    expect(markdown).toContain(CONFIDENCE_RULE);
    expect(markdown).toContain(ACCURACY_CLASS_RULE);
    for (const heading of ['## Summary for the credit committee', '## Intended use and limits', '## Data', '## Method', '## Evaluation', '## Comparison with the reference service', '### Where we stand and why']) {
      expect(markdown).toContain(heading);
    }
    for (const name of Object.keys(FIGURE_TITLES)) expect(markdown).toContain(`(model-card/${name}.svg)`);
    expect(markdown).toContain('Trained at | 2099-01-15T10:00:00.000Z');

    // A backtest whose R² and MAE are set by prices in the wrong unit says so, with its figures without them; the table keeps them.
    expect(markdown).toContain('| backtest: the same protocol one step earlier (uybor 2025) | 4,321 | -0.000 | 13.0% | 9.0% | 1,535,700 |');
    expect(markdown).toContain('set by 2 listings whose asking price cannot be a valuation error (asking price over 10× the estimate or under 1/10 of it: a price in the wrong unit or column). Without them: R² 0.412, MAE 20,500 USD, median APE 9.0%, coverage 90.0%.');

    // The forward test with fields missing, by the flat's own market (coverage judged by its bounds) and by confidence level.
    expect(markdown).toContain('| district, area, rooms, floor and floors only | new | 1,321 | 16.1% | 34% | 95.2% | 94.0%–96.2% | above 88–92% | 134% |');
    expect(markdown).toContain('| district, area, rooms, floor and floors only | resale | 3,000 | 7.1% | 52% | 89.0% | 87.8%–90.1% | consistent with 88–92% | 60% |');
    expect(markdown).toContain('| district, area, rooms, floor and floors only | medium | 2,000 | 46% | – | – | 4.0% | 60% | 80% | 90.0% |');
    // medium's median error is below high's: said, not hidden.
    expect(markdown).toContain('The median error does not rise steadily from high to low confidence with district, area, rooms, floor and floors only.');
  });

  test('the confidence rule in words is what models/ensemble/fsd.ts does', () => {
    expect(CONFIDENCE_RULE).toContain(`level: high FSD ≤ ${FSD_BANDS.high}, medium ≤ ${FSD_BANDS.medium.toFixed(2)}, low above`);
    // An interval of log half-width h at 90% implies FSD h / 1.645; the level is its band, the score 1 − FSD.
    const stated = (fsd: number) => {
      const h = fsd * 1.6448536269514722;
      return statedConfidence(100_000, { low: 100_000 * Math.exp(-h), high: 100_000 * Math.exp(h), coverage: 0.9 }, { dataAgeMonths: 0, widening: 0, group: 'chilanzar', groupClass: 'high', modelSpread: 0, flags: [] });
    };
    for (const [fsd, level] of [[0.1, 'high'], [0.15, 'high'], [0.151, 'medium'], [0.3, 'medium'], [0.301, 'low'], [0.6, 'low']] as const) {
      const { fsd: measured, confidence } = stated(fsd);
      expect(measured).toBeCloseTo(fsd, 3);
      expect(confidence).toMatchObject({ level, score: Math.round((1 - measured) * 100) / 100 });
      expect(confidence.drivers).toHaveLength(1);
    }
  });

  test('the accuracy-class rule in words matches accuracyClass', () => {
    const m = (n: number, r2: number, mape: number) => accuracyClass({ n, r2, mape, medianApe: 0, maeUsd: 0, ppe10: 0, ppe20: 0, intervalCoverage: 0, medianIntervalWidth: 0 });
    expect(m(29, 0.99, 0.01)).toBe('low');
    expect(m(30, 0.8, 0.12)).toBe('high');
    expect(m(30, 0.8, 0.1201)).toBe('good');
    expect(m(30, 0.65, 0.16)).toBe('good');
    expect(m(30, 0.6499, 0.1)).toBe('fair');
    expect(m(30, 0.5, 0.22)).toBe('fair');
    expect(m(30, 0.5, 0.2201)).toBe('low');
    expect(m(30, 0.4999, 0.05)).toBe('low');
    expect(ACCURACY_CLASS_RULE).toMatch(/fewer than 30 .* R² ≥ 0\.80 and MAPE ≤ 12%.* R² ≥ 0\.65 and MAPE ≤ 16%.* R² ≥ 0\.50 and MAPE ≤ 22%/);
  });

  test('reference figures: twelve districts, importances as published', () => {
    expect(Object.keys(REFERENCE_DISTRICTS).sort()).toEqual([...DISTRICT_IDS].sort());
    expect(REFERENCE_FEATURE_IMPORTANCE.map((f) => f.importance).reduce((a, b) => a + b, 0)).toBeCloseTo(1.001, 6);
  });

  test('four figures, valid SVG, with their titles', async () => {
    const { figures } = await renderModelCard(VERSION, { artifactsRoot: root() });
    expect(Object.keys(figures).sort()).toEqual(Object.keys(FIGURE_TITLES).sort());
    for (const [name, title] of Object.entries(FIGURE_TITLES)) {
      const svg = figures[name];
      expect(malformedSvg(svg)).toBeNull();
      expect(svg).toContain(`>${title}</text>`);
    }
    expect(figures['predicted-vs-actual']).toContain('Actual asking price (USD, log scale)');
    expect(figures['error-by-district']).toContain('MAPE, reference service (published)');
    expect(figures['error-by-district']).toContain('Chilanzar (n=120)');
    expect(figures['interval-coverage']).toContain('88–92%');
    expect(figures['feature-importance']).toContain('reference service');
  });

  test('deterministic: two renders and two writes are byte-identical', async () => {
    const artifactsRoot = root();
    const a = await renderModelCard(VERSION, { artifactsRoot });
    const b = await renderModelCard(VERSION, { artifactsRoot });
    expect(b.markdown).toBe(a.markdown);
    expect(b.figures).toEqual(a.figures);

    const docsDir = join(artifactsRoot, 'docs');
    const first = await writeModelCard(VERSION, { artifactsRoot, docsDir });
    expect(first.markdown).toBe(join(docsDir, 'MODEL_CARD.md'));
    expect(first.figures.sort()).toEqual(Object.keys(FIGURE_TITLES).map((n) => join(docsDir, 'model-card', `${n}.svg`)).sort());
    const bytes = [first.markdown, ...first.figures].map((p) => readFileSync(p));
    await writeModelCard(VERSION, { artifactsRoot, docsDir });
    expect([first.markdown, ...first.figures].map((p) => readFileSync(p))).toEqual(bytes);
    expect(bytes[0].toString()).toBe(a.markdown);
  });

  test('a version without evaluation.json: four figures and a note', async () => {
    const artifactsRoot = root();
    const docsDir = join(artifactsRoot, 'docs');
    await writeModelCard(VERSION, { artifactsRoot, docsDir });
    unlinkSync(join(artifactsRoot, VERSION, 'evaluation.json'));
    const { markdown, figures } = await renderModelCard(VERSION, { artifactsRoot });
    expect(Object.keys(figures).sort()).toEqual(['error-by-district', 'feature-importance', 'interval-coverage', 'market-index']);
    expect(markdown).toContain('not drawn, this version has no evaluation.json');
    expect(markdown).not.toContain('(model-card/predicted-vs-actual.svg)');
    // The scatter of the earlier card does not linger next to a card that does not link it.
    await writeModelCard(VERSION, { artifactsRoot, docsDir });
    expect(existsSync(join(docsDir, 'model-card', 'predicted-vs-actual.svg'))).toBe(false);
  });

  test('CLI: CURRENT by default, prints the paths; unknown version is refused', async () => {
    const artifactsRoot = root();
    const docsDir = join(artifactsRoot, 'docs');
    const lines: string[] = [];
    expect(await runModelCardCli([], (l) => lines.push(l), { artifactsRoot, docsDir })).toBe(0);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/MODEL_CARD\.md$/);
    expect(readFileSync(join(docsDir, 'MODEL_CARD.md'), 'utf8')).toContain(`residential model ${VERSION}`);
    const refused: string[] = [];
    expect(await runModelCardCli(['2000.01.0'], (l) => refused.push(l), { artifactsRoot, docsDir })).toBe(2);
    expect(refused[0]).toMatch(/unknown version 2000\.01\.0/);
  });
});
