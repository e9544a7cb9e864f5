/**
 * A bank's backtest (issue 31) as a document a model-risk committee can file: what was replayed, in
 * plain words, then the overall, by-month and by-group tables with the model alone and re-anchored
 * on the bank's earlier observations on adjacent rows. Laid out by the valuation report's PDF
 * machinery (./pdf.ts: pdfkit, the embedded DejaVu fonts) and formatted by ./format.ts, so numbers
 * read as in the valuation report. English only: the committee's language of record.
 */
import type { BacktestComparison, BacktestMeasures, BacktestReport } from '../../models/observations';
import type { Block, ReportContent, Section, TableColumn } from './content';
import { formatDate, formatNumber, formatPercent, MISSING } from './format';
import { contentToPdf } from './pdf';

export type BacktestSectionId = 'replayed' | 'overall' | 'by-month' | 'by-group' | 'reading';

/** A backtest() report, with what the service adds when it ran as a job (absent from the CLI's when unknown). */
export type BacktestReportData = BacktestReport & {
  jobId?: string;
  submitted?: number;
  modelVersions?: string[];
  refused?: { count: number };
};

const LANG = 'en' as const;
const percent = (share: number) => formatPercent(share, LANG, 1);
/** A median log residual as the share prices lay above (+) or below (−) the valuations. */
const logShare = (value: number) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${formatPercent(Math.expm1(value), LANG, 1)}` : MISSING);

export function biasText(m: BacktestMeasures): string {
  const ci = m.bias.ci95;
  return ci ? `${logShare(m.bias.median)} [${logShare(ci.low)}, ${logShare(ci.high)}]` : logShare(m.bias.median);
}

export function coverageText(m: BacktestMeasures): string {
  return m.n ? `${percent(m.coverage.share)} [${percent(m.coverage.bounds95.low)}, ${percent(m.coverage.bounds95.high)}]` : MISSING;
}

const COLUMNS: TableColumn[] = [
  { title: '', numeric: false, weight: 2.2 },
  { title: 'Valuation', numeric: false, weight: 1.5 },
  { title: 'n', numeric: true, weight: 0.8 },
  { title: 'Median APE', numeric: true, weight: 1.1 },
  { title: 'Within ±10%', numeric: true, weight: 1.1 },
  { title: 'Median bias [95% CI]', numeric: true, weight: 2.4 },
  { title: '90% coverage [Wilson 95%]', numeric: true, weight: 2.4 },
  { title: 'Median width', numeric: true, weight: 1.1 },
];

function measureRow(label: string, method: string, m: BacktestMeasures): string[] {
  return [label, method, formatNumber(m.n, LANG), percent(m.medianApe), percent(m.within10), biasText(m), coverageText(m), percent(m.medianWidth)];
}

/** Each comparison as two adjacent rows: the model alone, then re-anchored. */
function comparisonTable(title: string, rows: { label: string; comparison: BacktestComparison }[]): Block {
  return {
    type: 'table',
    columns: [{ ...COLUMNS[0], title }, ...COLUMNS.slice(1)],
    rows: rows.flatMap(({ label, comparison }) => [measureRow(label, 'model alone', comparison.modelAlone), measureRow('', 're-anchored', comparison.reanchored)]),
  };
}

/** What was replayed, in plain words: counts, dates, model version, fits. */
export function backtestStatement(report: BacktestReportData): string {
  const kind = report.kind === 'home' ? 'home' : 'vehicle';
  const refused = report.refused?.count ?? (report.submitted !== undefined ? report.submitted - report.observations : 0);
  const submitted = report.submitted !== undefined ? `${formatNumber(report.submitted, LANG)} ${kind} prices were submitted; ${formatNumber(refused, LANG)} could not be scored and are left out. ` : '';
  const period = report.from && report.to ? `observed from ${formatDate(report.from, LANG)} to ${formatDate(report.to, LANG)}` : 'none observed';
  const versions = report.modelVersions?.length ? `model version ${report.modelVersions.join(', ')}` : 'the model in service';
  return `${submitted}${formatNumber(report.observations, LANG)} observed prices, ${period}, were each valued at their own date with ${versions}, `
    + `then re-anchored on the organisation's observations from before that date only (the observation model the service fits), in ${formatNumber(report.fits, LANG)} fits: `
    + 'consecutive days are replayed together in blocks, each adjusted on what came before the block, so no price ever adjusts its own valuation.';
}

const READING = 'APE: |estimate − price| / price. Bias: the median of log(price / estimate), shown as the share prices lay above (+) or below (−) the valuations, with a distribution-free 95% interval (none below 6 prices). Coverage: the share of prices inside the 90% interval, with Wilson 95% bounds. Width: the median of (high − low) / estimate.';

export function backtestContent(report: BacktestReportData): ReportContent {
  const sections: Section[] = [
    { id: 'replayed', title: 'What was replayed', blocks: [{ type: 'text', tone: 'body', text: backtestStatement(report) }] },
    { id: 'overall', title: 'Overall', blocks: [comparisonTable('All', [{ label: 'All', comparison: report.overall }])] },
    { id: 'by-month', title: 'By month', blocks: [comparisonTable('Month', report.byMonth.map((m) => ({ label: m.month, comparison: m })))] },
    {
      id: 'by-group',
      title: 'By group',
      blocks: [...new Set(report.byGroup.map((g) => g.level))].flatMap((level): Block[] => [
        { type: 'subheading', text: `By ${level}` },
        comparisonTable(level, report.byGroup.filter((g) => g.level === level).map((g) => ({ label: g.group.split(' › ').slice(1).join(' › '), comparison: g }))),
      ]),
    },
    { id: 'reading', title: 'How to read the tables', blocks: [{ type: 'text', tone: 'note', text: READING }] },
  ];
  return {
    lang: LANG,
    title: `Backtest of ${report.kind} valuations against observed prices`,
    subtitle: 'The model in service, alone and re-anchored on earlier observations, point in time',
    header: [
      ...(report.jobId ? [{ label: 'Backtest', value: report.jobId }] : []),
      { label: 'Observations replayed', value: formatNumber(report.observations, LANG) },
      { label: 'Observed', value: report.from && report.to ? `${formatDate(report.from, LANG)} – ${formatDate(report.to, LANG)}` : MISSING },
      { label: 'Model version', value: report.modelVersions?.join(', ') || MISSING },
      { label: 'Fits', value: formatNumber(report.fits, LANG) },
    ],
    sections,
    footer: `Backtest${report.jobId ? ` ${report.jobId}` : ''} · ${report.kind}`,
    page: (n, total) => `page ${n} of ${total}`,
  };
}

/** The A4 PDF. Its dates are the data's (the last observation), so the same report renders to the same bytes. */
export function renderBacktestPdf(report: BacktestReportData): Promise<Buffer> {
  const content = backtestContent(report);
  const created = new Date(report.to ?? 0);
  return contentToPdf(content, { creationDate: Number.isNaN(created.getTime()) ? new Date(0) : created, subject: content.title });
}
