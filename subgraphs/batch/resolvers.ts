/** Batch job operations: thin glue from GraphQL to the batch engine, as the caller's organisation. */
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { batchFileName, graphqlBatchItem } from '../../schema/batch-contract';
import { checkedIdempotencyKey, fingerprintOf, InProcessIdempotencyBindings, submitOnce } from './idempotency';
import { resultsPath, type BatchApi } from './api';
import type { BatchContext, Principal } from './context';
import { batchError } from './errors';
import { withApiErrors } from '../common/errors';
import { BatchItemLimitError, BatchJobClosedError, BatchJobNotFoundError, InvalidBatchOptionsError, type BatchJob as JobRecord, type ItemResult } from '../../platform/batch-engine';
import {
  AppendBatchItemsArgs,
  BatchItemResult,
  BatchJob,
  BatchJobPage,
  BatchJobStatus,
  BatchResultPage,
  BatchResultsArgs,
  OpenBatchInput,
  PageArgs,
  SubmitBatchInput,
  type BatchItemInput,
  type WebhookDelivery,
} from './graphql-types';
import { validateCallbackUrl, type DeliveryAttempt } from './webhooks';

const DEFAULT_RESULTS_LIMIT = 100;
const MAX_RESULTS_LIMIT = 1000;

/** The caller and the batch API, or the error a client may act on. */
export function caller(ctx: BatchContext): { principal: Principal; batch: BatchApi } {
  if (!ctx.principal) throw new ApiError('INVALID_API_KEY', 'Batch jobs belong to an organisation: send your API key');
  return { principal: ctx.principal, batch: ctx.batch };
}

export const notFound = (id: string) => new ApiError('NOT_FOUND', `No batch job ${id}`, 'id');

/** The engine's option errors (chunk size, page bounds) are the client's. */
export async function asClient<T>(body: () => Promise<T>, field: string): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof InvalidBatchOptionsError) throw new ApiError('INVALID_PARAMETER', error.message, field);
    throw error;
  }
}

