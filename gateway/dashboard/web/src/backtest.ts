/**
 * The backtest panel (issue 31): the organisation's backtests among its recent jobs, or one by id;
 * for a finished one the overall and by-month tables (the model alone beside the valuations
 * re-anchored on earlier prices), a plot of median bias and median APE by month, and its PDF and
 * CSV files; for one still running, its progress, followed live until it ends. vega is loaded the
 * first time a report is drawn, as the other panels load it.
 */
import type { PanelMessages } from './accuracy';
import { ApiError, fetchBacktest, listBacktests, type Backtest, type BacktestComparison, type BacktestMeasures, type BacktestReport } from './api';
import { backtestMonthsSpec, biasShare } from './backtest-specs';
import { elements, textCell, textElement } from './dom';
import { downloadLink } from './downloads';
import type { Plots } from './plots';
import { ProgressWatcher } from './progress';

const ENDED = new Set(['completed', 'failed', 'cancelled']);
const MEASURE_COLUMNS = ['Valuation', 'n', 'Median APE', 'Within ±10%', 'Median bias', '90% coverage', 'Median width'];

const finite = (format: (x: number) => string) => (x: number) => (Number.isFinite(x) ? format(x) : '—');
const percent = finite((x) => `${(x * 100).toFixed(1)}%`);
const signedPercent = finite((x) => `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(1)}%`);
const kindName = (kind: Backtest['kind']) => (kind === 'HOME' ? 'homes' : 'vehicles');

export class BacktestPanel {
  private readonly ui = elements({
    section: 'backtest-section', none: 'backtest-none', list: 'backtest-list', jobRows: 'backtest-job-rows', report: 'backtest-report', reportId: 'backtest-report-id',
    status: 'backtest-status', result: 'backtest-result', summary: 'backtest-summary', files: 'backtest-files', plot: 'backtest-plot',
    overallHead: 'backtest-overall-head', overallRows: 'backtest-overall-rows', monthsHead: 'backtest-months-head', monthRows: 'backtest-month-rows',
    panel: ['backtest-panel', HTMLDetailsElement], form: ['backtest-form', HTMLFormElement], id: ['backtest-id', HTMLInputElement], refresh: ['backtest-refresh', HTMLButtonElement],
  });
  private apiKey: string | null = null;
  /** Bumped by every open and by sign-out: an answer to an older request is dropped. */
  private generation = 0;
  private listed = false;
  private watcher: ProgressWatcher | null = null;
  private plots: Plots | null = null;

