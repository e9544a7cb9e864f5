/**
 * The portfolio view (issue 19) of a completed job: its results read as a stream (NDJSON, line by
 * line, aggregated as they come: ./portfolio-data.ts), then a map of the placed items over the 12
 * district outlines coloured by price per m² or by location index, the histogram of values, the
 * homes by confidence level, the items the anomaly checks flagged, totals by district, and every
 * item a page at a time (batchResults). Each row links the valuation's record and report when the
 * results name the valuation (home.valuation_id). Every text comes from the API and is set as text.
 */
import { fetchDistrictOutlines, fetchResultPage, openResults, type DistrictOutlines, type Job, type ResultLine } from './api';
import { elements, textCell, textElement } from './dom';
import { downloadLink } from './downloads';
import { readNdjson } from './ndjson';
import type { PanelMessages } from './accuracy';
import { FLAGGED_ROW_CAP, MAP_POINT_CAP, PortfolioAggregate, histogram, valuationIdOf, type DistrictTotals, type FlaggedItem, type PortfolioSummary } from './portfolio-data';
import { confidenceSpec, histogramSpec, mapSpec, placedAt, type ColourBy, type ValueMeasure } from './portfolio-specs';
import { flagText } from './flags';
import type { Plots } from './plots';

/** Items per page of the full items table. */
export const ITEMS_PAGE_SIZE = 50;
/** Above this many points the map is drawn on a canvas (without counts in the markers): thousands of SVG elements slow the page down. */
export const SVG_POINT_LIMIT = 5_000;
/** Least time between two updates of the reading progress. */
const PROGRESS_EVERY_MS = 200;

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const count = (n: number, one: string, many: string) => `${whole.format(n)} ${n === 1 ? one : many}`;
const money = (totals: ReadonlyMap<string, number>) =>
  totals.size === 0 ? '—' : [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => `${whole.format(sum)} ${currency}`).join(' + ');

interface HomeLike {
  estimate?: number;
  currency?: string;
  price_per_m2?: number | null;
  confidence?: { level?: string };
  anomaly?: { flags?: string[] };
}
interface ItemLike {
  address?: string;
  geocode?: { district?: string };
  location_index?: { composite?: number | null };
  home?: HomeLike | null;
}

export class PortfolioView {
  private readonly ui = elements({
    section: 'portfolio-section', job: 'portfolio-job', name: 'portfolio-name', progress: 'portfolio-progress', report: 'portfolio-report', summary: 'portfolio-summary',
    map: 'portfolio-map', mapNote: 'portfolio-map-note', histogram: 'portfolio-histogram', histogramEmpty: 'portfolio-histogram-empty', confidence: 'portfolio-confidence',
    flaggedNote: 'portfolio-flagged-note', flaggedTable: 'portfolio-flagged', flaggedRows: 'portfolio-flagged-rows', flagLegend: 'portfolio-flag-legend', districtRows: 'portfolio-district-rows',
    range: 'portfolio-range', itemRows: 'portfolio-item-rows',
    close: ['portfolio-close', HTMLButtonElement], previous: ['portfolio-previous', HTMLButtonElement], next: ['portfolio-next', HTMLButtonElement],
    colour: ['portfolio-colour', HTMLSelectElement], measure: ['portfolio-measure', HTMLSelectElement],
  });
  private apiKey: string | null = null;
  private job: Job | null = null;
  /** Bumped by every open, close and sign-out: work for an older one stops. */
  private generation = 0;
  private abort: AbortController | null = null;
  private plots: Plots | null = null;
  private shown: { summary: PortfolioSummary; outlines: DistrictOutlines } | null = null;
  private offset = 0;
  private pageGeneration = 0;

