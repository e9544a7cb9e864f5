/**
 * Collecting progress (issue 37): each site's last run of `npm run collect`, or the run under way,
 * from GraphQL `collectionStatus` (the collect folder's small status files, read by the residential
 * subgraph). Loaded at sign-in and with its Refresh button; read only.
 */
import { fetchCollectionStatus, type CollectionRun } from './api';
import { elements, textCell } from './dom';

interface PanelMessages {
  showError(error: unknown): void;
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const at = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const STATES: Record<string, string> = {
  running: 'running',
  interrupted: 'interrupted (resumes on the next run)',
  completed: 'completed',
  stopped: 'stopped early (resumes on the next run)',
  never: 'never run',
};

const count = (n: number | null) => (n === null ? '–' : whole.format(n));
const time = (iso: string | null) => (iso === null ? '–' : `${at.format(new Date(iso))} UTC`);

/** When: the end of a finished run, the start of one under way. */
function whenOf(run: CollectionRun): string {
  if (run.state === 'never') return '–';
  if (run.state === 'running' || run.state === 'interrupted') return `started ${time(run.startedAt)}`;
  return time(run.endedAt);
}

export class CollectionPanel {
  private readonly ui = elements({ section: 'collection-section', rows: 'collection-rows', empty: 'collection-empty', refresh: ['collection-refresh', HTMLButtonElement] });
  private apiKey: string | null = null;
  private generation = 0;

  constructor(private readonly messages: PanelMessages) {
    this.ui.refresh.addEventListener('click', () => void this.load());
  }

  signIn(key: string): void {
    this.apiKey = key;
    this.ui.section.hidden = false;
    void this.load();
  }

  signOut(): void {
    this.apiKey = null;
    this.generation++;
    this.ui.section.hidden = true;
    this.ui.rows.replaceChildren();
  }

  async load(): Promise<void> {
    const key = this.apiKey;
    if (!key) return;
    const generation = ++this.generation;
    try {
      const runs = await fetchCollectionStatus(key);
      if (generation !== this.generation) return;
      this.show(runs);
    } catch (error) {
      if (generation === this.generation) this.messages.showError(error);
    }
  }

  private show(runs: CollectionRun[]): void {
    this.ui.empty.hidden = runs.length > 0;
    this.ui.rows.replaceChildren(
      ...runs.map((run) => {
        const row = document.createElement('tr');
        row.dataset.testid = 'collection-run';
        row.dataset.site = run.site;
        const state = STATES[run.state] ?? run.state;
        row.append(
          textCell(run.site, 'collection-site', 'th'),
          textCell(run.reason ? `${state}: ${run.reason}` : state, 'collection-state'),
          textCell(count(run.pages), 'collection-pages'),
          textCell(count(run.listings), 'collection-listings'),
          textCell(whenOf(run), 'collection-when'),
        );
        return row;
      }),
    );
  }
}