@Resolver(() => BatchJob)
export class BatchResolver {
  @Mutation(() => BatchJob, {
    description:
      "Submits addresses (optionally with homes) for background valuation. Each item is checked first, as POST /api/batch and MCP submit_batch check it: a bad one (no address; a home field unknown, of the wrong type or out of range; a field named like personal data, or a reference that is personal data) refuses the submission whole and makes no job, with its code and field in REST's words (MISSING_PARAMETER on items[0].address, INVALID_PARAMETER on items[3].home.total_floors). A word the service does not know (renovation, buildingType, furniture, bathroom) is no refusal: the home is valued without it, with a warning in the item's result. Over the plan's maxBatchItems: INVALID_PARAMETER on items",
  })
  submitBatch(@Arg('input', () => SubmitBatchInput) input: SubmitBatchInput, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      checkSubmissionSize({ principal, batch }, input.items.length, 'items');
      const callbackUrl = await checkedCallbackUrl(input.callbackUrl, batch);
      const items = checkedItems(input.items);
      const key = checkedIdempotencyKey(input.idempotencyKey, 'idempotencyKey');
      const options = { callbackUrl, chunkSize: input.chunkSize ?? undefined, fileName: batchFileName(input.fileName, 'fileName') };
      const { job, replayed } = await submitOnce(
        batch.idempotency ?? new InProcessIdempotencyBindings(), principal.org, key, fingerprintOf({ items, ...options }),
        () => asClient(() => batch.engine.submit(principal.org, items, options), 'chunkSize'),
        async (jobId) => (await batch.engine.get(principal.org, jobId)) ?? Promise.reject(new ApiError('IDEMPOTENCY_KEY_REUSED', `The job this Idempotency-Key made (${jobId}) is no longer kept: use a new key`, 'idempotencyKey')),
      );
      return { ...jobView(job), idempotentReplay: replayed };
    }, batchError);
  }

  @Mutation(() => BatchJob, {
    description:
      "Opens a job to fill with appendBatchItems, for a portfolio too large for one request; a job that receives no items for the submission timeout (5 minutes by default) is failed as cut off",
  })
  openBatch(@Arg('input', () => OpenBatchInput) input: OpenBatchInput, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const callbackUrl = await checkedCallbackUrl(input.callbackUrl, batch);
      const job = await asClient(() => batch.engine.open(principal.org, { callbackUrl, chunkSize: input.chunkSize ?? undefined, fileName: batchFileName(input.fileName, 'fileName') }), 'chunkSize');
      return jobView(job);
    }, batchError);
  }

  @Mutation(() => BatchJob, {
    description:
      "Adds the next items to a job opened by openBatch, queued as they are stored; last: true seals it. Every call but the last carries a multiple of the job's chunkSize. Each item is checked as submitBatch checks it: a bad one refuses the part whole, naming it by its place in this call (items[3].home.area); nothing of the part is stored and the job stays open for it, corrected (or cancelBatch). Past the plan's maxBatchItems in all: the job is failed and INVALID_PARAMETER on items. A sealed or ended job: INVALID_PARAMETER on id; an unknown id: NOT_FOUND",
  })
  appendBatchItems(@Args(() => AppendBatchItemsArgs) { id, items, last }: AppendBatchItemsArgs, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withApiErrors(async () => jobView(await appendToJob(caller(ctx), id, checkedItems(items), last, 'items')), batchError);
  }

  @Query(() => BatchJob, { nullable: true, description: 'A batch job of your organisation; null for an unknown id' })
  batchJob(@Arg('id', () => ID) id: string, @Ctx() ctx: BatchContext): Promise<BatchJob | null> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await batch.engine.get(principal.org, id);
      return job ? jobView(job) : null;
    }, batchError);
  }

  @Query(() => BatchJobPage, { description: "Your organisation's batch jobs, newest first" })
  batchJobs(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: BatchContext): Promise<BatchJobPage> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const listed = await asClient(() => batch.engine.list(principal.org, { offset: page.offset ?? undefined, limit: page.limit ?? undefined }), 'limit');
      return { jobs: listed.jobs.map((job) => jobView(job, true)), nextOffset: listed.nextOffset };
    }, batchError);
  }

  @Query(() => BatchResultPage, { description: `A job's item results recorded so far, in item order (limit default ${DEFAULT_RESULTS_LIMIT}, at most ${MAX_RESULTS_LIMIT}); an unknown id: NOT_FOUND` })
  batchResults(@Args(() => BatchResultsArgs) { id, offset, limit }: BatchResultsArgs, @Ctx() ctx: BatchContext): Promise<BatchResultPage> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const from = offset ?? 0;
      const count = limit ?? DEFAULT_RESULTS_LIMIT;
      if (!Number.isInteger(from) || from < 0) throw new ApiError('INVALID_PARAMETER', 'offset must be a whole number', 'offset');
      if (!Number.isInteger(count) || count < 1 || count > MAX_RESULTS_LIMIT) throw new ApiError('INVALID_PARAMETER', `limit must be an integer from 1 to ${MAX_RESULTS_LIMIT}`, 'limit');
      if (!(await batch.engine.get(principal.org, id))) throw notFound(id);
      const items: BatchItemResult[] = [];
      let more = false;
      let last = from - 1;
      // The offset is an item index: the engine starts reading at the chunk that holds it.
      for await (const result of batch.engine.results(principal.org, id, from)) {
        if (items.length === count) {
          more = true;
          break;
        }
        items.push(resultView(result));
        last = result.index;
      }
      return { items, nextOffset: more ? last + 1 : null };
    }, batchError);
  }

  @Query(() => String, {
    description:
      "Your organisation's Standard Webhooks signing secret (whsec_…): batch.completed webhooks carry webhook-id, webhook-timestamp and webhook-signature headers, which any Standard Webhooks library verifies with it",
  })
  batchWebhookSecret(@Ctx() ctx: BatchContext): Promise<string> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      return batch.secrets.secretFor(principal.org);
    }, batchError);
  }

  @Mutation(() => BatchJob, { description: 'Cancels a queued or running job (one that has ended is returned as it is); an unknown id: NOT_FOUND' })
  cancelBatch(@Arg('id', () => ID) id: string, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await batch.engine.cancel(principal.org, id);
      if (!job) throw notFound(id);
      return jobView(job);
    }, batchError);
  }
}

