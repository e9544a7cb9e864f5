/** A PDF report to render, as plain data a worker thread can be sent (./render-pool.ts), and its renderer. */
import { renderBacktestPdf, type BacktestReportData } from './backtest-content';
import { renderReportPdf } from './index';
import type { ReportLanguage, ValuationReportData } from './report-data';

/** What a worker is asked to render. */
export type PdfTask =
  | { report: 'valuation'; data: ValuationReportData; lang: ReportLanguage }
  | { report: 'backtest'; data: BacktestReportData; lang: ReportLanguage };

/** The renderer a task names, in this thread. */
export function renderPdf(task: PdfTask): Promise<Buffer> {
  return task.report === 'valuation' ? renderReportPdf(task.data, task.lang) : renderBacktestPdf(task.data, task.lang);
}