  constructor(private readonly messages: PanelMessages) {
    this.ui.close.addEventListener('click', () => this.close());
    this.ui.colour.addEventListener('change', () => void this.redraw(() => this.drawMap()));
    this.ui.measure.addEventListener('change', () => void this.redraw(() => this.drawHistogram()));
    this.ui.previous.addEventListener('click', () => void this.showPage(Math.max(0, this.offset - ITEMS_PAGE_SIZE)));
    this.ui.next.addEventListener('click', () => void this.showPage(this.offset + ITEMS_PAGE_SIZE));
    for (const form of [this.ui.colour.form, this.ui.measure.form]) form?.addEventListener('submit', (event) => event.preventDefault());
  }

  signIn(key: string): void {
    this.apiKey = key;
  }

  signOut(): void {
    this.apiKey = null;
    this.close();
  }

  /** The job whose portfolio is shown, if any. */
  get jobId(): string | null {
    return this.job?.id ?? null;
  }

  close(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = null;
    this.job = null;
    this.clear();
    this.ui.section.hidden = true;
  }

  private clear(): void {
    this.plots?.finalize();
    this.shown = null;
    for (const container of [this.ui.map, this.ui.histogram, this.ui.confidence]) container.replaceChildren();
    for (const rows of [this.ui.flaggedRows, this.ui.flagLegend, this.ui.districtRows, this.ui.itemRows]) rows.replaceChildren();
    this.ui.report.hidden = true;
    this.ui.progress.hidden = true;
    this.ui.section.dataset.state = 'idle';
  }

  /** Reads the completed job's results and shows its portfolio (a second open of another job replaces it). */
  async open(job: Job, fileName?: string): Promise<void> {
    const key = this.apiKey;
    if (!key) return;
    this.close();
    const generation = this.generation;
    const abort = new AbortController();
    this.abort = abort;
    this.job = job;
    this.ui.job.textContent = job.id;
    this.ui.name.textContent = fileName ?? 'No file name';
    this.ui.section.hidden = false;
    this.ui.section.dataset.state = 'loading';
    this.showProgress('Reading the results…');
    this.ui.section.scrollIntoView({ block: 'start' });
    try {
      const [outlines, plotsModule, summary] = await Promise.all([
        fetchDistrictOutlines(abort.signal),
        import('./plots'),
        this.aggregate(key, job, abort.signal, generation),
      ]);
      if (generation !== this.generation) return;
      this.plots ??= new plotsModule.Plots();
      this.shown = { summary, outlines };
      this.showTables(summary);
      this.ui.report.hidden = false;
      this.showProgress('Drawing…');
      await Promise.all([this.drawMap(), this.drawHistogram(), this.drawConfidence(), this.showPage(0)]);
      if (generation !== this.generation) return;
      this.ui.progress.hidden = true;
      this.ui.section.dataset.state = 'ready';
    } catch (error) {
      if (generation !== this.generation) return;
      abort.abort();
      this.clear();
      this.ui.section.dataset.state = 'error';
      this.messages.showError(error);
    }
  }

  /** The results stream, line by line, into an aggregate; the progress says how far it is. */
  private async aggregate(key: string, job: Job, signal: AbortSignal, generation: number): Promise<PortfolioSummary> {
    const response = await openResults(key, job.id, signal);
    const total = Number(response.headers.get('batch-total')) || job.total;
    const aggregate = new PortfolioAggregate();
    let reported = 0;
    const report = () => {
      const now = performance.now();
      if (generation !== this.generation || now - reported < PROGRESS_EVERY_MS) return;
      reported = now;
      this.showProgress(`Reading the results: ${whole.format(aggregate.count)} of ${count(total, 'item', 'items')}…`);
    };
    if (response.body) await readNdjson<ResultLine>(response.body, (line) => aggregate.add(line), report);
    return aggregate.summary();
  }

  private showProgress(text: string): void {
    this.ui.progress.textContent = text;
    this.ui.progress.hidden = false;
  }

  private async redraw(draw: () => Promise<void>): Promise<void> {
    if (!this.shown) return;
    const generation = this.generation;
    try {
      await draw();
    } catch (error) {
      if (generation === this.generation) this.messages.showError(error);
    }
  }

