/**
 * A bank's backtest (issue 31) as a document a model-risk committee can file: what was replayed, in
 * plain words, then the overall, by-month and by-group tables with the model alone and re-anchored
 * on the bank's earlier observations on adjacent rows. Laid out by the valuation report's PDF
 * machinery (./pdf.ts: pdfkit, the embedded DejaVu fonts) and formatted by ./format.ts, so numbers
 * read as in the valuation report, in English, Russian or Uzbek (./backtest-i18n.ts: i18next, as ./i18n.ts).
 */
import type { BacktestComparison, BacktestMeasures, BacktestReport } from '../../models/observations';
import { backtestDictionary, type BacktestDictionary, type BacktestSectionId } from './backtest-i18n';
import type { Block, ReportContent, Section, TableColumn } from './content';
import { formatDate, formatNumber, formatPercent, MISSING } from './format';
import { dictionary } from './i18n';
import { contentToPdf } from './pdf';
import type { ReportLanguage } from './report-data';

export type { BacktestSectionId } from './backtest-i18n';

/** A backtest() report, with what the service adds when it ran as a job (absent from the CLI's when unknown). */
export type BacktestReportData = BacktestReport & {
  jobId?: string;
  submitted?: number;
  modelVersions?: string[];
  refused?: { count: number };
};

const percent = (share: number, lang: ReportLanguage) => formatPercent(share, lang, 1);
/** A median log residual as the share prices lay above (+) or below (−) the valuations. */
const logShare = (value: number, lang: ReportLanguage) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${formatPercent(Math.expm1(value), lang, 1)}` : MISSING);

export function biasText(m: BacktestMeasures, lang: ReportLanguage = 'en'): string {
  const ci = m.bias.ci95;
  return ci ? `${logShare(m.bias.median, lang)} [${logShare(ci.low, lang)}, ${logShare(ci.high, lang)}]` : logShare(m.bias.median, lang);
}

export function coverageText(m: BacktestMeasures, lang: ReportLanguage = 'en'): string {
  return m.n ? `${percent(m.coverage.share, lang)} [${percent(m.coverage.bounds95.low, lang)}, ${percent(m.coverage.bounds95.high, lang)}]` : MISSING;
}

function columns(t: BacktestDictionary, first: string): TableColumn[] {
  const c = t.columns;
  return [
    // Wide enough for "с перепривязкой" and "qayta bogʻlangan" without breaking the word.
    { title: first, numeric: false, weight: 1.8 },
    { title: c.valuation, numeric: false, weight: 1.9 },
    { title: c.n, numeric: true, weight: 0.8 },
    { title: c.medianApe, numeric: true, weight: 1.1 },
    { title: c.within10, numeric: true, weight: 1.1 },
    { title: c.bias, numeric: true, weight: 2.4 },
    { title: c.coverage, numeric: true, weight: 2.4 },
    { title: c.width, numeric: true, weight: 1.1 },
    { title: c.withinFsd, numeric: true, weight: 1.1 },
  ];
}

function measureRow(label: string, method: string, m: BacktestMeasures, lang: ReportLanguage): string[] {
  return [label, method, formatNumber(m.n, lang), percent(m.medianApe, lang), percent(m.within10, lang), biasText(m, lang), coverageText(m, lang), percent(m.medianWidth, lang), m.n ? percent(m.withinFsd, lang) : MISSING];
}

/** Each comparison as two adjacent rows: the model alone, then re-anchored. */
function comparisonTable(title: string, rows: { label: string; comparison: BacktestComparison }[], lang: ReportLanguage): Block {
  const t = backtestDictionary(lang);
  return {
    type: 'table',
    columns: columns(t, title),
    rows: rows.flatMap(({ label, comparison }) => [measureRow(label, t.modelAlone, comparison.modelAlone, lang), measureRow('', t.reanchored, comparison.reanchored, lang)]),
  };
}

const kindOf = (report: BacktestReportData) => (report.kind === 'home' ? 'home' : 'vehicle');
const levelName = (t: BacktestDictionary, level: string) => t.levels[level] ?? level;

/** What was replayed, in plain words: counts, dates, model version, fits. */
export function backtestStatement(report: BacktestReportData, lang: ReportLanguage = 'en'): string {
  const t = backtestDictionary(lang);
  const refused = report.refused?.count ?? (report.submitted !== undefined ? report.submitted - report.observations : 0);
  const submitted = report.submitted !== undefined ? t.submitted(report.submitted, kindOf(report), refused) : '';
  const period = report.from && report.to ? t.period(report.from, report.to) : t.noneObserved;
  const versions = report.modelVersions?.length ? t.versions(report.modelVersions.join(', ')) : t.inService;
  return `${submitted}${t.replayed(report.observations, period, versions, report.fits)}`;
}

export function backtestContent(report: BacktestReportData, lang: ReportLanguage = 'en'): ReportContent {
  const t = backtestDictionary(lang);
  const sections: Section[] = [
    { id: 'replayed', title: t.sections.replayed, blocks: [{ type: 'text', tone: 'body', text: backtestStatement(report, lang) }] },
    { id: 'overall', title: t.sections.overall, blocks: [comparisonTable(t.all, [{ label: t.all, comparison: report.overall }], lang)] },
    { id: 'by-month', title: t.sections['by-month'], blocks: [comparisonTable(t.month, report.byMonth.map((m) => ({ label: m.month, comparison: m })), lang)] },
    {
      id: 'by-group',
      title: t.sections['by-group'],
      blocks: [...new Set(report.byGroup.map((g) => g.level))].flatMap((level): Block[] => [
        { type: 'subheading', text: t.byLevel(levelName(t, level)) },
        comparisonTable(levelName(t, level), report.byGroup.filter((g) => g.level === level).map((g) => ({ label: g.group.split(' › ').slice(1).join(' › '), comparison: g })), lang),
      ]),
    },
    {
      id: 'by-confidence',
      title: t.sections['by-confidence'],
      blocks: [comparisonTable(t.sections['by-confidence'], report.byConfidence.map((c) => ({ label: t.confidence[c.confidence] ?? c.confidence, comparison: c })), lang)],
    },
    { id: 'reading', title: t.sections.reading, blocks: [{ type: 'text', tone: 'note', text: t.reading }] },
  ];
  const h = t.header;
  return {
    lang,
    title: t.title[kindOf(report)],
    subtitle: t.subtitle,
    header: [
      ...(report.jobId ? [{ label: h.backtest, value: report.jobId }] : []),
      { label: h.observations, value: formatNumber(report.observations, lang) },
      { label: h.observed, value: report.from && report.to ? `${formatDate(report.from, lang)} – ${formatDate(report.to, lang)}` : MISSING },
      { label: h.modelVersion, value: report.modelVersions?.join(', ') || MISSING },
      { label: h.fits, value: formatNumber(report.fits, lang) },
    ],
    sections,
    footer: t.footer(report.jobId ?? null, kindOf(report)),
    // The valuation report's page numbering, in the same words.
    page: dictionary(lang).page,
  };
}

/** The A4 PDF in `lang`. Its dates are the data's (the last observation), so the same report renders to the same bytes. */
export function renderBacktestPdf(report: BacktestReportData, lang: ReportLanguage = 'en'): Promise<Buffer> {
  const content = backtestContent(report, lang);
  const created = new Date(report.to ?? 0);
  return contentToPdf(content, { creationDate: Number.isNaN(created.getTime()) ? new Date(0) : created, subject: content.title });
}
