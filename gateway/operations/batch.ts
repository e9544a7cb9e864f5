/**
 * Batch jobs, the same on every door: POST /api/batch and GET /api/batch/{id}… (gateway/rest/batch.ts)
 * and MCP's submit_batch and get_batch_status run these operations on the batch subgraph and
 * answer with the same snake_case bodies. A file upload's parts (openBatch, appendBatchItems,
 * cancelBatch) are REST's alone: the route reads the file as it streams.
 */
import { submitBatchInput, type BatchItemResultView, type BatchSubmission } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import type { GraphExecutor } from '../graph/executor';

const JOB_SELECTION = 'id status total processed succeeded failed chunkSize createdAt startedAt completedAt callbackUrl fileName resultsUrl error deliveries { number at statusCode error durationMs }';

/** Persisted operations of batch jobs; every field is owned by the batch subgraph. */
export const SUBMIT_BATCH_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestSubmitBatch($input: SubmitBatchInput!) {
    submitBatch(input: $input) { id status total createdAt resultsUrl idempotentReplay }
  }` };

export const OPEN_BATCH_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestOpenBatch($input: OpenBatchInput!) {
    openBatch(input: $input) { id }
  }` };

export const APPEND_BATCH_ITEMS_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestAppendBatchItems($id: ID!, $items: [BatchItemInput!]!, $last: Boolean!) {
    appendBatchItems(id: $id, items: $items, last: $last) { id status total createdAt resultsUrl }
  }` };

export const CANCEL_BATCH_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestCancelBatch($id: ID!) {
    cancelBatch(id: $id) { status }
  }` };

/** What the submission operations select: the 202's fields. */
export interface AcceptedJob {
  id: string;
  status: string;
  total: number;
  createdAt: string;
  resultsUrl: string;
  /** The job an earlier submission with the same Idempotency-Key made (JSON submissions only). */
  idempotentReplay?: boolean;
}

export const BATCH_JOB_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  query RestBatchJob($id: ID!) {
    batchJob(id: $id) { ${JOB_SELECTION} }
  }` };

export const BATCH_RESULTS_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  query RestBatchResults($id: ID!, $offset: Int, $limit: Int) {
    batchResults(id: $id, offset: $offset, limit: $limit) { items { index reference ok result error { code message } } nextOffset }
  }` };

/** What BATCH_JOB_OPERATION selects. */
export interface BatchJobData {
  id: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  chunkSize: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  callbackUrl: string | null;
  fileName: string | null;
  resultsUrl: string;
  error: string | null;
  deliveries: { number: number; at: string; statusCode: number | null; error: string | null; durationMs: number }[] | null;
}

/** GET /api/batch/{id}'s body (MCP's get_batch_status answers with it too). */
export function toJobResponse(job: BatchJobData) {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    chunk_size: job.chunkSize,
    created_at: job.createdAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    callback_url: job.callbackUrl,
    file_name: job.fileName,
    results_url: job.resultsUrl,
    error: job.error,
    deliveries: (job.deliveries ?? []).map((d) => ({ number: d.number, at: d.at, status_code: d.statusCode, error: d.error, duration_ms: d.durationMs })),
  };
}


/** A checked submission (a JSON body read by batchFromJson) → its job through `executor`. */
export async function submitBatch(executor: GraphExecutor, submission: BatchSubmission): Promise<AcceptedJob> {
  return (await executor.execute<{ submitBatch: AcceptedJob }>(SUBMIT_BATCH_OPERATION, { input: submitBatchInput(submission) })).submitBatch;
}

/**
 * POST /api/batch's 202 body (submit_batch's reply too): the contract says queued, whatever the job
 * is by now (in-process workers may have started already); GET /api/batch/{id} has the live status.
 */
export function toAcceptedJobResponse(job: AcceptedJob) {
  return { id: job.id, status: 'queued' as const, total: job.total, created_at: job.createdAt, results_url: job.resultsUrl, idempotent_replay: job.idempotentReplay ?? false };
}

/** The caller's organisation's job `id`; an unknown id, or another organisation's, is NOT_FOUND. */
export async function batchJobOf(executor: GraphExecutor, id: string): Promise<BatchJobData> {
  const data = await executor.execute<{ batchJob: BatchJobData | null }>(BATCH_JOB_OPERATION, { id });
  if (!data.batchJob) throw new ApiError('NOT_FOUND', `No batch job ${id.slice(0, 100)}`, 'id');
  return data.batchJob;
}

/** What BATCH_RESULTS_OPERATION selects: one page of results, in item order. */
export interface BatchResultsData {
  items: BatchItemResultView[];
  nextOffset: number | null;
}

/** The recorded results of job `id` from item `offset` on, at most `limit` of them. */
export async function batchResultsPage(executor: GraphExecutor, id: string, offset: number, limit: number): Promise<BatchResultsData> {
  return (await executor.execute<{ batchResults: BatchResultsData }>(BATCH_RESULTS_OPERATION, { id, offset, limit })).batchResults;
}