  private currency(summary: PortfolioSummary): string {
    return summary.currencies.length === 1 ? summary.currencies[0] : summary.currencies.length === 0 ? 'USD' : summary.currencies.join('/');
  }

  private async drawMap(): Promise<void> {
    if (!this.shown || !this.plots) return;
    const { summary, outlines } = this.shown;
    const colourBy = this.ui.colour.value as ColourBy;
    const canvas = summary.sites.length > SVG_POINT_LIMIT;
    this.ui.map.dataset.points = String(summary.sites.length);
    this.ui.map.dataset.items = String(summary.mappedItems);
    this.ui.map.dataset.renderer = canvas ? 'canvas' : 'svg';
    this.ui.map.dataset.colourBy = colourBy;
    const markers = canvas
      ? "A marker's size grows with the items at its point."
      : "A marker's size, and the number in it, count the items at its point; its shape says how precisely they were placed.";
    this.ui.mapNote.textContent = [mapCoverage(summary), markers, colourBy === 'ppm2' ? 'Grey: no home valued there.' : 'Grey: no location index there.', outlines.attribution ?? '']
      .join(' ')
      .trim();
    await this.plots.drawVega(this.ui.map, mapSpec(outlines, summary.sites, { colourBy, currency: this.currency(summary), describe: !canvas }), { renderer: canvas ? 'canvas' : 'svg' });
  }

  private async drawHistogram(): Promise<void> {
    if (!this.shown || !this.plots) return;
    const { summary } = this.shown;
    const measure = this.ui.measure.value as ValueMeasure;
    const values = measure === 'ppm2' ? summary.pricesPerM2 : summary.estimates;
    this.ui.histogramEmpty.hidden = values.length > 0;
    this.ui.histogram.hidden = values.length === 0;
    this.ui.histogram.dataset.measure = measure;
    if (values.length === 0) return this.ui.histogram.replaceChildren();
    await this.plots.draw(this.ui.histogram, histogramSpec(histogram(values), measure, this.currency(summary)));
  }

  private async drawConfidence(): Promise<void> {
    if (!this.shown || !this.plots) return;
    await this.plots.draw(this.ui.confidence, confidenceSpec(this.shown.summary.confidence));
  }

  // ---- tables ----

  private showTables(summary: PortfolioSummary): void {
    const addressOnly = summary.placed - summary.valuedHomes;
    this.ui.summary.textContent =
      `${count(summary.items, 'item', 'items')}: ${whole.format(summary.succeeded)} placed and scored ` +
      `(${count(summary.valuedHomes, 'home', 'homes')} valued, ${whole.format(Math.max(0, addressOnly))} address only), ${whole.format(summary.failed)} failed. ` +
      `${count(summary.flaggedCount, 'item', 'items')} flagged by the anomaly checks.`;

    this.ui.flaggedTable.hidden = summary.flaggedCount === 0;
    this.ui.flaggedNote.textContent =
      summary.flaggedCount === 0
        ? 'No valued home was flagged.'
        : summary.flaggedCount > summary.flagged.length
          ? `The first ${whole.format(FLAGGED_ROW_CAP)} of ${count(summary.flaggedCount, 'flagged item', 'flagged items')}; the items table below and the results download have them all.`
          : `${count(summary.flaggedCount, 'item', 'items')} with anomaly flags: reasons to look twice at the valuation.`;
    this.ui.flaggedRows.replaceChildren(...summary.flagged.map((item) => this.flaggedRow(item)));
    this.ui.flagLegend.replaceChildren(...[...summary.flagCounts].map(([code, n]) => flagLegendEntry(code, n)));
    this.ui.flagLegend.hidden = summary.flagCounts.size === 0;
    this.ui.districtRows.replaceChildren(...summary.districts.map((d) => districtRow(d, false)), ...(summary.districts.length > 1 ? [districtRow(summary.overall, true)] : []));
  }

