/**
 * The batch dashboard: sign in with an API key (kept in sessionStorage), upload a CSV portfolio,
 * follow the organisation's jobs live, download a finished job's results or open its portfolio view,
 * read its backtests, and see how collecting listings is going.
 */
import { AccuracyPanel } from './accuracy';
import { BacktestPanel } from './backtest';
import { CollectionPanel } from './collection';
import { ApiError, fetchResultsCsv, listJobs, submitCsv, type Job } from './api';
import { element, saveFile } from './dom';
import { PortfolioView } from './portfolio';
import { ProgressWatcher } from './progress';

const KEY_STORAGE = 'tashkent-valuation.api-key';
const ENDED = new Set(['completed', 'failed', 'cancelled']);

const ui = {
  keyForm: element<HTMLFormElement>('key-form'),
  keyInput: element<HTMLInputElement>('api-key'),
  signedIn: element<HTMLParagraphElement>('signed-in'),
  keyHint: element<HTMLSpanElement>('key-hint'),
  signOut: element<HTMLButtonElement>('sign-out'),
  message: element<HTMLParagraphElement>('message'),
  uploadSection: element<HTMLElement>('upload-section'),
  uploadForm: element<HTMLFormElement>('upload-form'),
  fileInput: element<HTMLInputElement>('csv-file'),
  submitButton: element<HTMLButtonElement>('submit-batch'),
  jobsSection: element<HTMLElement>('jobs-section'),
  refresh: element<HTMLButtonElement>('refresh'),
  noJobs: element<HTMLParagraphElement>('no-jobs'),
  jobList: element<HTMLUListElement>('jobs'),
};

let apiKey: string | null = null;
const messages = { showError: (error: unknown) => showError(error), clearMessage: () => clearMessage() };
const accuracy = new AccuracyPanel(messages);
const portfolio = new PortfolioView(messages);
const backtests = new BacktestPanel(messages);
const collection = new CollectionPanel(messages);
let watcher: ProgressWatcher | null = null;
const jobs = new Map<string, Job>();
const rows = new Map<string, JobRow>();

// ---- messages ----

function showMessage(text: string, kind: 'info' | 'error'): void {
  ui.message.textContent = text;
  ui.message.className = kind;
  ui.message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  ui.message.hidden = false;
}

