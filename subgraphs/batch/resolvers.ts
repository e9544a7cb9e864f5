/** Batch job operations: thin glue from GraphQL to the batch engine, as the caller's organisation. */
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { resultsPath, type BatchApi } from './api';
import type { BatchContext, Principal } from './context';
import { withClientErrors } from './errors';
import { InvalidBatchOptionsError, type BatchJob as JobRecord, type ItemResult } from './engine';
import { BatchItemResult, BatchJob, BatchJobPage, BatchJobStatus, BatchResultPage, BatchResultsArgs, PageArgs, SubmitBatchInput, type WebhookDelivery } from './graphql-types';
import { validateCallbackUrl, type DeliveryAttempt } from './webhooks';

const DEFAULT_RESULTS_LIMIT = 100;
const MAX_RESULTS_LIMIT = 1000;

/** The caller and the batch API, or the error a client may act on. */
function caller(ctx: BatchContext): { principal: Principal; batch: BatchApi } {
  if (!ctx.principal) throw new ApiError('INVALID_API_KEY', 'Batch jobs belong to an organisation: send your API key');
  return { principal: ctx.principal, batch: ctx.batch };
}

const notFound = (id: string) => new ApiError('NOT_FOUND', `No batch job ${id}`, 'id');

/** The engine's option errors (chunk size, page bounds) are the client's. */
async function asClient<T>(body: () => Promise<T>, field: string): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof InvalidBatchOptionsError) throw new ApiError('INVALID_PARAMETER', error.message, field);
    throw error;
  }
}

@Resolver(() => BatchJob)
export class BatchResolver {
  @Mutation(() => BatchJob, { description: "Submits addresses (optionally with homes) for background valuation; over the plan's maxBatchItems: INVALID_PARAMETER on items" })
  submitBatch(@Arg('input', () => SubmitBatchInput) input: SubmitBatchInput, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withClientErrors(async () => {
      const { principal, batch } = caller(ctx);
      const limit = batch.maxBatchItems(principal.plan);
      if (input.items.length === 0) throw new ApiError('MISSING_PARAMETER', 'items must hold at least one item', 'items');
      if (input.items.length > limit) {
        throw new ApiError('INVALID_PARAMETER', `The ${principal.plan} plan allows at most ${limit} items per batch (got ${input.items.length}); split the portfolio`, 'items');
      }
      const callbackUrl = input.callbackUrl ?? undefined;
      if (callbackUrl !== undefined) {
        const check = await validateCallbackUrl(callbackUrl, batch.callbackPolicy);
        if (!check.ok) throw check.error;
      }
      const items = input.items.map((item) => (item.home ? { address: item.address, home: item.home } : { address: item.address }));
      const job = await asClient(() => batch.engine.submit(principal.org, items, { callbackUrl, chunkSize: input.chunkSize ?? undefined }), 'chunkSize');
      return jobView(job);
    });
  }

  @Query(() => BatchJob, { nullable: true, description: 'A batch job of your organisation; null for an unknown id' })
  batchJob(@Arg('id', () => ID) id: string, @Ctx() ctx: BatchContext): Promise<BatchJob | null> {
    return withClientErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await batch.engine.get(principal.org, id);
      return job ? jobView(job) : null;
    });
  }

  @Query(() => BatchJobPage, { description: "Your organisation's batch jobs, newest first" })
  batchJobs(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: BatchContext): Promise<BatchJobPage> {
    return withClientErrors(async () => {
      const { principal, batch } = caller(ctx);
      const listed = await asClient(() => batch.engine.list(principal.org, { offset: page.offset ?? undefined, limit: page.limit ?? undefined }), 'limit');
      return { jobs: listed.jobs.map((job) => jobView(job, true)), nextOffset: listed.nextOffset };
    });
  }

  @Query(() => BatchResultPage, { description: `A job's item results recorded so far, in item order (limit default ${DEFAULT_RESULTS_LIMIT}, at most ${MAX_RESULTS_LIMIT}); an unknown id: NOT_FOUND` })
  batchResults(@Args(() => BatchResultsArgs) { id, offset, limit }: BatchResultsArgs, @Ctx() ctx: BatchContext): Promise<BatchResultPage> {
    return withClientErrors(async () => {
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
    });
  }

  @Query(() => String, {
    description:
      "Your organisation's Standard Webhooks signing secret (whsec_…): batch.completed webhooks carry webhook-id, webhook-timestamp and webhook-signature headers, which any Standard Webhooks library verifies with it",
  })
  batchWebhookSecret(@Ctx() ctx: BatchContext): Promise<string> {
    return withClientErrors(async () => {
      const { principal, batch } = caller(ctx);
      return batch.secrets.secretFor(principal.org);
    });
  }

  @Mutation(() => BatchJob, { description: 'Cancels a queued or running job (one that has ended is returned as it is); an unknown id: NOT_FOUND' })
  cancelBatch(@Arg('id', () => ID) id: string, @Ctx() ctx: BatchContext): Promise<BatchJob> {
    return withClientErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await batch.engine.cancel(principal.org, id);
      if (!job) throw notFound(id);
      return jobView(job);
    });
  }
}

/** `listed`: from a page of jobs, which carries no deliveries. */
function jobView(job: JobRecord, listed = false): BatchJob {
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
    resultsUrl: resultsPath(job.id),
    error: job.error ?? null,
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
  return result.ok
    ? { index: result.index, ok: true, result: result.result, error: null }
    : { index: result.index, ok: false, result: null, error: { code: result.error.code, message: result.error.message } };
}