  private flaggedRow(item: FlaggedItem): HTMLTableRowElement {
    const row = document.createElement('tr');
    row.dataset.testid = 'flagged-row';
    row.dataset.index = String(item.index);
    row.append(
      textCell(itemNumber(item.index), 'item-index', 'th'),
      textCell(item.address, 'item-address'),
      textCell(item.district, 'item-district'),
      flagsCell(item.flags),
      textCell(item.estimate === null ? '—' : `${whole.format(item.estimate)} ${item.currency}`, 'item-estimate'),
      this.linksCell(item.valuationId),
    );
    return row;
  }

  /** One page of the full items table, read from batchResults (so a million items never sit in the page). */
  private async showPage(offset: number): Promise<void> {
    const key = this.apiKey;
    const job = this.job;
    if (!key || !job) return;
    const generation = this.generation;
    const page = ++this.pageGeneration;
    this.ui.previous.disabled = true;
    this.ui.next.disabled = true;
    try {
      const { items, nextOffset } = await fetchResultPage(key, job.id, offset, ITEMS_PAGE_SIZE, this.abort?.signal);
      if (generation !== this.generation || page !== this.pageGeneration) return;
      this.offset = offset;
      const total = this.shown?.summary.items ?? job.total;
      this.ui.range.textContent = items.length === 0 ? `No items (of ${whole.format(total)})` : `Items ${whole.format(offset + 1)}–${whole.format(offset + items.length)} of ${whole.format(total)}`;
      this.ui.itemRows.replaceChildren(...items.map((item) => this.itemRow(item)));
      this.ui.previous.disabled = offset === 0;
      this.ui.next.disabled = nextOffset === null;
    } catch (error) {
      if (generation !== this.generation || page !== this.pageGeneration) return;
      this.ui.previous.disabled = this.offset === 0;
      this.ui.next.disabled = false;
      if ((error as Error).name !== 'AbortError') this.messages.showError(error);
    }
  }

  private itemRow(line: ResultLine): HTMLTableRowElement {
    const row = document.createElement('tr');
    row.dataset.testid = 'item-row';
    row.dataset.index = String(line.index);
    row.dataset.ok = String(line.ok);
    const index = textCell(itemNumber(line.index), 'item-index', 'th');
    if (!line.ok) {
      row.classList.add('failed');
      const error = textCell(line.error ? `${line.error.code}: ${line.error.message}` : 'Failed', 'item-error');
      error.colSpan = 8;
      row.append(index, error);
      return row;
    }
    const result = (line.result ?? {}) as ItemLike;
    const home = result.home ?? null;
    const composite = result.location_index?.composite;
    row.append(
      index,
      textCell(result.address ?? '', 'item-address'),
      textCell(result.geocode?.district ?? '', 'item-district'),
      textCell(typeof home?.estimate === 'number' ? `${whole.format(home.estimate)} ${home.currency ?? ''}`.trim() : '—', 'item-estimate'),
      textCell(typeof home?.price_per_m2 === 'number' ? whole.format(home.price_per_m2) : '—', 'item-ppm2'),
      textCell(home?.confidence?.level ?? '—', 'item-confidence'),
      textCell(typeof composite === 'number' ? oneDecimal.format(composite) : '—', 'item-composite'),
      flagsCell(Array.isArray(home?.anomaly?.flags) ? home.anomaly.flags.map(String) : []),
      this.linksCell(valuationIdOf(home)),
    );
    return row;
  }

