/**
 * The model card a bank's credit committee reads: docs/MODEL_CARD.md and its figures
 * (docs/model-card/<name>.svg), generated from one version's manifest.json and evaluation.json.
 *
 * Deterministic: the same two files give byte-identical output (no clock is read; the only
 * timestamp is the manifest's trainedAt). Figures are vega-lite specs rendered to SVG by vega's
 * headless renderer, which is asynchronous, hence the Promise.
 */
import { houseSection } from './house';
import { DROP_REASONS, type DropReason } from '../../models/ingest/reasons';
import { indexBand, ZONE_IDS } from '../../models/residential/market-index';
import { regulatoryNotes } from './regulatory-notes';
import { DISTRICT_IDS, DISTRICT_NAMES, type DistrictId } from '../../models/vocabulary/codes';
import { STALE_DATA_FLAG, STALE_DATA_MONTHS, type AccuracyClass } from '../../models/ensemble/confidence';
import {
  accuracyClassRule, artifactLabel, BASE, cmp, confidenceSection, confidenceTable, CONFIDENCE_RULE, coverageBounds, coverageCheckTable, COVERAGE_VERDICTS, coverageLayers, coveragePoint,
  coverageVerdict, DASH, direction, directionBy, directionTable, DOCS_DIR, errorBarsSpec, errorsRiseAsConfidenceFalls, featureGroupLines, figureLinker, fixed, fsdVerdict, glossary, identityLines, importanceSpec, int,
  list, logFrame, METRIC_HEADER, metricCells, MIN_CLASS_ROWS, PALETTE, pct, pp, readEvaluationFile, renderCard, signedPct, table, writeCardFiles,
  type Direction, type RenderedCard, type Spec,
} from './card-kit';
import { FEATURE_GROUPS } from '../../models/residential/features';
import { readManifest, versionDir, RESIDENTIAL_DIR, type EvaluationReport, type ResidentialManifest } from '../../models/residential/manifest';
import { REFERENCE_DISTRICTS, REFERENCE_FEATURE_IMPORTANCE, REFERENCE_OVERALL } from './reference-figures';
import type { HeldOutPrediction } from '../../models/residential/train';

export { CONFIDENCE_RULE };

export interface ModelCardOptions {
  /** The residential artifacts folder holding <version>/manifest.json. @default RESIDENTIAL_DIR */
  artifactsRoot?: string;
  /** Where MODEL_CARD.md and model-card/ are written. @default <project>/docs */
  docsDir?: string;
}

/** The card: markdown and figures (name → SVG text, written as docs/model-card/<name>.svg). */
export type ModelCard = RenderedCard;

/** evaluation.json: the headline held-out predictions, row by row. */
export interface HeldOutEvaluationFile {
  protocol: string;
  rows: HeldOutPrediction[];
}

export const FIGURE_TITLES = {
  'predicted-vs-actual': 'Predicted vs actual price',
  'error-by-district': 'Error by district',
  'interval-coverage': '90% interval coverage by district',
  'feature-importance': 'Feature importance: this model vs the reference service',
  'market-index': 'Market index: price level of Tashkent flats over time',
} as const;
export type FigureName = keyof typeof FIGURE_TITLES;

/** The rule of `accuracyClass` in models/ensemble/metrics.ts, in words (a test probes its thresholds). */
export const ACCURACY_CLASS_RULE = accuracyClassRule('A district');

const CARD_FILE = 'MODEL_CARD.md';
const FIGURE_DIR = 'model-card';

// ───────────────────────────── entry points ─────────────────────────────

export function readHeldOutEvaluation(version: string, root = RESIDENTIAL_DIR): HeldOutEvaluationFile | null {
  return readEvaluationFile<HeldOutEvaluationFile>(versionDir(version, root));
}

/** The card of one version: its markdown and its figures (SVG text). Reads, never writes. */
export async function renderModelCard(version: string, options: ModelCardOptions = {}): Promise<ModelCard> {
  const root = options.artifactsRoot ?? RESIDENTIAL_DIR;
  const manifest = readManifest(version, root);
  const evaluation = readHeldOutEvaluation(version, root);
  const ctx = context(manifest, evaluation, artifactLabel(versionDir(version, root), version));
  return renderCard((figures) => markdown(ctx, figures as FigureName[]), figureSpecs(ctx));
}

/** Writes docs/MODEL_CARD.md and docs/model-card/<name>.svg; returns the paths written. */
export async function writeModelCard(version: string, options: ModelCardOptions = {}): Promise<{ markdown: string; figures: string[] }> {
  const card = await renderModelCard(version, options);
  return writeCardFiles(card, options.docsDir ?? DOCS_DIR, CARD_FILE, FIGURE_DIR, Object.keys(FIGURE_TITLES));
}

// ───────────────────────────── what the card is computed from ─────────────────────────────

type DistrictMetrics = EvaluationReport['districts'][string];

interface Context {
  m: ResidentialManifest;
  rows: HeldOutPrediction[] | null;
  artifact: string;
  headline: EvaluationReport;
  loso: EvaluationReport;
  /** Every district the card reports on, in display order (by name). */
  districts: string[];
  sourcePeriod: Record<string, string>;
}

function context(m: ResidentialManifest, evaluation: HeldOutEvaluationFile | null, artifact: string): Context {
  const ids = new Set<string>([...DISTRICT_IDS, ...Object.keys(m.evaluation.headline.districts), ...Object.keys(m.evaluation.leaveOneSourceOut.districts)]);
  const districts = [...ids].sort((a, b) => cmp(districtName(a), districtName(b)));
  const sourcePeriod: Record<string, string> = {};
  for (const s of m.training.ingest?.sources ?? []) sourcePeriod[s.source] = s.period;
  return { m, rows: evaluation?.rows ?? null, artifact, headline: m.evaluation.headline, loso: m.evaluation.leaveOneSourceOut, districts, sourcePeriod };
}

function districtName(id: string): string {
  return DISTRICT_NAMES[id as DistrictId] ?? id;
}

function serviceClass(ctx: Context, id: string): AccuracyClass {
  return ctx.m.districtAccuracy[id] ?? 'low';
}

// ───────────────────────────── formatting ─────────────────────────────

function sourceLabel(ctx: Context, source: string): string {
  const period = ctx.sourcePeriod[source];
  return period ? `${source} (${period})` : source;
}

// ───────────────────────────── markdown ─────────────────────────────

function markdown(ctx: Context, figures: readonly FigureName[]): string {
  const sections = [
    header(ctx),
    summary(ctx),
    intendedUse(ctx),
    data(ctx),
    method(ctx),
    evaluation(ctx, figures),
    comparison(ctx, figures),
    houseSection(),
    regulatory(ctx),
    glossary(),
  ];
  return `${sections.join('\n\n')}\n`;
}

const figureLink = figureLinker<FigureName>(FIGURE_DIR, FIGURE_TITLES);

/** The regulatory notes (./regulatory-notes.ts) on the forward rows; none without evaluation.json. */
function regulatory(ctx: Context): string {
  const { m, rows } = ctx;
  if (!rows?.length) return '';
  const [y, mo] = m.marketIndex.newestPeriod.split('-').map(Number);
  const [ry, rm] = m.trainedAt.slice(0, 7).split('-').map(Number);
  return regulatoryNotes({
    groupName: 'district', rows, groupOf: (r) => r.district, label: districtName,
    forwardView: `the ${int(rows.length)} flats of the newest snapshot, valued by a fit on the listings before it`,
    newestData: m.marketIndex.newestPeriod, dataAgeMonths: Math.max(0, (ry - y) * 12 + (rm - mo)), trainingRows: m.training.rows,
  }).join('\n');
}

function header(ctx: Context): string {
  const { m } = ctx;
  return [
    `# Model card: Tashkent apartment valuation, residential model ${m.version}`,
    '',
    `Generated from \`${ctx.artifact}/manifest.json\`${ctx.rows ? ' and `evaluation.json`' : ''} by \`node dist/models/residential/model-card-cli.js ${m.version}\`. Do not edit by hand: retraining regenerates it.`,
    '',
    table(
      ['', ''],
      [
        ['Model version', `\`${m.version}\``],
        ['Trained at', m.trainedAt],
        ['Data snapshot', `\`${m.dataSnapshot.id}\``],
        ['Training rows', `${int(m.training.rows)} apartment listings`],
        ['Held-out test rows (headline)', int(ctx.headline.overall.n)],
        ['Target', 'log of the asking price per m² (USD); the estimate is exp(prediction) × area'],
        ['Interval', `${pct(m.intervals.coverage, 0)} prediction interval (conformal)`],
        ['Produced by', m.generatedBy],
      ],
      [false, false],
    ),
  ].join('\n');
}

function byClass(ctx: Context): Record<AccuracyClass, string[]> {
  const out: Record<AccuracyClass, string[]> = { high: [], good: [], fair: [], low: [] };
  for (const d of ctx.districts) if (ctx.m.districtAccuracy[d] !== undefined || ctx.headline.districts[d]) out[serviceClass(ctx, d)].push(districtName(d));
  return out;
}

/** Districts with fewer training listings than an interval needs for its own calibration. */
function thinDistricts(ctx: Context): string[] {
  return ctx.districts.filter((d) => (ctx.m.training.byDistrict[d] ?? 0) < ctx.m.intervals.minRows);
}

