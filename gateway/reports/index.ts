/**
 * The credit-committee valuation report (issue 19): a pure renderer. The caller assembles a
 * ValuationReportData; these functions read nothing else (no clock, no network, no files but the
 * bundled fonts), so the same data and language always give the same document.
 */
import { reportContent } from './content';
import { contentToHtml } from './html';
import { contentToPdf } from './pdf';
import type { ReportLanguage, ValuationReportData } from './report-data';

export type * from './report-data';
export { REPORT_LANGUAGES } from './report-data';
export { REPORT_CSP } from './html';

/** A self-contained HTML document (inline CSS and SVG, no scripts, no external requests). */
export function renderReportHtml(data: ValuationReportData, lang: ReportLanguage): string {
  return contentToHtml(reportContent(data, lang));
}

/** An A4 PDF with DejaVu Sans embedded (Cyrillic and Uzbek Latin). */
export async function renderReportPdf(data: ValuationReportData, lang: ReportLanguage): Promise<Buffer> {
  const content = reportContent(data, lang);
  const created = new Date(data.createdAt);
  return contentToPdf(content, {
    creationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    subject: `${content.subtitle} · ${data.valuationId}`,
  });
}