/** One submission's items: at least one, at most the plan's maxBatchItems (else the client's error on `field`). */
export function checkSubmissionSize({ principal, batch }: { principal: Principal; batch: BatchApi }, count: number, field: string): void {
  const limit = batch.maxBatchItems(principal.plan);
  if (count === 0) throw new ApiError('MISSING_PARAMETER', `${field} must hold at least one item`, field);
  if (count > limit) throw new ApiError('INVALID_PARAMETER', `The ${principal.plan} plan allows at most ${limit} items per batch (got ${count}); split the portfolio`, field);
}

/** Appends the next items of an open job, the engine's refusals as the client's errors on `field` (the items' argument). */
export async function appendToJob({ principal, batch }: { principal: Principal; batch: BatchApi }, id: string, items: unknown[], last: boolean, field: string): Promise<JobRecord> {
  const limit = batch.maxBatchItems(principal.plan);
  try {
    return await batch.engine.append(principal.org, id, items, { last, maxItems: limit });
  } catch (error) {
    if (error instanceof BatchJobNotFoundError) throw notFound(id);
    if (error instanceof BatchItemLimitError) {
      throw new ApiError('INVALID_PARAMETER', `The ${principal.plan} plan allows at most ${limit} items per batch (this part would take batch job ${id} to ${error.wouldHold}); the job was failed: split the portfolio`, field);
    }
    if (error instanceof BatchJobClosedError) throw new ApiError('INVALID_PARAMETER', `Batch job ${id} takes no more items: ${error.reason === 'sealed' ? 'its last part came already' : 'it has ended'}`, 'id');
    if (error instanceof InvalidBatchOptionsError) throw new ApiError('INVALID_PARAMETER', error.message, field);
    throw error;
  }
}

/**
 * Submitted items as the engine stores them, each checked as REST and MCP check theirs: one bad item
 * refuses the call whole (the client's error on items[i].…), before anything is stored.
 */
function checkedItems(items: readonly BatchItemInput[]) {
  return items.map((item, index) => graphqlBatchItem(item, `items[${index}]`));
}

/** The callback URL, once the policy accepts it (else its error, on callbackUrl). */
export async function checkedCallbackUrl(callbackUrl: string | null | undefined, batch: BatchApi): Promise<string | undefined> {
  if (callbackUrl === undefined || callbackUrl === null) return undefined;
  const check = await validateCallbackUrl(callbackUrl, batch.callbackPolicy);
  if (!check.ok) throw check.error;
  return callbackUrl;
}

/** `listed`: from a page of jobs, which carries no deliveries. */
export function jobView(job: JobRecord, listed = false): BatchJob {
  return {
    id: job.id,
    status: job.status as BatchJobStatus,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    chunkSize: job.chunkSize,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    callbackUrl: job.callbackUrl ?? null,
    fileName: job.fileName ?? null,
    resultsUrl: resultsPath(job.id),
    error: job.error ?? null,
    idempotentReplay: false,
    deliveries: listed ? null : (job.deliveries ?? []).map((d) => deliveryView(d as DeliveryAttempt)),
  };
}

function deliveryView(attempt: DeliveryAttempt): WebhookDelivery {
  return {
    number: attempt.number,
    at: attempt.at,
    statusCode: attempt.statusCode ?? null,
    error: attempt.error ? `${attempt.error.kind}: ${attempt.error.message}` : null,
    durationMs: attempt.durationMs,
  };
}

function resultView(result: ItemResult): BatchItemResult {
  const reference = result.reference ?? null;
  return result.ok
    ? { index: result.index, reference, ok: true, result: result.result, error: null }
    : { index: result.index, reference, ok: false, result: null, error: { code: result.error.code, message: result.error.message } };
}