function directionByDistrict(ctx: Context): Map<string, Direction> {
  return directionBy(ctx.rows!, ctx.districts, (r) => r.district);
}

/** Districts (with enough held-out listings) whose median estimate is more than 5% above the asking price. */
function overvalued(ctx: Context): { district: string; dir: Direction }[] {
  if (!ctx.rows?.length) return [];
  return [...directionByDistrict(ctx)].filter(([, x]) => x.n >= MIN_CLASS_ROWS && x.medianSigned > 0.05).sort((a, b) => b[1].medianSigned - a[1].medianSigned || cmp(a[0], b[0])).map(([district, dir]) => ({ district, dir }));
}

function testSources(ctx: Context): string[] {
  return Object.keys(ctx.headline.bySource ?? {});
}

function summary(ctx: Context): string {
  const h = ctx.headline.overall;
  const classes = byClass(ctx);
  const thin = thinDistricts(ctx).map(districtName);
  const sources = testSources(ctx).map((s) => sourceLabel(ctx, s));
  const reliable: string[] = [];
  if (classes.high.length) reliable.push(`It is most reliable in ${list(classes.high)} (accuracy class high)${classes.good.length ? `, and serviceable in ${list(classes.good)} (good)` : ''}.`);
  else if (classes.good.length) reliable.push(`No district reaches accuracy class high; it is serviceable in ${list(classes.good)} (good).`);
  const weak: string[] = [];
  if (classes.fair.length) weak.push(`weaker in ${list(classes.fair)} (fair)`);
  if (classes.low.length) weak.push(`least reliable in ${list(classes.low)} (low), where errors are larger or there are too few test listings to tell; there the service never reports high confidence`);
  const paragraph = [
    `This model estimates the asking price, in US dollars, of an apartment in Tashkent from its district and mahalla, floor area, rooms, floor, building and condition,`,
    `and gives with every estimate a range meant to contain the price 9 times out of 10 and a confidence level (high, medium or low).`,
    `It was tested on ${int(h.n)} listings from scrapes newer than the ones it learned from${sources.length ? ` (${list(sources)})` : ''}:`,
    `half of its estimates were within ${pct(h.medianApe)} of the asking price, ${pct(h.ppe10, 0)} were within 10% and ${pct(h.ppe20, 0)} within 20%;`,
    `the average error (MAPE) was ${pct(h.mape)} and R² ${fixed(h.r2)}, and the ${pct(ctx.m.intervals.coverage, 0)} range contained the asking price for ${pct(h.intervalCoverage)} of them`,
    `(the range is typically ${pct(h.medianIntervalWidth, 0)} of the estimate wide).`,
    ...reliable,
    weak.length ? `It is ${weak.join(', and ')}.` : '',
    thin.length ? `Data are thin in ${list(thin)}: treat any estimate there as indicative only.` : '',
    directionSentence(ctx),
    backtestSentence(ctx),
    `The service it replaces published R² ${fixed(REFERENCE_OVERALL.r2, 2)} and MAPE ${pct(REFERENCE_OVERALL.mape, 0)} without saying how they were measured;`,
    `our figures come from a stricter test (later listings than those trained on, duplicates removed) and are not directly comparable, see "Where we stand and why".`,
    `The model values asking prices, not transaction prices: use the estimate, its range and its confidence together, and send low-confidence or flagged valuations to a valuer.`,
  ];
  return ['## Summary for the credit committee', '', paragraph.filter(Boolean).join(' ')].join('\n');
}

function directionSentence(ctx: Context): string {
  if (!ctx.rows?.length) return '';
  const all = direction(ctx.rows);
  const over = overvalued(ctx);
  if (all.above <= 0.55 && all.medianSigned <= 0.02 && !over.length) return '';
  const worst = over.length ? `, most of all in ${list(over.map((o) => `${districtName(o.district)} (median ${signedPct(o.dir.medianSigned)})`))}` : '';
  return `Estimates ran above the asking price more often than below (${pct(all.above, 0)} of test listings, median ${signedPct(all.medianSigned)})${worst}: for collateral this is the risky direction.`;
}

