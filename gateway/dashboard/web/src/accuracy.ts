/**
 * The live accuracy panel (issue 18): for the signed-in organisation, how its valuations of homes or
 * vehicles compare with the prices it observed (liveAccuracy), and the market factors those prices
 * give its valuations (marketAdjustments). Plots of bias and interval coverage per group, a table
 * with the drift rule's flags, a bar chart of the factors; an empty state without observations.
 * The plotting code (vega) is loaded the first time the panel has something to draw.
 */
import { fetchAccuracy, type AccuracyData, type GroupAccuracy, type ObservationKind } from './api';
import { elements, textCell, textElement } from './dom';
import type { Plots } from './plots';

type PlotsModule = typeof import('./plots');

/** The levels liveAccuracy groups by, the service's default first. */
const LEVELS: Record<ObservationKind, { value: string; label: string }[]> = {
  HOME: [{ value: 'district', label: 'District' }, { value: 'segment', label: 'District and market' }],
  VEHICLE: [{ value: 'make', label: 'Make' }, { value: 'model', label: 'Make and model' }],
};
const KIND_NAMES: Record<ObservationKind, string> = { HOME: 'homes', VEHICLE: 'vehicles' };

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

export interface PanelMessages {
  showError(error: unknown): void;
  clearMessage(): void;
}

export class AccuracyPanel {
  private readonly ui = elements({
    section: 'accuracy-section', loading: 'accuracy-loading', empty: 'accuracy-empty', report: 'accuracy-report', summary: 'accuracy-summary',
    biasPlot: 'bias-plot', coveragePlot: 'coverage-plot', rows: 'accuracy-rows', driftRule: 'drift-rule', factorSection: 'factor-section', factorPlot: 'factor-plot',
    panel: ['accuracy-panel', HTMLDetailsElement], form: ['accuracy-form', HTMLFormElement], refresh: ['accuracy-refresh', HTMLButtonElement],
    kind: ['accuracy-kind', HTMLSelectElement], level: ['accuracy-level', HTMLSelectElement],
  });
  private apiKey: string | null = null;
  /** Bumped by every load and by sign-out: an answer to an older request is dropped. */
  private generation = 0;
  private loaded = false;
  private shownError = false;
  private plots: { module: PlotsModule; views: Plots } | null = null;

