/**
 * The fields through which the valuations subgraph reaches a valuation subgraph's records (issue
 * 19), made per kind (`<kind>ValuationRecord`, `<kind>ValuationRecords`, `<kind>ValuationRecordIds`,
 * `revalue<Kind>Record`). @inaccessible: in no client's schema; the valuations subgraph answers
 * clients with its own types. Records are never read without the organisation they belong to.
 */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Directive, Int, Mutation, Query, Resolver } from 'type-graphql';
import { callingOrganisation, withApiErrors } from './bulk';
import { titleOf } from './valuing-peers';
import type { RecordCaller, ValuationRecorder } from './valuation-recorder';
import type { ValuationRecord } from './valuation-records';

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
    @Query(() => [String], { name: `${kind}ValuationRecordIds`, description: `Internal: the ids of the calling organisation's ${kind} valuation records made within since…until` })
    ids(@Arg('since', () => String) since: string, @Arg('until', () => String) until: string, @Ctx() context: C): Promise<string[]> {
      return context.records.ids(organisationOf(context), { since, until });
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