function intendedUse(ctx: Context): string {
  const { m } = ctx;
  const sources = m.training.ingest?.sources ?? [];
  const houses = sources.find((s) => s.source === 'uybor_houses_2025')?.rowsOut ?? 0;
  const index = m.marketIndex;
  const fewRows = ctx.districts.filter((d) => (m.training.byDistrict[d] ?? 0) < m.intervals.minRows);
  const fewTested = ctx.districts.filter((d) => (ctx.headline.districts[d]?.n ?? 0) < MIN_CLASS_ROWS);
  const counts = (d: string) => `${districtName(d)} (${int(m.training.byDistrict[d] ?? 0)} training listings, ${int(ctx.headline.districts[d]?.n ?? 0)} held out)`;
  const thinParts: string[] = [];
  if (fewRows.length) thinParts.push(`${list(fewRows.map(districtName))} ${fewRows.length > 1 ? 'have' : 'has'} fewer than ${m.intervals.minRows} training listings: their intervals use the city-wide quantile widened ×${m.intervals.thinDataFactor} (never narrower than their own) and every valuation there carries the THIN_DISTRICT_DATA flag.`);
  if (fewTested.length) thinParts.push(`${list(fewTested.map(districtName))} ${fewTested.length > 1 ? 'have' : 'has'} fewer than ${MIN_CLASS_ROWS} held-out listings: ${fewTested.length > 1 ? 'their' : 'its'} accuracy class comes from the leave-one-source-out view, and ${fewTested.length > 1 ? 'their' : 'its'} held-out numbers below are noise more than signal.`);
  const thin = [...new Set([...fewRows, ...fewTested])].sort((a, b) => cmp(districtName(a), districtName(b)));
  return [
    '## Intended use and limits',
    '',
    '- **Intended use**: collateral valuation of apartments in the 12 districts of Tashkent city, at loan origination and when a portfolio is revalued. Read the estimate together with its 90% interval, its confidence level and its anomaly flags; low-confidence or flagged valuations go to a valuer.',
    `- **Asking prices, not transaction prices**: every training price is what a seller asked on a classified-ad site (olx.uz, uybor.uz). Agreed prices usually differ after negotiation, by an amount this data cannot measure. Accuracy figures below are measured against asking prices too.`,
    `- **Dates and the market level**: only the July 2026 uybor export dates its listings (posted_at); every other listing is dated by its scrape month. A market index (section Market index) brings every listing to the newest level (${index.newestPeriod}) and moves a valuation to its valuation_date (default: the day it is made). Past ${index.newestPeriod} the level is held at the newest (the index's long-run drift, ${pct(index.driftPerMonth, 2)} a month, is measured but not applied: on the index's own history it overshot; see section Market index): the interval widens with the months, and each answer states the age of its data (market_level). More than ${STALE_DATA_MONTHS} months past the newest data a valuation carries ${STALE_DATA_FLAG}; its wider interval raises its FSD and lowers its stated confidence, and its drivers say why.`,
    `- **Apartments only**: this model values flats${houses ? `; houses (${int(houses)} cleaned listings of uybor's house file, and the houses of the 2023 and 2026 uybor files) are valued by the separate house model, section Houses` : ''}. Neither is for land or commercial property, or outside Tashkent city.`,
    thin.length ? `- **Thin districts**: ${list(thin.map(counts))}. ${thinParts.join(' ')}` : '- **Thin districts**: none in this version.',
    '- **Inputs outside the data**: areas outside a district\'s 1st–99th percentile, buildings taller than any seen in the district and unusual area per room are flagged, widen the interval and lower the confidence.',
  ].join('\n');
}

function data(ctx: Context): string {
  const { m } = ctx;
  const ingest = m.training.ingest;
  const out: string[] = ['## Data', ''];
  out.push(`Data snapshot \`${m.dataSnapshot.id}\` (files and SHA-256 recorded in the manifest):`, '');
  out.push(table(['file', 'rows', 'SHA-256'], m.dataSnapshot.files.map((f) => [`\`${f.path}\``, int(f.rows), `\`${f.sha256.slice(0, 16)}…\``]), [false, true, false]));
  const observed = m.training.observations;
  if (observed) {
    const dropped = Object.entries(observed.dropped).map(([reason, n]) => `${int(n)} ${reason}`).join(', ');
    out.push('', `**Observations** (\`npm run train -- --with-observations\`): an organisation's export \`${observed.file}\` (SHA-256 \`${observed.sha256.slice(0, 16)}…\`), ${int(observed.lines)} home lines, ${int(observed.kept)} kept (${Object.entries(observed.byPriceType).map(([type, n]) => `${int(n)} ${type}`).join(', ')})${dropped ? `, dropped: ${dropped}` : ''}, observed ${observed.periods?.from ?? '–'} to ${observed.periods?.to ?? '–'}. They are a source of their own (left out in turn like every source), dated by the month observed, and enter a forward test's fit only when observed before its first month. Sale and appraisal prices are taken as they are: the model then learns a mix of asking and agreed prices for those months.`);
  }
  if (ingest) {
    const sources = ingest.sources;
    out.push('', `### Ingestion`, '');
    out.push(`Cleaning turned ${int(ingest.totals.rowsIn)} rows into ${int(ingest.totals.rowsOut)} records (apartments and houses, all years); the rest were dropped for the reasons below.`, '');
    out.push(table(
      ['source', 'file', 'period', 'rows in', 'kept', 'dropped'],
      [...sources.map((s) => [s.source, `\`${s.path}\``, s.period, int(s.rowsIn), int(s.rowsOut), int(s.rowsIn - s.rowsOut)]), ['**total**', '', '', int(ingest.totals.rowsIn), int(ingest.totals.rowsOut), int(ingest.totals.rowsIn - ingest.totals.rowsOut)]],
      [false, false, false, true, true, true],
    ));
    const reasons = (Object.keys(DROP_REASONS) as DropReason[]).filter((r) => ingest.totals.dropped[r]);
    const extra = Object.keys(ingest.totals.dropped).filter((r) => !(r in DROP_REASONS)).sort(cmp) as DropReason[];
    out.push('', 'Rows dropped, by reason and source:', '');
    out.push(table(
      ['reason', ...sources.map((s) => s.source), 'total', 'meaning'],
      [...reasons, ...extra].map((r) => [`\`${r}\``, ...sources.map((s) => (s.dropped[r] ? int(s.dropped[r]) : '·')), int(ingest.totals.dropped[r]), DROP_REASONS[r] ?? '']),
      [false, ...sources.map(() => true), true, false],
    ));
    if (ingest.crossSourceMerges?.length) {
      out.push('', `The same flat listed in two scrapes is kept once (the more complete or more recent record): ${int(ingest.totals.dropped.duplicate_across_sources ?? 0)} such duplicates were removed.`, '');
      out.push(table(['dropped from', 'kept in', 'listings'], ingest.crossSourceMerges.map((c) => [c.dropped, c.keptIn, int(c.count)]), [false, false, true]));
    }
    const fallbacks = Object.entries(ingest.fallbackDistricts ?? {});
    if (fallbacks.length) out.push('', `Scraper fall-back districts detected (copies under them dropped): ${fallbacks.map(([s, d]) => `${s} → ${districtName(String(d))}`).join(', ')}.`);
  }
  out.push('', '### Training rows', '');
  const trainingSources = Object.keys(m.training.bySource);
  out.push(`The model is trained on ${int(m.training.rows)} apartment listings from ${list(trainingSources.map((s) => sourceLabel(ctx, s)))}. The headline test holds out ${list(testSources(ctx).map((s) => `\`${s}\``))} and fits on the rest.`, '');
  const bySD = ingest?.recordsBySourceAndDistrict as Record<string, Record<string, number>> | undefined;
  const crossOk = bySD !== undefined && trainingSources.every((s) => bySD[s]) && ctx.districts.every((d) => trainingSources.reduce((t, s) => t + (bySD[s][d] ?? 0), 0) === (m.training.byDistrict[d] ?? 0));
  const rows = ctx.districts.map((d) => {
    const total = m.training.byDistrict[d] ?? 0;
    const test = ctx.headline.districts[d]?.n ?? 0;
    return [districtName(d), ...(crossOk ? trainingSources.map((s) => int(bySD![s][d] ?? 0)) : []), int(total), int(total - test), int(test)];
  });
  const totalTest = ctx.headline.overall.n;
  rows.push(['**total**', ...(crossOk ? trainingSources.map((s) => int(m.training.bySource[s])) : []), int(m.training.rows), int(m.training.rows - totalTest), int(totalTest)]);
  out.push(table(['district', ...(crossOk ? trainingSources : []), 'training rows', 'headline: fitted on', 'headline: tested on'], rows));
  return out.join('\n');
}

function method(ctx: Context): string {
  const { m } = ctx;
  const featureLines = featureGroupLines(m.features.names, FEATURE_GROUPS);
  const zero = m.members.filter((x) => x.weight === 0).map((x) => x.name);
  const iv = m.intervals;
  // Versions before the normalised intervals have no `scale` at all.
  const scale = iv.scale ?? null;
  // Calibration groups are segments ('new', 'resale', 'unknown') and segment/district pairs; versions
  // before 2026.11.5 had districts only.
  const groupName = (g: string) => (g.includes('/') ? `${g.slice(0, g.indexOf('/'))}, ${districtName(g.slice(g.indexOf('/') + 1))}` : ctx.districts.includes(g) ? districtName(g) : `**${g}** (all districts)`);
  const groups = Object.keys(iv.district).sort((a, b) => cmp(a.split('/')[0], b.split('/')[0]) || Number(a.includes('/')) - Number(b.includes('/')) || cmp(groupName(a), groupName(b)));
  const intervalRows = groups.map((g) => {
    const e = iv.district[g];
    const width = g.includes('/') ? undefined : ctx.headline.segments?.[g]?.medianIntervalWidth ?? ctx.headline.districts[g]?.medianIntervalWidth;
    return [
      groupName(g), int(e.n), e.own ? 'own' : g.includes('/') ? 'segment' : `city ×${iv.thinDataFactor}`, fixed(e.q),
      ...(scale ? [] : [`−${pct(1 - Math.exp(-e.q), 0)} / +${pct(Math.exp(e.q) - 1, 0)}`]),
      width === undefined ? '–' : pct(width, 0),
    ];
  });
  const intervalText = scale
    ? `${pct(iv.coverage, 0)} prediction intervals by normalised split-conformal calibration (manifest: "${iv.method}"). The interval is estimate × exp(±q·σ(x)): σ(x) is the size of error a small residual-scale model (column \`${scale.column}\` of \`${m.onnx.file}\`, floor ${scale.floor} in log price) expects for this listing, and q, in units of σ, is the conformal quantile of the absolute log residuals divided by σ on rows neither model was fitted on. So intervals are narrower for listings like those the model predicts well and wider elsewhere, and q alone does not give a width: the last column is the median width the held-out listings got.`
    : `${pct(iv.coverage, 0)} prediction intervals by split-conformal calibration (manifest: "${iv.method}"). The interval is estimate × exp(±q), where q is the conformal quantile of the absolute log residuals of rows the model was not fitted on.`;
  return [
    '## Method',
    '',
    '### Features',
    '',
    `${m.features.names.length} features, built by one module (models/residential/features.ts) for training and serving alike, grouped as the importance figures report them:`,
    '',
    ...featureLines,
    '',
    `Location enters as smoothed target encodings of log price per m²: a mahalla is shrunk towards its district and a district towards the city (pseudo-count ${m.features.encoding.smoothing}), so a mahalla with few listings barely moves the estimate and an unknown one falls back to its district. ${int(Object.keys(m.features.encoding.mahalla).length)} mahallas and ${int(Object.keys(m.features.encoding.district).length)} districts are encoded. During training each row's encodings come from the other folds, so they leak no price.${m.features.encoding.mahallaCentres ? ` Beyond the encodings, the flat's point enters as latitude and longitude: the listing's or the client's coordinates, else the centre of its mahalla (${int(Object.keys(m.features.encoding.mahallaCentres).length)} mahallas placed by the gazetteer), else none; only olx 2021 (geocoded) and uybor 2026 listings carry coordinates.` : ''}`,
    '',
    '### Ensemble',
    '',
    table(['member', 'algorithm', 'weight', 'hyperparameters'], m.members.map((x) => [`\`${x.name}\``, x.algorithm, fixed(x.weight, 2), `\`${JSON.stringify(x.hyperparameters)}\``]), [false, false, true, false]),
    '',
    `The consensus is the weighted mean of the members' log price per m². The weights are learned on out-of-fold predictions (each row predicted by fits that never saw it): the weights, in steps of 0.05 summing to 1, whose weighted out-of-fold predictions have the least squared error.${zero.length ? ` ${list(zero.map((z) => `\`${z}\``))} got weight 0: trained, exported and reported per valuation, but ${zero.length > 1 ? 'they do' : 'it does'} not move the estimate or count in the model-disagreement measure.` : ''}`,
    '',
    '### Intervals',
    '',
    `${intervalText} A request is calibrated in its segment (new build, resale, or unknown when market is not given${m.marketMixture ? '; a flat sent without its market is valued as both new build and resale, each in its own segment, and the two mixed: see below' : ''}) within its district; a segment-district pair with fewer than ${iv.minRows} calibration rows uses its segment's quantile, never narrower than its own, and a segment without enough rows the city quantile (${fixed(iv.global)}) widened ×${iv.thinDataFactor}; each out-of-distribution flag on a request widens q ×${iv.outOfDistributionFactor} (at most three times).`,
    '',
    table(['segment, district', 'calibration rows', 'quantile', scale ? 'q (units of σ)' : 'q', ...(scale ? [] : ['interval around the estimate']), 'median width, forward test'], intervalRows, [false, true, false, true, ...(scale ? [] : [true]), true]),
    '',
    ...poolingSelection(iv),
    ...mixtureMethod(m),
    '### Confidence rule',
    '',
    'Every valuation carries its FSD and a confidence score, level and drivers (models/ensemble/fsd.ts; for homes the group a driver names is the district):',
    '',
    '```text',
    CONFIDENCE_RULE,
    '```',
    '',
    ...confidenceWidthLines(m),
    '### Accuracy class of a district',
    '',
    `${ACCURACY_CLASS_RULE} The class the confidence rule uses is the headline (held-out) class where the district has at least ${MIN_CLASS_ROWS} held-out listings, else its leave-one-source-out class.`,
  ].join('\n');
}

