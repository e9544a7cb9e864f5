/**
 * Backtest operations (issue 31): a backtest is a batch job whose items are observed prices
 * (./backtest-items.ts), so it is submitted, filled, followed (batchJob, batchProgress) and
 * cancelled as any job, and this adds what differs: its kind, its items, and its report.
 */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { backtestJobType, backtestKindOf, type BacktestItem } from './backtest-items';
import { AppendBacktestObservationsArgs, Backtest, BacktestKind, OpenBacktestInput, SubmitBacktestInput } from './backtest-types';
import type { BatchContext } from './context';
import { batchError } from './errors';
import { withApiErrors } from '../common/errors';
import type { BatchJob as JobRecord } from '../../platform/batch-engine';
import { appendToJob, asClient, caller, checkSubmissionSize, jobView, notFound } from './resolvers';

/** The job behind a Backtest, kept for its report's resolver. */
type BacktestView = Backtest & { record: JobRecord };

const itemsOf = (kind: BacktestKind, observations: Record<string, unknown>[]): BacktestItem[] => observations.map((observation) => ({ backtest: kind, observation }));

function backtestView(job: JobRecord): BacktestView | null {
  const kind = backtestKindOf(job.type);
  return kind && { id: job.id, kind: kind as BacktestKind, job: jobView(job), report: null, record: job };
}

@Resolver(() => Backtest)
export class BacktestResolver {
  @Mutation(() => Backtest, { description: "Replays prices your organisation observed against the model in service, as a batch job (follow it with batchProgress(id)); over the plan's maxBatchItems: INVALID_PARAMETER on observations" })
  submitBacktest(@Arg('input', () => SubmitBacktestInput) input: SubmitBacktestInput, @Ctx() ctx: BatchContext): Promise<Backtest> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      checkSubmissionSize({ principal, batch }, input.observations.length, 'observations');
      const job = await asClient(() => batch.engine.submit(principal.org, itemsOf(input.kind, input.observations), { type: backtestJobType(input.kind), chunkSize: input.chunkSize ?? undefined }), 'chunkSize');
      return backtestView(job)!;
    }, batchError);
  }

  @Mutation(() => Backtest, { description: 'Opens a backtest to fill with appendBacktestObservations, for a file too large for one request; one that receives nothing for the submission timeout is failed as cut off' })
  openBacktest(@Arg('input', () => OpenBacktestInput) input: OpenBacktestInput, @Ctx() ctx: BatchContext): Promise<Backtest> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await asClient(() => batch.engine.open(principal.org, { type: backtestJobType(input.kind), chunkSize: input.chunkSize ?? undefined }), 'chunkSize');
      return backtestView(job)!;
    }, batchError);
  }

  @Mutation(() => Backtest, { description: "Adds the next observations to a backtest opened by openBacktest; last: true seals it. Every call but the last carries a multiple of its chunkSize. An unknown id, or a job that is not a backtest: NOT_FOUND" })
  appendBacktestObservations(@Args(() => AppendBacktestObservationsArgs) { id, observations, last }: AppendBacktestObservationsArgs, @Ctx() ctx: BatchContext): Promise<Backtest> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const open = await batch.engine.get(principal.org, id);
      const kind = open && backtestKindOf(open.type);
      if (!kind) throw notFound(id);
      return backtestView(await appendToJob({ principal, batch }, id, itemsOf(kind as BacktestKind, observations), last, 'observations'))!;
    }, batchError);
  }

  @Query(() => Backtest, { nullable: true, description: 'A backtest of your organisation, with its report once it has completed; null for an unknown id (or a job that is not a backtest)' })
  backtest(@Arg('id', () => ID) id: string, @Ctx() ctx: BatchContext): Promise<Backtest | null> {
    return withApiErrors(async () => {
      const { principal, batch } = caller(ctx);
      const job = await batch.engine.get(principal.org, id);
      return job ? backtestView(job) : null;
    }, batchError);
  }

  @FieldResolver(() => GraphQLJSONObject, { nullable: true })
  report(@Root() backtest: BacktestView, @Ctx() ctx: BatchContext): Promise<Record<string, unknown> | null> {
    return withApiErrors(async () => {
      if (backtest.record.status !== 'completed') return null;
      const { principal, batch } = caller(ctx);
      if (!batch.backtests) throw new ApiError('SERVICE_UNAVAILABLE', 'Backtest reports are not served here');
      return (await batch.backtests.reportOf(principal.org, backtest.record, backtest.kind)) as unknown as Record<string, unknown>;
    }, batchError);
  }
}
