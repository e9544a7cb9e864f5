/** GraphQL types of backtests (issue 31): a batch job whose items are observed prices, and its report. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BatchJob } from './graphql-types';

export enum BacktestKind {
  HOME = 'home',
  VEHICLE = 'vehicle',
}
registerEnumType(BacktestKind, { name: 'BacktestKind', description: 'What the observed prices are of: homes (flats and houses) or vehicles' });

const OBSERVATIONS_DESCRIPTION = 'Observed prices, each as recordObservations takes one (ObservationInput: kind, home or vehicle fields, priceUsd, observedAt, priceType, reference), all of the backtest\'s kind. A bad one is refused in its place (a failed item of the job); nothing is kept';

@InputType({ description: "Prices your organisation observed on past dates, to replay against the model in service: each valued at its own date, and re-anchored on the ones observed before it only. The plan's maxBatchItems bounds its size" })
export class SubmitBacktestInput {
  @Field(() => BacktestKind) kind!: BacktestKind;
  @Field(() => [GraphQLJSONObject], { description: OBSERVATIONS_DESCRIPTION }) observations!: Record<string, unknown>[];
  @Field(() => Int, { nullable: true, description: 'Observations per chunk, 1 to 10000 (default 1000): the unit of work and of retry' }) chunkSize?: number | null;
}

@InputType({ description: 'A backtest to fill in several calls (appendBacktestObservations): for files too large for one request' })
export class OpenBacktestInput {
  @Field(() => BacktestKind) kind!: BacktestKind;
  @Field(() => Int, { nullable: true, description: 'Observations per chunk, 1 to 10000 (default 1000); every append but the last carries a multiple of it' }) chunkSize?: number | null;
}

@ArgsType()
export class AppendBacktestObservationsArgs {
  @Field(() => ID, { description: 'A backtest of yours opened by openBacktest and not yet sealed' }) id!: string;
  @Field(() => [GraphQLJSONObject], { description: OBSERVATIONS_DESCRIPTION }) observations!: Record<string, unknown>[];
  @Field({ description: 'The final part: the backtest is sealed after these and takes no more' }) last!: boolean;
}

@ObjectType({ description: 'A backtest: a batch job scoring observed prices with the model in service (its progress is batchProgress(id)), then their replay' })
export class Backtest {
  @Field(() => ID) id!: string;
  @Field(() => BacktestKind) kind!: BacktestKind;
  @Field(() => BatchJob, { description: 'The scoring job: status, counts, times' }) job!: BatchJob;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'Once the job has completed (null before): observations replayed, from, to, fits, overall, byMonth, byGroup, byConfidence (each { modelAlone, reanchored } with n, medianApe, within10, bias { median, ci95 }, coverage { share, covered, bounds95 }, medianWidth), rows (one per observation), submitted, refused { count, items }, modelVersions',
  })
  report!: Record<string, unknown> | null;
}