/** How far σ(x) is trusted, and the forward validation that chose it (versions from 2026.11.4). */
function poolingSelection(iv: ResidentialManifest['intervals']): string[] {
  const selection = iv.selection;
  const pooling = iv.scale?.pooling;
  if (!selection || !pooling) return [];
  const districts = [...new Set(selection.candidates.flatMap((c) => Object.keys(c.groups)))].filter((d) => selection.candidates[0].groups[d]?.n >= selection.minRows);
  const describe = (power: number) => (power === 0 ? 'plain (σ ignored)' : power === 1 ? 'fully normalised' : `pooled, power ${power}`);
  return [
    `σ(x) is not trusted fully: the interval uses ${fixed(pooling.center, 3)}^(1−p) · σ(x)^p with p = ${pooling.power}, pooling each listing's expected error toward the median one (${fixed(pooling.center, 3)}), because under drift the scale model's view of which listings are easy carries over only partly. p was chosen among ${list(selection.candidates.map((c) => String(c.power)))}, fixed in advance, without the forward test (${selection.protocol}): the p whose per-source coverage deviates least from ${pct(iv.coverage, 0)} on average.`,
    '',
    table(['σ(x) used', 'coverage, all scored sources', 'mean |deviation| per source', ...districts.map((d) => districtName(d))], selection.candidates.map((c) => [
      `${describe(c.power)}${c.power === selection.chosen ? ' **(chosen)**' : ''}`, pct(c.coverage), pct(c.meanAbsDeviation), ...districts.map((d) => pct(c.groups[d].coverage)),
    ]), [false, true, true, ...districts.map(() => true)]),
    '',
    'This view ranks the candidates; it does not report accuracy: the headline is the forward test.',
    '',
  ];
}

function districtTable(ctx: Context, report: EvaluationReport, withServiceClass: boolean): string {
  const rows = ctx.districts.map((d) => {
    const x: DistrictMetrics | undefined = report.districts[d];
    const cls = x ? x.accuracyClass : DASH;
    return [districtName(d), ...metricCells(x), cls, ...(withServiceClass ? [serviceClass(ctx, d) === cls ? serviceClass(ctx, d) : `**${serviceClass(ctx, d)}**`] : [])];
  });
  rows.push(['**all districts**', ...metricCells(report.overall), '', ...(withServiceClass ? [''] : [])]);
  return table(['district', ...METRIC_HEADER, 'accuracy class', ...(withServiceClass ? ['class used by the service'] : [])], rows, [false, ...METRIC_HEADER.map(() => true), false, ...(withServiceClass ? [false] : [])]);
}

/** The coverage check per district: the measured share, its 95% bounds and the verdict against 88–92%. */
function coverageCheck(ctx: Context): string {
  const h = ctx.headline;
  const target = ctx.m.intervals.coverage;
  const tested = ctx.districts.filter((d) => (h.districts[d]?.n ?? 0) >= MIN_CLASS_ROWS);
  if (!tested.every((d) => h.districts[d].intervalCoverageBounds95)) return '';
  const entries = [...tested.map((d) => [districtName(d), h.districts[d]] as const), ['**all districts**', h.overall] as const];
  const failing = tested.filter((d) => coverageVerdict(h.districts[d], target) !== COVERAGE_VERDICTS[1]);
  return [
    `**Coverage check.** A district's measured coverage is compared with the 88–92% band through its 95% (Wilson) confidence bounds: on 100–400 listings even a perfectly calibrated interval lands outside 88–92% in a quarter to a half of districts by chance alone, so the bounds, not the point, say whether the interval is off. Districts with at least ${MIN_CLASS_ROWS} held-out listings:`,
    '',
    coverageCheckTable('district', entries, target),
    '',
    failing.length
      ? `Outside the band beyond sampling error: ${list(failing.map((d) => districtName(d)))}.`
      : 'Every district with enough held-out listings is consistent with 88–92%.',
  ].join('\n');
}

function sourceTable(ctx: Context, report: EvaluationReport): string {
  const entries = Object.entries(report.bySource ?? {});
  return table(['source', ...METRIC_HEADER], entries.map(([s, x]) => [sourceLabel(ctx, s), ...metricCells(x)]));
}

function evaluation(ctx: Context, figures: readonly FigureName[]): string {
  const h = ctx.headline;
  const k = ctx.loso;
  const out: string[] = ['## Evaluation', ''];
  out.push(`**Headline protocol.** ${h.protocol}`, '');
  out.push(`**Second view.** ${k.protocol}`, '');
  out.push('### Overall', '');
  const backtest = ctx.m.evaluation.backtest;
  out.push(table(['evaluation', ...METRIC_HEADER], [
    ['headline: forward in time and across scrapes (uybor July 2026)', ...metricCells(h.overall)],
    ...(backtest ? [['backtest: the same protocol one step earlier (uybor 2025)', ...metricCells(backtest.overall)]] : []),
    ['leave one source out (every source but olx 2021)', ...metricCells(k.overall)],
  ]));
  const misfits = backtest?.grossMisfits;
  if (misfits) {
    const w = misfits.overallWithout;
    out.push('', `The backtest's R² and MAE are set by ${int(misfits.rows)} listing${misfits.rows === 1 ? '' : 's'} whose asking price cannot be a valuation error (${misfits.rule}: a price in the wrong unit or column). Without ${misfits.rows === 1 ? 'it' : 'them'}: R² ${fixed(w.r2)}, MAE ${int(w.maeUsd)} USD, median APE ${pct(w.medianApe)}, coverage ${pct(w.intervalCoverage)}. The row above keeps them, as clients' requests would.`);
  }
  out.push('', figureLink(figures, 'predicted-vs-actual', `Each point is one held-out listing (${int(ctx.rows?.length ?? 0)}), coloured by scrape; log scales. Points on the solid line are exact; between the dashed lines the estimate is within 20% of the asking price.`));
  out.push('', '### By district (headline)', '');
  out.push(districtTable(ctx, h, true));
  out.push('', `The accuracy class is computed from the row's own numbers; the service uses the last column (in bold where it differs: fewer than ${MIN_CLASS_ROWS} held-out listings, so the leave-one-source-out class is used).`);
  out.push('', figureLink(figures, 'error-by-district', 'Median absolute percentage error per district on the held-out listings (bars), with our MAPE (black tick) and the reference service\'s published MAPE (red diamond). MAPE sits above the median because a minority of listings are far off.'));
  out.push('', figureLink(figures, 'interval-coverage', 'Share of held-out asking prices inside the 90% interval, per district, with its 95% confidence bounds. The target is 90% (dashed) and the band 88–92% (shaded).'));
  out.push('', coverageCheck(ctx));
  if (ctx.rows?.length) {
    const dirs = directionByDistrict(ctx);
    const all = direction(ctx.rows);
    out.push('', '### Direction of errors (headline)', '');
    out.push('For collateral an estimate above the price is the risky error. Estimate against asking price on the held-out listings (from evaluation.json):', '');
    out.push(directionTable('district', [...[...dirs].map(([d, x]) => [districtName(d), x] as const), ['**all districts**', all] as const]));
    const over = overvalued(ctx);
    out.push('', all.above > 0.55 || all.medianSigned > 0.02
      ? `The errors lean towards over-valuation: ${pct(all.above, 0)} of estimates are above the asking price (an unbiased model would be near 50%)${over.length ? `, and the median estimate is more than 5% above the asking price in ${list(over.map((o) => `${districtName(o.district)} (${signedPct(o.dir.medianSigned)})`))}` : ''}.`
      : `The errors are balanced: ${pct(all.above, 0)} of estimates are above the asking price.`);
  }
  out.push('', '### By district (leave one source out)', '');
  out.push(districtTable(ctx, k, false));
  out.push('', 'In the leave-one-source-out view each source\'s intervals were calibrated on the other sources\' residuals only. The headline coverage, on the newest listings that neither the fit nor the calibration saw, is the check that matters.');
  out.push('', '### By source', '');
  out.push('Headline (the forward test):', '', sourceTable(ctx, h), '', 'Leave one source out (each source as predicted by a model that never saw it; olx 2021 is shown but its level had to be extrapolated backwards):', '', sourceTable(ctx, k));
  out.push('', `The worst source left out (by median APE, olx 2021 aside): ${k.worstSource ?? 'n/a'}.`);
  const inDistribution = ctx.m.evaluation.inDistribution;
  if (inDistribution) {
    out.push('', '### In distribution (labelled so)', '', `${inDistribution.protocol} It is not evidence of how the model does on later listings or other sites (the 2026.11.4 card's in-scrape split said 9.7% median APE where the forward test then measured 14.8%); its rows include olx 2021's, older and noisier than the rest.`, '');
    out.push(table(['view', ...METRIC_HEADER], [['in distribution (k-fold, all sources mixed)', ...metricCells(inDistribution.overall)], ['forward (headline)', ...metricCells(ctx.headline.overall)], ['leave one source out', ...metricCells(k.overall)]]));
  }
  out.push('', ...backtestSection(ctx));
  out.push(...pooledForwardSection(ctx));
  out.push('', ...shiftChecks(ctx));
  if (ctx.rows?.length) out.push(...confidenceSection(ctx.rows));
  out.push('', ...marketIndexSection(ctx, figures));
  return out.join('\n');
}

