/**
 * The fields through which the valuations subgraph reaches a valuation subgraph's records (issue
 * 19), made per kind (`<kind>ValuationRecord`, `<kind>ValuationRecords`, `<kind>ValuationRecordSample`,
 * `revalue<Kind>Record`). @inaccessible: in no client's schema; the valuations subgraph answers
 * clients with its own types. Records are never read without the organisation they belong to.
 */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Directive, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { callingOrganisation, withApiErrors } from './bulk';
import { titleOf } from './valuing-peers';
import type { RecordCaller, ValuationRecorder } from './valuation-recorder';
import type { RecordSample, ValuationRecord } from './valuation-records';

/** The most ids one sample field answers (the valuations subgraph asks for at most its own maximum). */
const MAX_SAMPLED = 10_000;

export interface RecordContext {
  organisation: string | null;
  records: ValuationRecorder;
  caller: RecordCaller;
}

/** A record valued again with the model in service: the new record, and the model's own estimates (no adjustment) now and at the old record's date. */
export interface Revalued {
  current: ValuationRecord | null;
  /** The model in service at the old valuation's date: what the model change alone did. */
  modelAtThen: number;
  /** The model in service today, before the organisation's adjustment. */
  modelNow: number;
}

export interface RecordResolverOptions<C extends RecordContext> {
  kind: 'home' | 'vehicle';
  /** Values the record's request again, today, as a fresh valuation (recorded), and at its old date. */
  revalue(context: C, record: ValuationRecord): Promise<{ valuationId: string | null; modelAtThen: number; modelNow: number }>;
}

export function createRecordResolver<C extends RecordContext>({ kind, revalue }: RecordResolverOptions<C>) {
  const Kind = titleOf(kind);

  @Resolver()
  class RecordResolver {
    @Directive('@inaccessible')
    @Query(() => GraphQLJSONObject, { name: `${kind}ValuationRecord`, nullable: true, description: `Internal: one of the calling organisation's ${kind} valuation records` })
    record(@Arg('id', () => String) id: string, @Ctx() context: C): Promise<ValuationRecord | null> {
      return context.records.get(organisationOf(context), id);
    }

    @Directive('@inaccessible')
    @Query(() => [GraphQLJSONObject], { name: `${kind}ValuationRecords`, description: `Internal: the calling organisation's ${kind} valuation records, newest first` })
    list(
      @Arg('since', () => String, { nullable: true }) since: string | null,
      @Arg('until', () => String, { nullable: true }) until: string | null,
      @Arg('before', () => String, { nullable: true }) before: string | null,
      @Arg('limit', () => Int) limit: number,
      @Ctx() context: C,
    ): Promise<ValuationRecord[]> {
      return context.records.list(organisationOf(context), { since: since ?? undefined, until: until ?? undefined, before: before ?? undefined, limit });
    }

    @Directive('@inaccessible')
    @Query(() => GraphQLJSONObject, {
      name: `${kind}ValuationRecordSample`,
      description: `Internal: a seeded sample of the calling organisation's ${kind} valuation records made within since…until: { population, ids }, the n ids of smallest SHA-256(seed ':' id), smallest first, drawn by the store`,
    })
    sample(
      @Arg('since', () => String) since: string,
      @Arg('until', () => String) until: string,
      @Arg('n', () => Int) n: number,
      @Arg('seed', () => String) seed: string,
      @Ctx() context: C,
    ): Promise<RecordSample> {
      return withApiErrors(() => {
        if (!(n >= 0 && n <= MAX_SAMPLED)) throw new ApiError('INVALID_PARAMETER', `n must be 0 to ${MAX_SAMPLED}`, 'n');
        return context.records.sample(organisationOf(context), { since, until }, n, seed);
      });
    }

    @Directive('@inaccessible')
    @Mutation(() => GraphQLJSONObject, { name: `revalue${Kind}Record`, nullable: true, description: `Internal: one of the calling organisation's ${kind} valuations valued again with the model in service (recorded), with the model's own estimates now and at its old date; null for no such record` })
    revalue(@Arg('id', () => String) id: string, @Ctx() context: C): Promise<{ previous: ValuationRecord; revalued: Revalued } | null> {
      return withApiErrors(async () => {
        const org = organisationOf(context);
        const previous = await context.records.get(org, id);
        if (!previous) return null;
        const { valuationId, modelAtThen, modelNow } = await revalue(context, previous);
        const current = valuationId === null ? null : await context.records.get(org, valuationId);
        return { previous, revalued: { current, modelAtThen, modelNow } };
      });
    }
  }
  return RecordResolver;
}

function organisationOf(context: { organisation: string | null }): string {
  return callingOrganisation(context.organisation, 'valuation records');
}