function showError(error: unknown): void {
  if (error instanceof ApiError) showMessage(`${error.code}: ${error.message}`, 'error');
  else showMessage(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`, 'error');
}

function clearMessage(): void {
  ui.message.hidden = true;
  ui.message.textContent = '';
}

// ---- one job's row ----

function percentOf(job: Job): number {
  if (job.total > 0) return Math.min(100, Math.floor((job.processed * 100) / job.total));
  return job.status === 'completed' ? 100 : 0;
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const submittedAt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Items, done (placed and scored) and failed. */
function countsOf(job: Job): string {
  return `${whole.format(job.total)} ${job.total === 1 ? 'item' : 'items'} · ${whole.format(job.succeeded)} done · ${whole.format(job.failed)} failed`;
}

/** How far a job is, and why it failed. */
function detailsOf(job: Job): string {
  const parts = [`${whole.format(job.processed)} of ${whole.format(job.total)} processed`];
  if (!ENDED.has(job.status) && job.ratePerSecond) parts.push(`${job.ratePerSecond.toFixed(1)}/s`);
  if (!ENDED.has(job.status) && typeof job.etaSeconds === 'number') parts.push(`about ${Math.ceil(job.etaSeconds)} s left`);
  if (job.status === 'failed' && job.error) parts.push(job.error);
  return parts.join(' · ');
}

class JobRow {
  readonly root = document.createElement('li');
  private readonly status = document.createElement('span');
  private readonly bar = document.createElement('progress');
  private readonly percent = document.createElement('span');
  private readonly details = document.createElement('span');
  private readonly counts = document.createElement('span');
  private readonly submitted = document.createElement('time');
  private readonly download = document.createElement('button');
  private readonly portfolio = document.createElement('button');

  constructor(readonly id: string, fileName: string | null | undefined) {
    this.root.className = 'job';
    this.root.dataset.testid = 'job';
    this.root.dataset.jobId = id;

    // The file's name first (a UUID tells an analyst nothing), then when it was submitted and its counts.
    const head = document.createElement('div');
    head.className = 'job-head';
    const name = document.createElement('strong');
    name.className = fileName ? 'job-name' : 'job-name none';
    name.textContent = fileName ?? 'No file name';
    name.dataset.testid = 'job-name';
    this.status.className = 'status';
    this.status.dataset.testid = 'job-status';
    this.submitted.dataset.testid = 'job-submitted';
    this.counts.className = 'job-counts';
    this.counts.dataset.testid = 'job-counts';
    const code = document.createElement('code');
    code.textContent = id;
    code.dataset.testid = 'job-id';
    head.append(name, this.status, this.submitted, this.counts, code);

    const progress = document.createElement('div');
    progress.className = 'job-progress';
    this.bar.max = 100;
    this.bar.dataset.testid = 'job-progress';
    this.bar.setAttribute('aria-label', `Progress of job ${id}`);
    this.percent.className = 'percent';
    this.percent.dataset.testid = 'job-percent';
    progress.append(this.bar, this.percent);

    this.details.className = 'details';
    this.details.dataset.testid = 'job-details';
    this.download.type = 'button';
    this.download.className = 'download';
    this.download.dataset.testid = 'job-download';
    this.download.textContent = 'Download results';
    this.download.hidden = true;
    this.download.addEventListener('click', () => void downloadResults(id, this.download));
    this.portfolio.type = 'button';
    this.portfolio.className = 'open-portfolio';
    this.portfolio.dataset.testid = 'job-portfolio';
    this.portfolio.textContent = 'Portfolio';
    this.portfolio.hidden = true;
    this.portfolio.addEventListener('click', () => {
      const job = jobs.get(id);
      if (job) void portfolio.open(job, job.fileName ?? undefined);
    });

    const actions = document.createElement('div');
    actions.className = 'job-actions';
    actions.append(this.download, this.portfolio);
    this.root.append(head, progress, this.details, actions);
  }

  update(job: Job): void {
    const percent = percentOf(job);
    this.status.textContent = job.status;
    this.status.dataset.status = job.status;
    this.bar.value = percent;
    this.bar.setAttribute('aria-valuenow', String(percent));
    this.percent.textContent = `${percent}%`;
    this.details.textContent = detailsOf(job);
    this.counts.textContent = countsOf(job);
    if (job.createdAt) {
      this.submitted.dateTime = job.createdAt;
      this.submitted.textContent = `Submitted ${submittedAt.format(new Date(job.createdAt))}`;
    }
    this.download.hidden = job.status !== 'completed';
    this.portfolio.hidden = job.status !== 'completed';
  }
}

// ---- the job list ----

/** Adds or updates a job; `first` puts a new one at the top (a fresh submission). */
function showJob(job: Job, first = false): void {
  const merged = { ...jobs.get(job.id), ...job };
  jobs.set(job.id, merged);
  let row = rows.get(job.id);
  if (!row) {
    row = new JobRow(job.id, merged.fileName);
    rows.set(job.id, row);
    if (first) ui.jobList.prepend(row.root);
    else ui.jobList.append(row.root);
  }
  row.update(merged);
  ui.noJobs.hidden = jobs.size > 0;
  if (!ENDED.has(merged.status)) follow(job.id);
}

function follow(id: string): void {
  if (!watcher || watcher.isWatching(id)) return;
  watcher.watch(
    id,
    (event) => showJob(event),
    (error) => showError(error),
  );
}

async function loadJobs(key: string): Promise<void> {
  const list = await listJobs(key);
  for (const job of list) showJob(job);
  // Newest first, as batchJobs lists them; rows no longer listed stay below.
  const listed = new Set(list.map((job) => job.id));
  const rest = [...rows.values()].filter((row) => !listed.has(row.id)).map((row) => row.root);
  ui.jobList.replaceChildren(...list.map((job) => rows.get(job.id)!.root), ...rest);
}

// ---- actions ----

async function signIn(key: string): Promise<void> {
  clearMessage();
  await signOut(false);
  watcher = new ProgressWatcher(key);
  apiKey = key;
  try {
    await loadJobs(key);
  } catch (error) {
    await signOut(error instanceof ApiError && error.status === 401);
    showError(error);
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  ui.keyHint.textContent = `(key …${key.slice(-4)})`;
  ui.keyInput.value = '';
  ui.keyForm.hidden = true;
  ui.signedIn.hidden = false;
  ui.uploadSection.hidden = false;
  ui.jobsSection.hidden = false;
  accuracy.signIn(key);
  portfolio.signIn(key);
  backtests.signIn(key);
  collection.signIn(key);
}

async function signOut(forget = true): Promise<void> {
  const closing = watcher;
  watcher = null;
  apiKey = null;
  jobs.clear();
  rows.clear();
  ui.jobList.replaceChildren();
  ui.keyForm.hidden = false;
  ui.signedIn.hidden = true;
  ui.uploadSection.hidden = true;
  ui.jobsSection.hidden = true;
  accuracy.signOut();
  portfolio.signOut();
  backtests.signOut();
  collection.signOut();
  if (forget) {
    sessionStorage.removeItem(KEY_STORAGE);
    clearMessage();
  }
  await closing?.close();
}

async function submit(): Promise<void> {
  const file = ui.fileInput.files?.[0];
  if (!apiKey) return;
  if (!file) {
    showMessage('Choose a CSV file first', 'error');
    return;
  }
  ui.submitButton.disabled = true;
  try {
    const job = await submitCsv(apiKey, file);
    showJob(job, true);
    showMessage(`Submitted ${file.name}: job ${job.id}, ${job.total} items`, 'info');
    ui.uploadForm.reset();
  } catch (error) {
    showError(error);
  } finally {
    ui.submitButton.disabled = false;
  }
}

async function downloadResults(id: string, button: HTMLButtonElement): Promise<void> {
  if (!apiKey) return;
  button.disabled = true;
  try {
    saveFile(await fetchResultsCsv(apiKey, id), `batch-${id}.csv`);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

ui.keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = ui.keyInput.value.trim();
  if (key) void signIn(key);
});
ui.signOut.addEventListener('click', () => void signOut());
ui.uploadForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});
ui.refresh.addEventListener('click', () => {
  if (apiKey) loadJobs(apiKey).catch(showError);
});

const remembered = sessionStorage.getItem(KEY_STORAGE);
if (remembered) void signIn(remembered);