/** The summary's warning from the earlier forward step, when the manifest has one. */
function backtestSentence(ctx: Context): string {
  const backtest = ctx.m.evaluation.backtest;
  if (!backtest) return '';
  const worse = backtest.overall.medianApe > ctx.headline.overall.medianApe;
  return `The same test one step earlier (uybor's 2025 listings valued by a model fitted before them) went ${worse ? 'worse' : 'better'}: median error ${pct(backtest.overall.medianApe)}, estimates ${signedPct(backtest.level.medianLevelError)} against the asking price, range coverage ${pct(backtest.overall.intervalCoverage)}. In both steps the market level past the newest data is the largest part of the error: the model holds the newest level there (no drift, issue 32), so in a rising market it values low, in a falling one high. The further a valuation date lies past the newest data (market_level.data_age_months), the more the estimate rests on that level.`;
}

/** The second forward step, and how much of each forward step's error is the market level. */
function backtestSection(ctx: Context): string[] {
  const { backtest, headline } = ctx.m.evaluation;
  if (!backtest || !headline.level) return [];
  const rows = [['forward (uybor July 2026)', headline.level, headline.overall] as const, ['backtest (uybor 2025)', backtest.level, backtest.overall] as const];
  const backtestWorse = Math.abs(backtest.level.medianLevelError) > Math.abs(headline.level.medianLevelError);
  const worse = backtestWorse ? backtest.level : headline.level;
  return [
    '### A second forward step (backtest)', '',
    `${backtest.protocol}`, '',
    'How much of each forward step\'s error is the market level: the median estimate against the asking price, and the median APE and coverage once that one level error is taken out of every estimate and interval (what remains is each flat\'s own error):', '',
    table(['forward step', 'listings', 'median level error', 'median APE', 'coverage', 'median APE at the level found', 'coverage at the level found'], rows.map(([name, level, overall]) => [
      name, int(overall.n), signedPct(level.medianLevelError), pct(overall.medianApe), pct(overall.intervalCoverage), pct(level.medianApeAtFoundLevel), pct(level.coverageAtFoundLevel),
    ])),
    '', `Read together: at the level each step found, the intervals over-cover (${pct(headline.level.coverageAtFoundLevel)} and ${pct(backtest.level.coverageAtFoundLevel)}) and each flat's own error is similar (${pct(headline.level.medianApeAtFoundLevel)} and ${pct(backtest.level.medianApeAtFoundLevel)} median APE); what differs is the level the index extrapolated, off by ${signedPct(worse.medianLevelError)} on ${backtestWorse ? 'the 2025 step' : 'the 2026 step'}. The index's months are single scrapes of one site, so a site's or a scrape's own price level is read as the market's; the random-walk allowance, measured net of those offsets, did not cover that. The headline coverage above the band is therefore not a reason to narrow the intervals: on the earlier step the same method covered ${pct(backtest.overall.intervalCoverage)}.`,
  ];
}

/** Bias within ±3% and coverage whose Wilson bounds reach 88–92%: issue 32's bar for the pooled forward steps. */
const POOLED_BIAS_BOUND = 0.03;

/** Every forward step pooled: bias and coverage judged on all of them, not on one step (issue 32). */
function pooledForwardSection(ctx: Context): string[] {
  const pooled = ctx.m.evaluation.pooledForward;
  if (!pooled) return [];
  const entries = [['all', pooled.overall] as const, ...Object.entries(pooled.segments).filter(([, x]) => x.n >= 30)];
  const biasVerdict = (bias: number) => (Math.abs(bias) <= POOLED_BIAS_BOUND ? 'within ±3%' : bias > 0 ? 'too high' : 'too low');
  return [
    '', '### Every forward step pooled', '',
    `${pooled.protocol} Steps: ${pooled.steps.map((s) => `${s.source} (${int(s.n)})`).join(', ')}. Segments with fewer than 30 listings are left out of the table; the 2025 listings carry no market, so they are the unknown segment.`, '',
    table(['segment', 'n', 'median bias', 'bias verdict (±3%)', 'median APE', 'coverage (90%)', '95% bounds', 'coverage verdict (88–92%)'], entries.map(([name, x]) => [
      name, int(x.n), signedPct(x.medianBias), biasVerdict(x.medianBias), pct(x.medianApe), pct(x.intervalCoverage), coverageBounds(x), coverageVerdict(x, 0.9),
    ]), [false, true, true, false, true, true, false, false]),
  ];
}

/** The forward test by segment, with optional fields removed, and against the baseline. */
function shiftChecks(ctx: Context): string[] {
  const { m } = ctx;
  const h = ctx.headline;
  const b = m.evaluation.baseline;
  return [
    '### By segment (headline)', '',
    table(['segment', ...METRIC_HEADER], Object.entries(h.segments ?? {}).map(([seg, x]) => [seg, ...metricCells(x)])),
    '', 'Leave one source out, by segment (new and resale are known only where the source says so: olx 2024 and uybor 2026):', '',
    table(['segment', ...METRIC_HEADER], Object.entries(ctx.loso.segments ?? {}).map(([seg, x]) => [seg, ...metricCells(x)])),
    '', '### The forward test with fields missing', '',
    'Banks and other sites often send only the basics. The same held-out flats, valued with fields removed (the interval then comes from the calibration group the request falls in):', '',
    table(['fields sent', ...METRIC_HEADER], [['all the file has', ...metricCells(h.overall)], ...m.evaluation.masked.map((v) => [v.name, ...metricCells(v.overall)])]),
    ...(m.marketMixture ? ['', 'Rows sent without their market are valued as the mixture of their new-build and resale valuations (section Method, "Flats sent without their market").'] : []),
    ...maskedBreakdown(m, m.intervals.coverage),
    ...(ctx.loso.coreFieldsOnly ? [
      '', `Every training listing is also fitted with its optional fields removed (renovation, building type, mahalla, point, furniture, bathroom, seller; at ${fixed(m.training.maskedCopyWeight ?? 0, 2)} of its weight), so a request with the basics only is valued by what the basics say, and its interval is calibrated on such requests' residuals too. Leave one source out with the core fields and market only:`, '',
      table(['fields sent', ...METRIC_HEADER], [['all the source has', ...metricCells(ctx.loso.overall)], ['district, area, rooms, floor, floors and market only', ...metricCells(ctx.loso.coreFieldsOnly.overall)]]),
    ] : []),
    '', '### Against a gradient-boosting baseline', '',
    `The baseline is ${b.algorithm} (${Object.entries(b.hyperparameters).map(([k, v]) => `${k} ${v}`).join(', ')}), on the same features, levelled targets and views. Leave one source out is over the sources before the newest snapshot (olx 2021 aside).`, '',
    table(['view', 'model', ...METRIC_HEADER], [
      ['forward (headline)', 'this ensemble', ...metricCells(h.overall)],
      ['forward (headline)', 'baseline', ...metricCells(b.forward)],
      ['leave one source out', 'this ensemble', ...metricCells(b.oursLeaveOneSourceOutOnTheSameRows)],
      ['leave one source out', 'baseline', ...metricCells(b.leaveOneSourceOut)],
    ]),
  ];
}

/**
 * The forward test with fields missing, by each flat's own market (sent or not) and by confidence
 * level: other sites and banks send the basics, so this is what their valuations look like.
 */
function maskedBreakdown(m: ResidentialManifest, target: number): string[] {
  const views = m.evaluation.masked.filter((v) => v.segments && v.byConfidence);
  if (!views.length) return [];
  const unordered = views.filter((v) => !errorsRiseAsConfidenceFalls(v.byConfidence!));
  return [
    '', 'The same views by each flat\'s own market (whether or not it was sent), with the coverage\'s 95% bounds against the 88–92% band:', '',
    table(['fields sent', 'market of the flat', 'n', 'median APE', 'PPE10', 'coverage (90%)', 'coverage 95% bounds', 'verdict', 'median width'],
      views.flatMap((v) => Object.entries(v.segments!).map(([seg, x]) => [v.name, seg, int(x.n), pct(x.medianApe), pct(x.ppe10, 0), pct(x.intervalCoverage), coverageBounds(x), coverageVerdict(x, target), pct(x.medianIntervalWidth, 0)])),
      [false, false, true, true, true, true, false, false, true]),
    '', 'And by the confidence level stated for each (the band of the FSD its own interval implies), with the share within ±FSD (about 68% when honest):', '',
    table(['fields sent', 'confidence (FSD band)', 'n', 'share', 'within ±FSD (95% bounds)', 'FSD verdict', 'median APE', 'PPE10', 'PPE20', 'coverage (90%)'],
      views.flatMap((v) => v.byConfidence!.map((c) => [
        v.name, c.level, int(c.n), pct(c.n / v.overall.n, 0), c.withinFsd === undefined ? DASH : `${pct(c.withinFsd)} (${pct(c.withinFsdBounds!.low)}–${pct(c.withinFsdBounds!.high)})`, fsdVerdict(c),
        pct(c.medianApe), pct(c.ppe10, 0), pct(c.ppe20, 0), pct(c.coverage),
      ])),
      [false, false, true, true, false, false, true, true, true, true]),
    '', unordered.length
      ? `The median error does not rise steadily from high to low confidence with ${unordered.map((v) => v.name).join('; ')}.`
      : 'With every set of fields the median error rises from high to low confidence.',
  ];
}

