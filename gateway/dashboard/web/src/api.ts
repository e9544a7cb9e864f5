/**
 * The service's API as the dashboard uses it: REST for the upload and the results, GraphQL over
 * HTTP for the job list. Every call carries the API key; every failure becomes an ApiError with the
 * service's machine-readable code and its message.
 */

/** The service root: the page is served at <root>/dashboard/, so the API is one level up. */
export const SERVICE_ROOT = new URL('..', window.location.href);

/** Its GraphQL endpoint over WebSocket (graphql-ws), for subscriptions. */
export function subscriptionsUrl(): string {
  const url = new URL('graphql', SERVICE_ROOT);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A job as the dashboard shows it (batchJobs, batchJob and batchProgress all give these fields). */
export interface Job {
  id: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  createdAt?: string;
  /** The uploaded file's name, kept with the job by the service (null: submitted otherwise). */
  fileName?: string | null;
  ratePerSecond?: number;
  etaSeconds?: number | null;
  error?: string | null;
}

interface ErrorBody {
  error?: { code?: string; message?: string; field?: string };
  errors?: { message?: string; extensions?: { code?: string } }[];
}

/** The API's error out of a reply body (REST `{ error }` or GraphQL `{ errors }`), or a generic one. */
function errorOf(status: number, body: ErrorBody | undefined): ApiError {
  const rest = body?.error;
  if (rest?.code) return new ApiError(rest.code, rest.message ?? rest.code, status);
  const graphql = body?.errors?.[0];
  if (graphql) return new ApiError(graphql.extensions?.code ?? 'GRAPHQL_ERROR', graphql.message ?? 'GraphQL error', status);
  return new ApiError(`HTTP_${status}`, `The service answered ${status}`, status);
}

async function call(key: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('x-api-key', key);
  let response: Response;
  try {
    response = await fetch(new URL(path, SERVICE_ROOT), { ...init, headers });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error; // the caller stopped it: not the service's fault
    throw new ApiError('NETWORK_ERROR', `The service cannot be reached: ${(error as Error).message}`);
  }
  if (!response.ok) throw errorOf(response.status, await response.json().catch(() => undefined));
  return response;
}

async function graphql<T>(key: string, query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const response = await call(key, 'graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }), signal });
  const body = (await response.json()) as ErrorBody & { data?: T };
  if (body.errors?.length || !body.data) throw errorOf(response.status, body);
  return body.data;
}

const JOB_FIELDS = 'id status total processed succeeded failed createdAt fileName error';

/** The organisation's newest jobs, newest first. */
export async function listJobs(key: string, limit = 20): Promise<Job[]> {
  const data = await graphql<{ batchJobs: { jobs: Job[] } }>(key, `query DashboardJobs($limit: Int) { batchJobs(limit: $limit) { jobs { ${JOB_FIELDS} } } }`, { limit });
  return data.batchJobs.jobs;
}

/** POST /api/batch with the CSV file as it is (Content-Type text/csv), its name kept with the job (file_name). */
export async function submitCsv(key: string, file: File): Promise<Job> {
  const response = await call(key, `api/batch?file_name=${encodeURIComponent(file.name)}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: file });
  const job = (await response.json()) as { id: string; status: string; total: number; created_at: string };
  return { id: job.id, status: job.status, total: job.total, processed: 0, succeeded: 0, failed: 0, createdAt: job.created_at, fileName: file.name };
}

/** The job's results as CSV (GET /api/batch/{id}/results?format=csv). */
export async function fetchResultsCsv(key: string, id: string): Promise<Blob> {
  const response = await call(key, `api/batch/${encodeURIComponent(id)}/results?format=csv`);
  return response.blob();
}

// ---- a job's portfolio (issue 19) ----

/** GET /api/batch/{id}/results as NDJSON: the response, to read as a stream (./ndjson.ts). */
export async function openResults(key: string, id: string, signal?: AbortSignal): Promise<Response> {
  return call(key, `api/batch/${encodeURIComponent(id)}/results`, { headers: { accept: 'application/x-ndjson' }, signal });
}

/** One line of GET /api/batch/{id}/results (snake_case, as every REST reply). */
export interface ResultLine {
  index: number;
  ok: boolean;
  result: unknown;
  error: { code: string; message: string } | null;
}

export interface ResultPage {
  items: ResultLine[];
  nextOffset: number | null;
}

/** Up to `limit` results from item `offset` on (an offset is an item index), from the same REST route as the stream, so both read one shape. */
export async function fetchResultPage(key: string, id: string, offset: number, limit: number, signal?: AbortSignal): Promise<ResultPage> {
  const response = await call(key, `api/batch/${encodeURIComponent(id)}/results?offset=${offset}&limit=${limit}`, { headers: { accept: 'application/x-ndjson' }, signal });
  const items = (await response.text()).split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as ResultLine);
  const next = response.headers.get('batch-next-offset');
  return { items, nextOffset: next === null ? null : Number(next) };
}

/** The district outlines: a static file of the page (built from data/geo by gateway/dashboard/outlines.ts), no key needed. */
export async function fetchDistrictOutlines(signal?: AbortSignal): Promise<DistrictOutlines> {
  let response: Response;
  try {
    response = await fetch(new URL('district-outlines.json', window.location.href), { signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('NETWORK_ERROR', `The district outlines cannot be loaded: ${(error as Error).message}`);
  }
  if (!response.ok) throw new ApiError(`HTTP_${response.status}`, `The district outlines cannot be loaded (${response.status})`, response.status);
  return (await response.json()) as DistrictOutlines;
}

/** The district outlines: a GeoJSON FeatureCollection, properties { id, name } (gateway/dashboard/outlines.ts). */
export interface DistrictOutlines {
  type: 'FeatureCollection';
  attribution?: string;
  features: { type: 'Feature'; properties: { id: string; name: string }; geometry: unknown }[];
}

/** A file of the API (a valuation's record or report), fetched with the key. */
export async function fetchFile(key: string, path: string): Promise<Blob> {
  return (await call(key, path)).blob();
}

// ---- live accuracy (issue 18) ----

export type ObservationKind = 'HOME' | 'VEHICLE';

/** How valuations compared with the observed prices (the interval fields only for the service's own). */
export interface AccuracyMeasures {
  observations: number;
  medianApe: number;
  within10?: number;
  /** Mean log(price / valuation): positive when valuations were low. */
  meanBias: number;
  meanBiasLow?: number | null;
  meanBiasHigh?: number | null;
  /** Share of observed prices inside the 90% valuation interval. */
  coverage: number;
  coverageLow?: number;
  coverageHigh?: number;
}

export interface DriftVerdict {
  judged: boolean;
  flagged: boolean;
  bias: string | null;
  coverage: string | null;
  reasons: string[];
}

export interface GroupAccuracy {
  group: string;
  service: AccuracyMeasures;
  /** The model alone, without the organisation's market adjustment. */
  base: AccuracyMeasures;
  drift: DriftVerdict;
}

export interface LiveAccuracyReport {
  asOf: string;
  since: string | null;
  level: string;
  driftRule: string;
  /** Null when the organisation has no observation of the kind. */
  overall: GroupAccuracy | null;
  groups: GroupAccuracy[];
}

export interface MarketAdjustmentGroup {
  group: string;
  level: string;
  factor: number;
  observations: number;
  shrinkage: number;
  intervalWidthRatio: number | null;
}

export interface MarketAdjustments {
  asOf: string;
  observations: number;
  groups: MarketAdjustmentGroup[];
}

export interface AccuracyData {
  liveAccuracy: LiveAccuracyReport;
  /** Null while the organisation has no observation of the kind. */
  marketAdjustments: MarketAdjustments | null;
}

const SERVICE_MEASURES = 'observations medianApe within10 meanBias meanBiasLow meanBiasHigh coverage coverageLow coverageHigh';
const DRIFT_FIELDS = 'drift { judged flagged bias coverage reasons }';

const LIVE_ACCURACY = /* GraphQL */ `
  query DashboardAccuracy($kind: ObservationKind!, $level: String) {
    liveAccuracy(kind: $kind, level: $level) {
      asOf since level driftRule
      overall { group service { ${SERVICE_MEASURES} } base { observations medianApe meanBias coverage } ${DRIFT_FIELDS} }
      groups { group service { ${SERVICE_MEASURES} } base { observations medianApe meanBias coverage } ${DRIFT_FIELDS} }
    }
    marketAdjustments(kind: $kind) { asOf observations groups { group level factor observations shrinkage intervalWidthRatio } }
  }`;

/** The organisation's live accuracy for a kind of asset at a level of groups (null: the service's default level), and its market factors. */
export async function fetchAccuracy(key: string, kind: ObservationKind, level: string | null): Promise<AccuracyData> {
  return graphql<AccuracyData>(key, LIVE_ACCURACY, { kind, level });
}

// ---- backtests (issue 31) ----

/** How a backtest's valuations compared with the prices (models/observations/backtest.ts). */
export interface BacktestMeasures {
  n: number;
  medianApe: number;
  within10: number;
  /** Median log(price / estimate): positive when the valuations were low. */
  bias: { median: number; ci95: { low: number; high: number } | null };
  coverage: { share: number; bounds95: { low: number; high: number } };
  medianWidth: number;
}

export interface BacktestComparison {
  modelAlone: BacktestMeasures;
  reanchored: BacktestMeasures;
}

/** The parts of backtest().report the panel shows (the rows and groups stay in the downloads). */
export interface BacktestReport {
  observations: number;
  from: string | null;
  to: string | null;
  fits: number;
  submitted?: number;
  refused?: { count: number };
  modelVersions?: string[];
  overall: BacktestComparison;
  byMonth: (BacktestComparison & { month: string })[];
}

export interface Backtest {
  id: string;
  kind: 'HOME' | 'VEHICLE';
  job: Job;
  /** Null until the job has completed. */
  report: BacktestReport | null;
}

/**
 * The organisation's backtests among its newest jobs, newest first: backtests are batch jobs, and
 * batchJobs does not say which are, so one more request asks backtest(id) of each (null: a portfolio).
 */
export async function listBacktests(key: string, limit = 50): Promise<Backtest[]> {
  const jobs = await listJobs(key, limit);
  if (jobs.length === 0) return [];
  const fields = jobs.map((_, i) => `b${i}: backtest(id: $id${i}) { id kind }`).join(' ');
  const query = `query DashboardBacktests(${jobs.map((_, i) => `$id${i}: ID!`).join(', ')}) { ${fields} }`;
  const found = await graphql<Record<string, { id: string; kind: Backtest['kind'] } | null>>(key, query, Object.fromEntries(jobs.map((job, i) => [`id${i}`, job.id])));
  return jobs.flatMap((job, i) => {
    const backtest = found[`b${i}`];
    return backtest ? [{ id: job.id, kind: backtest.kind, job, report: null }] : [];
  });
}

/** One backtest with its report once completed; null for an unknown id or a job that is not one. */
export async function fetchBacktest(key: string, id: string): Promise<Backtest | null> {
  const data = await graphql<{ backtest: Backtest | null }>(key, `query DashboardBacktest($id: ID!) { backtest(id: $id) { id kind job { ${JOB_FIELDS} } report } }`, { id });
  return data.backtest;
}

/** One site's last collecting run, or the run under way (GraphQL collectionStatus). */
export interface CollectionRun {
  site: string;
  state: string;
  day: string | null;
  pages: number | null;
  listings: number | null;
  reason: string | null;
  startedAt: string | null;
  endedAt: string | null;
}

export async function fetchCollectionStatus(key: string): Promise<CollectionRun[]> {
  const data = await graphql<{ collectionStatus: CollectionRun[] }>(key, 'query DashboardCollection { collectionStatus { site state day pages listings reason startedAt endedAt } }');
  return data.collectionStatus;
}