  constructor(private readonly messages: PanelMessages) {
    this.fillLevels();
    this.ui.panel.addEventListener('toggle', () => {
      if (this.ui.panel.open && !this.loaded) void this.load();
    });
    this.ui.kind.addEventListener('change', () => {
      this.fillLevels();
      void this.load();
    });
    this.ui.level.addEventListener('change', () => void this.load());
    this.ui.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load();
    });
  }

  /** Shows the panel (closed) for the organisation of `key`; it loads when opened. */
  signIn(key: string): void {
    this.apiKey = key;
    this.loaded = false;
    this.ui.section.hidden = false;
    if (this.ui.panel.open) void this.load();
  }

  signOut(): void {
    this.apiKey = null;
    this.generation++;
    this.loaded = false;
    this.shownError = false;
    this.ui.panel.open = false;
    this.ui.section.hidden = true;
    this.clear();
  }

  private fillLevels(): void {
    const kind = this.ui.kind.value as ObservationKind;
    this.ui.level.replaceChildren(...LEVELS[kind].map(({ value, label }) => new Option(label, value)));
  }

  private clear(): void {
    this.plots?.views.finalize();
    for (const plot of [this.ui.biasPlot, this.ui.coveragePlot, this.ui.factorPlot]) plot.replaceChildren();
    this.ui.rows.replaceChildren();
    this.ui.report.hidden = true;
    this.ui.empty.hidden = true;
    this.ui.loading.hidden = true;
    delete this.ui.report.dataset.kind;
  }

  private async load(): Promise<void> {
    const key = this.apiKey;
    if (!key) return;
    const generation = ++this.generation;
    const kind = this.ui.kind.value as ObservationKind;
    this.ui.loading.hidden = false;
    this.ui.refresh.disabled = true;
    try {
      const data = await fetchAccuracy(key, kind, this.ui.level.value || null);
      const plots = data.liveAccuracy.overall ? await this.plotting() : null;
      if (generation !== this.generation) return;
      this.clear();
      if (plots) await this.show(kind, data, plots);
      else this.showEmpty(kind);
      if (generation !== this.generation) return;
      this.loaded = true;
      if (this.shownError) this.messages.clearMessage();
      this.shownError = false;
    } catch (error) {
      if (generation !== this.generation) return;
      this.clear();
      this.messages.showError(error);
      this.shownError = true;
    } finally {
      if (generation === this.generation) {
        this.ui.loading.hidden = true;
        this.ui.refresh.disabled = false;
      }
    }
  }

  private async plotting(): Promise<{ module: PlotsModule; views: Plots }> {
    if (!this.plots) {
      const module = await import('./plots');
      this.plots = { module, views: new module.Plots() };
    }
    return this.plots;
  }

  private showEmpty(kind: ObservationKind): void {
    this.ui.empty.textContent =
      `No observed prices of ${KIND_NAMES[kind]} yet. Record observed prices with POST /api/observations ` +
      '(or the recordObservations mutation): each is scored against the valuation the service gave for it, ' +
      'and they re-anchor your valuations of the same kind at once.';
    this.ui.empty.hidden = false;
  }

  private async show(kind: ObservationKind, data: AccuracyData, { module, views }: { module: PlotsModule; views: Plots }): Promise<void> {
    const { biasSpec, coverageSpec, factorSpec, rowsOf } = module;
    const report = data.liveAccuracy;
    const groups = rowsOf(report);
    const overall = report.overall!;
    this.ui.summary.textContent =
      `${overall.service.observations} observed prices of ${KIND_NAMES[kind]} as of ${report.asOf}, by ${report.level}. ` +
      `Median absolute error: ${percent(overall.service.medianApe)} for the service, ${percent(overall.base.medianApe)} for the model alone.`;
    this.ui.rows.replaceChildren(...groups.map((group, i) => tableRow(group, i === 0)));
    this.ui.driftRule.textContent = `Drift rule: ${report.driftRule}`;
    this.ui.report.dataset.kind = kind;
    this.ui.report.hidden = false;

    const adjustments = data.marketAdjustments;
    this.ui.factorSection.hidden = !adjustments?.groups.length;
    await Promise.all([
      views.draw(this.ui.biasPlot, biasSpec(groups)),
      views.draw(this.ui.coveragePlot, coverageSpec(groups)),
      adjustments?.groups.length ? views.draw(this.ui.factorPlot, factorSpec(adjustments)) : undefined,
    ]);
  }
}

/** The drift verdict: its flags (bias, coverage) with the reasons, or why there is none. */
function driftCell({ drift }: GroupAccuracy): HTMLTableCellElement {
  const td = textCell('', 'drift');
  const flags = [drift.bias, drift.coverage ? `coverage ${drift.coverage}` : null].filter((flag): flag is string => flag !== null);
  if (flags.length) {
    for (const flag of flags) td.append(textElement('span', flag, 'drift-flag', 'flag'), ' ');
  } else {
    td.append(textElement('span', drift.judged ? 'within the rule' : 'not judged', 'drift-verdict', 'verdict'));
  }
  if (drift.reasons.length) {
    const reasons = document.createElement('ul');
    reasons.className = 'reasons';
    reasons.dataset.testid = 'drift-reasons';
    reasons.append(...drift.reasons.map((reason) => Object.assign(document.createElement('li'), { textContent: reason })));
    td.append(reasons);
  }
  return td;
}

function tableRow(group: GroupAccuracy, overall: boolean): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.testid = 'accuracy-row';
  tr.dataset.group = group.group;
  tr.dataset.flagged = String(group.drift.flagged);
  if (group.drift.flagged) tr.classList.add('flagged');
  if (overall) tr.classList.add('overall');
  tr.append(
    textCell(group.group, 'group', 'th'),
    textCell(String(group.service.observations), 'observations'),
    textCell(percent(group.service.medianApe), 'ape-service'),
    textCell(percent(group.base.medianApe), 'ape-base'),
    driftCell(group),
  );
  return tr;
}