/** How a flat sent without its market is valued, and how well the new-build probability held on the labelled source it never saw. */
function mixtureMethod(m: ResidentialManifest): string[] {
  const mixture = m.marketMixture;
  if (!mixture) return [];
  return [
    '### Flats sent without their market', '',
    `A flat sent without its market (new build or resale) is valued as both, and the two are mixed. Method: ${mixture.method}. The probability model was fitted on ${int(mixture.fittedOn.rows)} listings that say their market (${Object.entries(mixture.fittedOn.sources).map(([s, n]) => `${s}: ${int(n)}`).join(', ')}; ${pct(mixture.fittedOn.newBuildShare)} new builds). Each labelled source, its probabilities given by a model fitted on the other:`, '',
    table(['source left out', 'listings', 'new builds', 'mean probability', 'Brier score', 'AUC'], mixture.leaveOneSourceOut.map((c) => [c.source, int(c.rows), pct(c.newBuildShare), pct(c.meanProbability), fixed(c.brier, 3), fixed(c.auc, 3)])),
    '', 'The reply names the probability and both valuations (market_mixture). The probability carries the share of new builds of the listings it learned from: where a bank\'s book holds a different share, the mixture leans accordingly.', '',
  ];
}

/** The accuracy at each stated level leaving one source out (the FSD of each held-out valuation's interval). */
function confidenceWidthLines(m: ResidentialManifest): string[] {
  if (!m.confidence) return [];
  const { leaveOneSourceOut } = m.confidence;
  // Manifests before issue 32 grouped by the score rule, not by FSD: their table says nothing of the FSD.
  if (!leaveOneSourceOut.every((c) => c.withinFsd !== undefined)) return [];
  return ['Leaving one source out, the valuations at each stated level:', '', confidenceTable(leaveOneSourceOut), ''];
}

function marketIndexSection(ctx: Context, figures: readonly FigureName[]): string[] {
  const index = ctx.m.marketIndex;
  return [
    '## Market index', '',
    `**Method.** ${index.method}. Every training listing is brought to the newest level (${index.newestPeriod}) before the members see it; a valuation is moved to its date by the index. Past the newest data the level is held at the newest (the long-run drift, ${pct(index.driftPerMonth, 2)} a month, is not applied: the check below) and the interval widens in quadrature by ${fixed(index.allowanceZ, 3)} × ${fixed(index.volatilityPerMonth, 4)} × √months (the volatility per √month net of each scrape's own level offset, variance ${fixed(index.scrapeVariance ?? 0, 4)}, which leave one source out measured and the calibration residuals already hold). Published by GraphQL \`marketIndex(district, market)\`.`, '',
    table(['month', 'listings', 'city', ...ZONE_IDS.map((z) => z.replace('_', '-')), 'new-build deviation'], index.city.map((p, i) => [
      p.period, int(index.periods[i]?.rows ?? 0), `${fixed(Math.exp(p.logLevel), 3)} ± ${fixed(1.96 * p.se, 3)}`, ...ZONE_IDS.map((z) => fixed(Math.exp(index.zones[z][i].logLevel), 3)), signedPct(Math.exp(index.segments.new[i].logLevel) - 1),
    ])),
    '', figureLink(figures, 'market-index', 'The index of the served version: the city level per listing month with its 95% band, and the four zones of districts.'),
    ...forecastCheckLines(index),
    ...scrapeOffsetLines(index),
  ];
}

/** Each scrape's own offset, the newest level read from every point, and whether serving holds it (MarketIndex.scrapeOffsets). */
function scrapeOffsetLines(index: ResidentialManifest['marketIndex']): string[] {
  const offsets = index.scrapeOffsets;
  if (!offsets) return [];
  const ratio = (log: number) => signedPct(Math.exp(log) - 1);
  const reading = offsets.newestReading;
  return [
    '', `**Each scrape's own offset.** A month of the index is mostly one site's scrape, and a scrape's own level (its site, its season, how its listings were dated) moves its point as much as a year of the market. The index models it: ${offsets.method}. Published by GraphQL \`marketIndex\` (\`scrapeOffsets\`, \`sourceOffsets\`, \`newestReading\`).`, '',
    table(['month', 'point', 'market level read from every point', "the point's own offset", '95% band'], offsets.points.map((p, i) => [
      p.period, fixed(Math.exp(index.city[i]?.logLevel ?? 0), 3), fixed(Math.exp(p.level), 3), ratio(p.offset), `${ratio(p.offset - 1.96 * p.se)} to ${ratio(p.offset + 1.96 * p.se)}`,
    ]), [false, true, true, true, false]),
    '', `Leaving one source out, each source's own offset (its median error when its level came from the other sources): ${offsets.sources.map((o) => `${o.source} ${ratio(o.offset)}`).join(', ')}.`, '',
    `Read from every point, the level of ${index.newestPeriod} is ${ratio(reading.logLevel)} against the newest point (95% band ${ratio(reading.logLevel - 1.96 * reading.se)} to ${ratio(reading.logLevel + 1.96 * reading.se)}). The rule is the one set when a local-level filter was first tried (docs/BENCHMARKS.md, issue 32): serving holds the reading past the newest data only if, on the index's own rolling origin (from each point, the level held against the level the later points found), its median |error| is lower than the newest point's, horizon by horizon:`, '',
    table(['months ahead', 'pairs', 'median |error|, newest point held', 'median |error|, reading of every point held'], offsets.rollingOrigin.map((h) => [h.months, int(h.pairs), pct(Math.exp(h.medianAbsErrorHeld) - 1), pct(Math.exp(h.medianAbsErrorFiltered) - 1)])),
    '', offsets.applied
      ? `It was: valuations past ${index.newestPeriod} hold the reading of every point.`
      : `It was not, so valuations past ${index.newestPeriod} hold the newest points' own level; the reading and the offsets are published for a bank to weigh, and a bank's own observed prices re-anchor the level point in time. The interval already carries a scrape's offset: its calibration residuals come from sources each valued at a level the others set.`,
  ];
}

/** The rule past the newest data, tried on the index's own history (MarketIndex.forecastCheck). */
function forecastCheckLines(index: ResidentialManifest['marketIndex']): string[] {
  const check = index.forecastCheck;
  if (!check?.byHorizon.length) return [];
  const ratio = (log: number) => signedPct(Math.exp(log) - 1);
  const overshoots = check.byHorizon.filter((h) => h.medianError > 0.03).map((h) => h.months);
  const halfYear = index.allowanceZ * index.volatilityPerMonth * Math.sqrt(6);
  return [
    '', '**The rule past the newest data, tried on the index\'s own history.** From each month of the index, its level carried forward by the drift measured up to that month, against the level the later months found; and the same without the drift (as serving holds the newest level). Errors are the forecast against what was found (positive: too high):', '',
    table(['months ahead', 'pairs', 'median error, with drift', 'median |error|, with drift', 'median error, without drift', 'median |error|, without drift'], check.byHorizon.map((h) => [
      h.months, int(h.pairs), ratio(h.medianError), pct(Math.exp(h.medianAbsError) - 1), ratio(h.medianErrorWithoutDrift), pct(Math.exp(h.medianAbsErrorWithoutDrift) - 1),
    ])),
    '', `${overshoots.length ? `On this history the drift overshot (${overshoots.join(', ')} months ahead): most of it was learned from the rise between 2021 and 2023, which did not go on at that pace. ` : ''}The allowance the interval takes for the level past the newest data is ${pct(Math.exp(halfYear) - 1)} at six months (${fixed(index.allowanceZ, 3)} × ${fixed(index.volatilityPerMonth, 4)} × √6, in quadrature with the rest of the interval); the errors above, and the two forward steps in section Evaluation, show the level past the newest data is the largest risk of a valuation dated after it.`,
  ];
}

// ───────────────────────────── comparison ─────────────────────────────