  /** The valuation's record and its report as links, fetched with the key and saved; a dash without a valuation id. */
  private linksCell(valuationId: string | null): HTMLTableCellElement {
    const cell = textCell('', 'item-links');
    if (!valuationId) {
      cell.textContent = '—';
      return cell;
    }
    const base = `api/valuations/${encodeURIComponent(valuationId)}`;
    const lang = document.documentElement.lang || 'en';
    const links = [
      { label: 'Record', path: base, file: `${valuationId}.json` },
      { label: 'PDF', path: `${base}/report?format=pdf&lang=${encodeURIComponent(lang)}`, file: `${valuationId}.pdf` },
      { label: 'HTML', path: `${base}/report?format=html&lang=${encodeURIComponent(lang)}`, file: `${valuationId}.html` },
    ];
    links.forEach(({ label, path, file }, i) => {
      if (i > 0) cell.append(' · ');
      cell.append(downloadLink(label, path, file, 'valuation-link', { key: () => this.apiKey, showError: (error) => this.messages.showError(error) }));
    });
    return cell;
  }
}

/** What the page shows for an item's index (the API's, from 0): its number as a person counts, from 1. */
const itemNumber = (index: number) => whole.format(index + 1);

/** Flags by their readable names; the code and what it means in the tooltip (the legend says it too). */
function flagsCell(flags: readonly string[]): HTMLTableCellElement {
  const cell = textCell('', 'item-flags');
  if (flags.length === 0) cell.textContent = '—';
  flags.forEach((code, i) => {
    const { title, explanation } = flagText(code);
    const chip = textElement('span', title, 'item-flag', 'flag');
    chip.dataset.code = code;
    chip.title = `${code}: ${explanation}`;
    cell.append(...(i > 0 ? [' '] : []), chip);
  });
  return cell;
}

/** One flag of the legend: its name, then its code, what it means and how many items carry it. */
function flagLegendEntry(code: string, items: number): HTMLDivElement {
  const { title, explanation } = flagText(code);
  const entry = document.createElement('div');
  entry.dataset.testid = 'flag-legend-entry';
  entry.dataset.code = code;
  entry.append(textElement('dt', title, 'flag-legend-name', 'flag'), textElement('dd', `${code}. ${explanation} ${count(items, 'item', 'items')}.`, 'flag-legend-text'));
  return entry;
}

/** What the map's caption says it shows: every placed item at how many points, and how precisely they were placed. */
function mapCoverage(summary: PortfolioSummary): string {
  if (summary.placed === 0) return 'No item of this job was placed on the map.';
  const parts = summary.precisions.map((p) => `${count(p.items, 'item', 'items')} at ${placedAt(p.precision)} (${count(p.points, 'point', 'points')})`).join(', ');
  const unmapped = summary.unmapped > 0 ? ` ${count(summary.unmapped, 'placed item', 'placed items')} at points past the first ${whole.format(summary.siteCount)} are counted in the tables only.` : '';
  if (summary.sites.length === summary.siteCount && summary.unmapped === 0) {
    return `The map shows all ${count(summary.placed, 'placed item', 'placed items')} at ${count(summary.siteCount, 'point', 'points')}: ${parts}.`;
  }
  return (
    `The map shows ${whole.format(summary.sites.length)} of the ${count(summary.siteCount, 'point', 'points')}, those holding the most items ` +
    `(${whole.format(summary.mappedItems)} of the ${count(summary.placed, 'placed item', 'placed items')}), to keep it to at most ${whole.format(MAP_POINT_CAP)} points; ` +
    `the tables count every item. In all: ${parts}.${unmapped}`
  );
}

function districtRow(totals: DistrictTotals, overall: boolean): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.testid = 'district-row';
  row.dataset.district = totals.district;
  if (overall) row.classList.add('overall');
  row.append(
    textCell(totals.district, 'district-name', 'th'),
    textCell(whole.format(totals.items), 'district-items'),
    textCell(whole.format(totals.valuedHomes), 'district-valued'),
    textCell(money(totals.totalEstimate), 'district-total'),
    textCell(totals.medianPricePerM2 === null ? '—' : whole.format(totals.medianPricePerM2), 'district-median-ppm2'),
    textCell(totals.meanLocationIndex === null ? '—' : oneDecimal.format(totals.meanLocationIndex), 'district-mean-index'),
  );
  return row;
}