  constructor(private readonly messages: PanelMessages) {
    this.ui.panel.addEventListener('toggle', () => {
      if (this.ui.panel.open && !this.listed) void this.loadList();
    });
    this.ui.refresh.addEventListener('click', () => void this.loadList());
    this.ui.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const id = this.ui.id.value.trim();
      if (id) void this.open(id);
    });
  }

  /** Shows the panel (closed) for the organisation of `key`; it lists its backtests when opened. */
  signIn(key: string): void {
    this.apiKey = key;
    this.listed = false;
    this.ui.section.hidden = false;
    if (this.ui.panel.open) void this.loadList();
  }

  signOut(): void {
    this.apiKey = null;
    this.generation++;
    this.listed = false;
    void this.watcher?.close();
    this.watcher = null;
    this.ui.panel.open = false;
    this.ui.section.hidden = true;
    this.ui.jobRows.replaceChildren();
    this.ui.list.hidden = true;
    this.ui.none.hidden = true;
    this.clearReport();
  }

  private async loadList(): Promise<void> {
    const key = this.apiKey;
    if (!key) return;
    this.ui.refresh.disabled = true;
    try {
      const backtests = await listBacktests(key);
      if (key !== this.apiKey) return;
      this.ui.jobRows.replaceChildren(...backtests.map((b) => this.jobRow(b)));
      this.ui.list.hidden = backtests.length === 0;
      this.ui.none.hidden = backtests.length > 0;
      this.listed = true;
    } catch (error) {
      this.messages.showError(error);
    } finally {
      this.ui.refresh.disabled = false;
    }
  }

  private jobRow(backtest: Backtest): HTMLTableRowElement {
    const { job } = backtest;
    const row = document.createElement('tr');
    row.dataset.testid = 'backtest-job';
    row.dataset.backtestId = backtest.id;
    const open = textElement('button', 'Open', 'backtest-job-open');
    open.type = 'button';
    open.addEventListener('click', () => void this.open(backtest.id));
    const actions = textCell('', 'backtest-job-actions');
    actions.append(open);
    row.append(
      textCell(backtest.id, 'backtest-job-id', 'th'),
      textCell(kindName(backtest.kind), 'backtest-job-kind'),
      textCell(job.status, 'backtest-job-status'),
      textCell(job.failed ? `${job.total} (${job.failed} refused)` : String(job.total), 'backtest-job-total'),
      textCell(job.createdAt ? job.createdAt.slice(0, 16).replace('T', ' ') : '—', 'backtest-job-created'),
      actions,
    );
    return row;
  }

  private clearReport(): void {
    this.plots?.finalize();
    this.ui.plot.replaceChildren();
    for (const part of [this.ui.overallHead, this.ui.overallRows, this.ui.monthsHead, this.ui.monthRows, this.ui.files]) part.replaceChildren();
    this.ui.report.hidden = true;
    this.ui.result.hidden = true;
  }

  /** One backtest: its report once completed, else its progress, followed until it ends. */
  private async open(id: string): Promise<void> {
    const key = this.apiKey;
    if (!key) return;
    const generation = ++this.generation;
    try {
      const backtest = await fetchBacktest(key, id);
      if (generation !== this.generation) return;
      if (!backtest) throw new ApiError('NOT_FOUND', `No backtest ${id} of your organisation`);
      this.clearReport();
      this.ui.reportId.textContent = backtest.id;
      this.ui.report.dataset.backtestId = backtest.id;
      this.ui.report.hidden = false;
      this.showStatus(backtest);
      if (backtest.report) await this.showReport(backtest, backtest.report, generation);
      else if (!ENDED.has(backtest.job.status)) this.follow(key, backtest.id, generation);
      this.messages.clearMessage();
    } catch (error) {
      if (generation === this.generation) this.messages.showError(error);
    }
  }

  private showStatus({ job, kind }: Backtest): void {
    const refused = job.failed ? `, ${job.failed} refused` : '';
    this.ui.status.textContent = `${job.status}: ${job.processed} of ${job.total} prices of ${kindName(kind)} scored${refused}${job.error ? `. ${job.error}` : ''}`;
  }

  /** Live progress of a running backtest; its report is read once the job has ended. */
  private follow(key: string, id: string, generation: number): void {
    this.watcher ??= new ProgressWatcher(key);
    this.watcher.watch(
      id,
      (event) => {
        if (generation !== this.generation) return;
        this.ui.status.textContent = `${event.status}: ${event.processed} of ${event.total} prices scored`;
        if (event.final) void this.open(id);
      },
      (error) => this.messages.showError(error),
    );
  }

  private async showReport(backtest: Backtest, report: BacktestReport, generation: number): Promise<void> {
    const period = report.from && report.to ? `observed ${report.from} to ${report.to}` : 'none observed';
    const versions = report.modelVersions?.length ? `, model ${report.modelVersions.join(', ')}` : '';
    this.ui.summary.textContent = `${report.observations} prices of ${kindName(backtest.kind)} replayed, ${period}${versions}, in ${report.fits} fits.`;
    this.ui.files.replaceChildren(...this.fileLinks(backtest.id));
    this.ui.overallHead.replaceChildren(headRow(''));
    this.ui.overallRows.replaceChildren(...comparisonRows('All', report.overall));
    this.ui.monthsHead.replaceChildren(headRow('Month'));
    this.ui.monthRows.replaceChildren(...report.byMonth.flatMap((m) => comparisonRows(m.month, m)));
    this.ui.result.hidden = false;
    const { Plots } = await import('./plots');
    if (generation !== this.generation) return;
    this.plots ??= new Plots();
    await this.plots.draw(this.ui.plot, backtestMonthsSpec(report.byMonth));
  }

  private fileLinks(id: string): (HTMLAnchorElement | string)[] {
    const base = `api/backtest/${encodeURIComponent(id)}`;
    const lang = document.documentElement.lang || 'en';
    const downloads = { key: () => this.apiKey, showError: (error: unknown) => this.messages.showError(error) };
    const links = [
      downloadLink('PDF', `${base}?format=pdf&lang=${encodeURIComponent(lang)}`, `backtest-${id}.pdf`, 'backtest-file', downloads),
      downloadLink('CSV', `${base}?format=csv`, `backtest-${id}.csv`, 'backtest-file', downloads),
      downloadLink('Summary CSV', `${base}?format=summary-csv`, `backtest-${id}-summary.csv`, 'backtest-file', downloads),
    ];
    return ['Download: ', ...links.flatMap((link, i) => (i > 0 ? [' · ', link] : [link]))];
  }
}

function headRow(first: string): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.append(...[first, ...MEASURE_COLUMNS].map((title) => Object.assign(document.createElement('th'), { scope: 'col', textContent: title })));
  return row;
}

/** A comparison as two adjacent rows, as the PDF prints it: the model alone, then re-anchored. */
function comparisonRows(label: string, comparison: BacktestComparison): HTMLTableRowElement[] {
  const series: [string, BacktestMeasures][] = [['model alone', comparison.modelAlone], ['re-anchored', comparison.reanchored]];
  return series.map(([name, measures], i) => {
    const row = document.createElement('tr');
    row.dataset.testid = 'backtest-row';
    row.dataset.group = label;
    row.dataset.series = name;
    if (i === 0) row.classList.add('first');
    row.append(
      textCell(i === 0 ? label : '', 'label', 'th'),
      textCell(name, 'series'),
      textCell(String(measures.n), 'n'),
      textCell(percent(measures.medianApe), 'median-ape'),
      textCell(percent(measures.within10), 'within10'),
      textCell(signedPercent(biasShare(measures)), 'bias'),
      textCell(measures.n ? percent(measures.coverage.share) : '—', 'coverage'),
      textCell(percent(measures.medianWidth), 'width'),
    );
    return row;
  });
}