function comparison(ctx: Context, figures: readonly FigureName[]): string {
  const h = ctx.headline;
  const k = ctx.loso;
  const out: string[] = ['## Comparison with the reference service', ''];
  out.push('The reference figures are those published for the service this one replaces (docs/ARCHITECTURE.md, "Reference figures"). Its measurement protocol was not published, so the comparison is between published numbers, not a test on the same listings.', '');
  out.push(table(
    ['', 'reference service', 'this model, headline', 'this model, leave one source out'],
    [
      ['R²', fixed(REFERENCE_OVERALL.r2, 2), fixed(h.overall.r2), fixed(k.overall.r2)],
      ['MAPE', pct(REFERENCE_OVERALL.mape, 0), pct(h.overall.mape), pct(k.overall.mape)],
      ['median APE', 'not published', pct(h.overall.medianApe), pct(k.overall.medianApe)],
      ['90% interval coverage', 'not published', pct(h.overall.intervalCoverage), pct(k.overall.intervalCoverage)],
      ['listings tested', 'not published', int(h.overall.n), int(k.overall.n)],
      ['protocol', 'not published', 'held out by time and source', 'each source held out in turn'],
    ],
    [false, true, true, true],
  ));
  out.push('', '### Per district', '');
  const rows = ctx.districts.map((d) => {
    const ref = REFERENCE_DISTRICTS[d as DistrictId];
    const x = h.districts[d];
    const y = k.districts[d];
    return [
      districtName(d), int(x?.n ?? 0),
      ref ? fixed(ref.r2) : DASH, fixed(x?.r2), fixed(y?.r2),
      ref ? pct(ref.mape) : DASH, pct(x?.mape), pct(y?.mape),
      ref ? int(ref.maeUsd) : DASH, int(x?.maeUsd), int(y?.maeUsd),
      ref ? ref.accuracyClass : DASH, serviceClass(ctx, d),
    ];
  });
  rows.push(['**overall**', int(h.overall.n), fixed(REFERENCE_OVERALL.r2, 2), fixed(h.overall.r2), fixed(k.overall.r2), pct(REFERENCE_OVERALL.mape, 0), pct(h.overall.mape), pct(k.overall.mape), 'not published', int(h.overall.maeUsd), int(k.overall.maeUsd), '', '']);
  out.push(table(
    ['district', 'n (held out)', 'R² ref.', 'R² ours', 'R² ours LOSO', 'MAPE ref.', 'MAPE ours', 'MAPE ours LOSO', 'MAE ref. (USD)', 'MAE ours', 'MAE ours LOSO', 'class ref.', 'class ours'],
    rows,
    [false, true, true, true, true, true, true, true, true, true, true, false, false],
  ));
  out.push('', '"ours" is the headline held-out test; "class ours" is the class the service uses.');
  out.push('', '### Feature importance', '');
  const imp = importanceRows(ctx);
  out.push(table(['feature', 'this model', 'reference service', 'reference feature(s)'], imp.map((r) => [r.feature, r.ours === null ? DASH : pct(r.ours), r.reference === null ? DASH : pct(r.reference), r.referenceNames.join(' + ') || DASH]), [false, true, true, false]));
  out.push('', 'Ours: permutation importance on the headline held-out listings (the rise in mean absolute log error when a feature group is shuffled), as a share of the total. A share of 0.0% means shuffling the feature did not worsen the held-out error: it adds nothing there, or it is missing in the held-out scrapes (the uybor scrapes record neither owner type nor new or resale; only olx does). The reference\'s method was not published. Features with a dash do not exist in the other model.');
  out.push('', figureLink(figures, 'feature-importance', 'Share of importance per feature, this model and the reference service side by side.'));
  out.push('', whereWeStand(ctx));
  return out.join('\n');
}

interface ImportanceRow {
  feature: string;
  ours: number | null;
  reference: number | null;
  referenceNames: string[];
}

function importanceRows(ctx: Context): ImportanceRow[] {
  const rows = new Map<string, ImportanceRow>();
  for (const f of ctx.m.evaluation.featureImportance) rows.set(f.feature, { feature: f.feature, ours: f.importance, reference: null, referenceNames: [] });
  for (const f of REFERENCE_FEATURE_IMPORTANCE) {
    const key = f.comparable ?? f.feature;
    const row = rows.get(key) ?? { feature: key, ours: null, reference: null, referenceNames: [] };
    row.reference = Math.round(((row.reference ?? 0) + f.importance) * 1000) / 1000;
    row.referenceNames.push(f.feature);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => Math.max(b.ours ?? 0, b.reference ?? 0) - Math.max(a.ours ?? 0, a.reference ?? 0) || cmp(a.feature, b.feature));
}

function whereWeStand(ctx: Context): string {
  const h = ctx.headline;
  const k = ctx.loso;
  const m = ctx.m;
  const s: string[] = [];
  const gap = h.overall.mape - REFERENCE_OVERALL.mape;
  s.push(`**Overall.** On the published numbers the reference service is ${gap > 0 ? 'ahead' : 'behind'}: R² ${fixed(REFERENCE_OVERALL.r2, 2)} against our ${fixed(h.overall.r2)} (forward) and ${fixed(k.overall.r2)} (leave one source out); MAPE ${pct(REFERENCE_OVERALL.mape, 0)} against ${pct(h.overall.mape)} and ${pct(k.overall.mape)}.`);

  const solid = ctx.districts.filter((d) => REFERENCE_DISTRICTS[d as DistrictId] && (h.districts[d]?.n ?? 0) >= MIN_CLASS_ROWS);
  const thinTested = ctx.districts.filter((d) => REFERENCE_DISTRICTS[d as DistrictId] && (h.districts[d]?.n ?? 0) > 0 && (h.districts[d]?.n ?? 0) < MIN_CLASS_ROWS);
  const ref = (d: string) => REFERENCE_DISTRICTS[d as DistrictId];
  const betterMape = solid.filter((d) => h.districts[d].mape <= ref(d).mape);
  const betterR2 = solid.filter((d) => h.districts[d].r2 >= ref(d).r2);
  s.push(`**Districts.** Among the ${solid.length} districts with at least ${MIN_CLASS_ROWS} held-out listings, our MAPE matches or beats the reference in ${betterMape.length ? list(betterMape.map(districtName)) : 'none'} and our R² in ${betterR2.length ? list(betterR2.map(districtName)) : 'none'}.`);
  const ranked = [...solid].sort((a, b) => (h.districts[a].mape - ref(a).mape) - (h.districts[b].mape - ref(b).mape) || cmp(a, b));
  if (ranked.length >= 2) {
    const near = ranked.slice(0, Math.min(3, ranked.length));
    const far = ranked.slice(-Math.min(2, ranked.length - near.length || 1)).reverse();
    s.push(`Closest to the reference: ${list(near.map((d) => `${districtName(d)} (MAPE ${pct(h.districts[d].mape)} against ${pct(ref(d).mape)})`))}. Furthest: ${list(far.map((d) => `${districtName(d)} (${pct(h.districts[d].mape)} against ${pct(ref(d).mape)}, median APE ${pct(h.districts[d].medianApe)})`))}.`);
  }
  if (thinTested.length) {
    s.push(`${list(thinTested.map((d) => `${districtName(d)} (n = ${h.districts[d].n}: R² ${fixed(h.districts[d].r2)}, MAPE ${pct(h.districts[d].mape)} against ${fixed(ref(d).r2)} and ${pct(ref(d).mape)})`))} ${thinTested.length > 1 ? 'have' : 'has'} too few held-out listings for any comparison to mean much, in either direction.`);
  }
  const down = ctx.districts.filter((d) => ref(d) && CLASS_RANK[serviceClass(ctx, d)] < CLASS_RANK[ref(d).accuracyClass]);
  const up = ctx.districts.filter((d) => ref(d) && CLASS_RANK[serviceClass(ctx, d)] > CLASS_RANK[ref(d).accuracyClass]);
  const same = ctx.districts.filter((d) => ref(d) && serviceClass(ctx, d) === ref(d).accuracyClass);
  s.push(`**Accuracy classes.** Same class as the reference in ${same.length} district${same.length === 1 ? '' : 's'}${same.length ? ` (${list(same.map(districtName))})` : ''}; lower in ${down.length ? list(down.map((d) => `${districtName(d)} (${ref(d).accuracyClass} → ${serviceClass(ctx, d)})`)) : 'none'}; higher in ${up.length ? list(up.map((d) => `${districtName(d)} (${ref(d).accuracyClass} → ${serviceClass(ctx, d)})`)) : 'none'}. Our classes come from the rule above applied to held-out numbers; a lower class lowers the confidence the service reports in that district.`);

  const ape = (ctx.rows ?? []).map((r) => Math.abs(r.actual - r.predicted) / r.actual);
  const far = (ctx.rows ?? []).filter((_, i) => ape[i] > 0.3);
  if (ctx.rows?.length && far.length && h.overall.mape - h.overall.medianApe >= 0.02) {
    const byDistrict = new Map<string, number>();
    for (const r of far) byDistrict.set(r.district, (byDistrict.get(r.district) ?? 0) + 1);
    const top = [...byDistrict.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, 2);
    s.push(`**A tail of large errors.** The median error (${pct(h.overall.medianApe)}) is well below the MAPE (${pct(h.overall.mape)}) because ${int(far.length)} held-out listings (${pct(far.length / ctx.rows.length)}) are off by more than 30%${top.length ? `; ${list(top.map(([d, c]) => `${districtName(d)} has ${c} of them (${pct(c / (h.districts[d]?.n || 1), 0)} of its held-out listings)`))}` : ''}. Some of these are probably mispriced or mistyped listings rather than model failures, but the data cannot separate the two; they are what the interval and the anomaly flags are for.`);
  }

  const over = overvalued(ctx);
  if (over.length) {
    s.push(`**Over-valuation.** ${list(over.map((o) => `${districtName(o.district)} (median ${signedPct(o.dir.medianSigned)}, ${pct(o.dir.above20, 0)} of estimates more than 20% above the asking price)`))}: the held-out listings there ask less than the older scrapes taught the model to expect. The cause is not established (a shift in what the newer scrape lists in ${over.length > 1 ? 'these districts' : 'this district'}, or in the sources' price levels); until it is, treat estimates there with extra caution.`);
  }

  const srcs = Object.entries(h.bySource ?? {});
  if (srcs.length > 1) {
    const sorted = [...srcs].sort((a, b) => a[1].mape - b[1].mape);
    const [best, worst] = [sorted[0], sorted[sorted.length - 1]];
    s.push(`**By source.** Error differs between the held-out scrapes: ${sourceLabel(ctx, best[0])} MAPE ${pct(best[1].mape)} (n = ${int(best[1].n)}, coverage ${pct(best[1].intervalCoverage)}), ${sourceLabel(ctx, worst[0])} MAPE ${pct(worst[1].mape)} (n = ${int(worst[1].n)}, coverage ${pct(worst[1].intervalCoverage)}). Intervals are calibrated per district, not per source, so a scrape unlike the training ones gets less than its nominal coverage.`);
  }

  const below = ctx.districts.filter((d) => (h.districts[d]?.n ?? 0) >= MIN_CLASS_ROWS && h.districts[d].intervalCoverage < 0.88);
  s.push(`**Intervals.** Our 90% interval held ${pct(h.overall.intervalCoverage)} of held-out asking prices (leave one source out ${pct(k.overall.intervalCoverage)})${below.length ? `; below 88% in ${list(below.map((d) => `${districtName(d)} (${pct(h.districts[d].intervalCoverage)})`))}` : ', and no district with enough test listings fell below 88%'}. The reference service published no interval, so its R² and MAPE say nothing about how much margin a bank should hold around a value.`);

  const why: string[] = [];
  why.push(`- **Different tests.** The reference's protocol was not published. R² ${fixed(REFERENCE_OVERALL.r2, 2)} and MAPE ${pct(REFERENCE_OVERALL.mape, 0)} on single flats were probably measured in-sample or on a random split of one source's listings. Ours is forward in time and across scrapes: the model is fitted on every listing before the newest snapshot and tested on that snapshot, the way it will be used.`);
  const dupIn = m.training.ingest?.totals.dropped.duplicate_in_file ?? 0;
  const dupAcross = m.training.ingest?.totals.dropped.duplicate_across_sources ?? 0;
  if (dupIn || dupAcross) why.push(`- **Duplicates removed.** Cleaning dropped ${int(dupIn)} repeats within files and ${int(dupAcross)} flats listed again in another scrape. Without that, a random split puts the same flat on both sides of the test and flatters the score; we do not know whether the reference removed them.`);
  const kGain = h.overall.mape - k.overall.mape;
  why.push(`- **The split is not the whole story.** Leave one source out gives MAPE ${pct(k.overall.mape)} against ${pct(h.overall.mape)} forward (${pp(-kGain)}); a random split inside one scrape, which this card no longer reports, flattered earlier versions by almost two, while the gap to the reference is ${pp(gap)}. So most of the gap is not explained by our stricter split alone: it is consistent with duplicates or in-sample measurement behind the reference's figures, or with a cleaner data set than public asking prices; without its protocol we cannot tell which.`);
  why.push('- **Asking prices are noisy.** Similar flats are listed at quite different asking prices, and some listings are mispriced or mistyped. No model can predict that part: it puts a floor under the error of any model tested on later asking prices, ours or the reference\'s.');
  why.push(`- **Time is not a feature.** The reference ranks month and year of listing among its features (6.1% together). Our members see no date: a market index (section Market index) levels every listing to the newest data and carries a valuation to its date, so a tree never has to extrapolate in time.`);
  const thin = thinDistricts(ctx);
  if (thin.length) {
    const refR2 = Object.values(REFERENCE_DISTRICTS).map((r) => r.r2).sort((a, b) => a - b);
    const lowest = thin.filter((d) => ref(d) && ref(d).r2 <= refR2[Math.min(thin.length, refR2.length) - 1]);
    why.push(`- **Thin districts.** ${list(thin.map((d) => `${districtName(d)} (${int(m.training.byDistrict[d] ?? 0)} training listings)`))}: too little data to value with confidence by any method${lowest.length === thin.length ? `; the reference's R² there (${list(thin.map((d) => fixed(ref(d).r2)))}) is also its lowest` : ''}.`);
  }
  return ['### Where we stand and why', '', ...s.map((x) => `${x}\n`), 'Why the numbers differ:', '', ...why].join('\n');
}

const CLASS_RANK: Record<AccuracyClass, number> = { low: 0, fair: 1, good: 2, high: 3 };

// ───────────────────────────── figures ─────────────────────────────

function figureSpecs(ctx: Context): [FigureName, Spec][] {
  const specs: [FigureName, Spec][] = [];
  if (ctx.rows?.length) specs.push(['predicted-vs-actual', predictedVsActual(ctx)]);
  specs.push(['error-by-district', errorByDistrict(ctx)]);
  specs.push(['interval-coverage', coverageByDistrict(ctx)]);
  specs.push(['feature-importance', featureImportance(ctx)]);
  specs.push(['market-index', marketIndexFigure(ctx)]);
  return specs;
}

function predictedVsActual(ctx: Context): Spec {
  const rows = ctx.rows!;
  const frame = logFrame(rows.flatMap((r) => [r.actual, r.predicted]));
  const points = rows.map((r) => ({ actual: r.actual, predicted: r.predicted, source: sourceLabel(ctx, r.source) }));
  const sourceDomain = [...new Set(points.map((p) => p.source))].sort(cmp);
  return {
    ...BASE,
    title: { text: FIGURE_TITLES['predicted-vs-actual'], subtitle: [`${int(rows.length)} held-out listings, model ${ctx.m.version}.`, 'Solid line: predicted = actual; dashed lines: ±20%.'] },
    width: 520,
    height: 520,
    layer: [
      identityLines(frame, 'Actual asking price (USD, log scale)', 'Predicted price (USD, log scale)'),
      {
        data: { values: points },
        mark: { type: 'circle', size: 14, opacity: 0.45, clip: true, aria: false },
        encoding: {
          x: { field: 'actual', type: 'quantitative', scale: frame.scale },
          y: { field: 'predicted', type: 'quantitative', scale: frame.scale },
          color: { field: 'source', type: 'nominal', title: 'Held-out scrape', scale: { domain: sourceDomain, scheme: 'tableau10' } },
        },
      },
    ],
  };
}

function errorByDistrict(ctx: Context): Spec {
  const h = ctx.headline;
  const tested = ctx.districts.filter((d) => (h.districts[d]?.n ?? 0) > 0);
  const label = (d: string) => `${districtName(d)} (n=${int(h.districts[d].n)})`;
  return errorBarsSpec({
    title: FIGURE_TITLES['error-by-district'],
    subtitle: [`Held-out listings, model ${ctx.m.version}. Bars: median absolute percentage error (APE);`, "black tick: our MAPE; red diamond: the reference service's published MAPE."],
    yTitle: 'District (held-out listings)',
    rows: tested.map((d) => ({ label: label(d), medianApe: h.districts[d].medianApe, mape: h.districts[d].mape })),
    order: [...tested].sort((a, b) => h.districts[a].medianApe - h.districts[b].medianApe || cmp(a, b)).map(label),
    compare: {
      measure: 'MAPE, reference service (published)',
      values: tested.filter((d) => REFERENCE_DISTRICTS[d as DistrictId]).map((d) => ({ label: label(d), value: REFERENCE_DISTRICTS[d as DistrictId].mape })),
    },
  });
}

function coverageByDistrict(ctx: Context): Spec {
  const h = ctx.headline;
  const target = ctx.m.intervals.coverage;
  const tested = ctx.districts.filter((d) => (h.districts[d]?.n ?? 0) > 0);
  const values = [coveragePoint(`All districts (n=${int(h.overall.n)})`, h.overall, target), ...tested.map((d) => coveragePoint(`${districtName(d)} (n=${int(h.districts[d].n)})`, h.districts[d], target))];
  return {
    ...BASE,
    title: { text: FIGURE_TITLES['interval-coverage'], subtitle: [`Held-out listings, model ${ctx.m.version}.`, 'Dashed line: the 90% target; shaded: 88–92%; black lines: 95% confidence bounds of each share.'] },
    ...coverageLayers(values, target, 'District (held-out listings)'),
  };
}

function marketIndexFigure(ctx: Context): Spec {
  const index = ctx.m.marketIndex;
  const values = [
    ...index.city.map((p) => ({ series: 'city', period: `${p.period}-15`, ...indexBand(p.logLevel, p.se) })),
    ...ZONE_IDS.flatMap((z) => index.zones[z].map((p) => ({ series: z.replace('_', '-'), period: `${p.period}-15`, index: Math.exp(p.logLevel), low: null, high: null }))),
  ];
  return {
    ...BASE,
    title: { text: FIGURE_TITLES['market-index'], subtitle: [`Hedonic index of price per m², 1 = ${index.newestPeriod}; model ${ctx.m.version}.`, 'City level with its 95% band (grey); zones of districts as lines.'] },
    width: 560,
    height: 300,
    data: { values },
    layer: [
      { transform: [{ filter: "datum.series === 'city'" }], mark: { type: 'errorbar', color: '#888' }, encoding: { x: { field: 'period', type: 'temporal', title: 'Listing month' }, y: { field: 'low', type: 'quantitative', title: 'Index (newest = 1)' }, y2: { field: 'high' } } },
      { mark: { type: 'line', point: true }, encoding: { x: { field: 'period', type: 'temporal' }, y: { field: 'index', type: 'quantitative', scale: { zero: false } }, color: { field: 'series', type: 'nominal', title: null } } },
    ],
  };
}

function featureImportance(ctx: Context): Spec {
  return importanceSpec({
    title: FIGURE_TITLES['feature-importance'],
    subtitle: [`This model (${ctx.m.version}): permutation importance on the held-out listings, share of total.`, 'Reference service: as published (method not published); its month and year of listing', 'are summed under listing period. A missing bar: the feature is not in that model.'],
    series: [{ name: 'this model', colour: PALETTE.ours }, { name: 'reference service', colour: PALETTE.reference }],
    rows: importanceRows(ctx).map((r) => ({ feature: r.feature, values: [r.ours, r.reference] })),
  });
}
