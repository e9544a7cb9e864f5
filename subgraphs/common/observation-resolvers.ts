/**
 * The fields through which the observations subgraph reaches a valuation subgraph's book (issue 18),
 * made per kind (`record<Kind>Observations`, `<kind>Observations`, `<kind>ObservationModel`), and
 * `score<Kind>Observations`, through which the batch subgraph scores a backtest's items without keeping them.
 * @inaccessible: in no client's schema; the observations subgraph calls them on the subgraph itself
 * and answers clients with its own types. JSON both ways: the items' fields are checked here one by
 * one, so that a bad item is refused in its place instead of failing the call.
 */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Directive, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { ObservationModel } from '../../models/observations';
import { ApiError } from '../../schema/errors';
import { callingOrganisation, itemError, withApiErrors } from './bulk';
import { titleOf } from './valuing-peers';
import type { LiveAccuracyReport } from './live-accuracy';
import type { ObservationBook } from './observation-book';
import { recordObservations, type ObservationItem, type ObservationOutcome, type ScoredItem } from './observation-recording';
import type { StoredObservation } from './observation-store';

/** The most items one call takes; the observations subgraph sends larger uploads in parts. */
export const MAX_OBSERVATIONS_PER_CALL = 10_000;

export interface ObservationContext {
  /** The caller's organisation (x-organisation); null for none. */
  organisation: string | null;
  observations: ObservationBook;
}

export interface ObservationResolverOptions<C extends ObservationContext> {
  /** 'home' or 'vehicle': the fields are named after it. */
  kind: 'home' | 'vehicle';
  /** Values the items at their dates with the model alone. */
  score(context: C): (items: readonly ObservationItem[]) => Promise<(ScoredItem | ApiError)[]>;
}

/** What became of one scored item: the model's valuation at its date and its groups, or why it has none. */
export interface ScoredOutcome {
  index: number;
  scored: Pick<ScoredItem, 'base' | 'groups'> | null;
  error: ReturnType<typeof itemError> | null;
}

export function createObservationResolver<C extends ObservationContext>({ kind, score }: ObservationResolverOptions<C>) {
  const Kind = titleOf(kind);

  @Resolver()
  class ObservationResolver {
    @Directive('@inaccessible')
    @Mutation(() => [GraphQLJSONObject], { name: `record${Kind}Observations`, description: `Internal (the observations subgraph): scores observed ${kind} prices at their dates and stores them for the calling organisation; one { index, id, error } per item` })
    record(@Arg('observations', () => [GraphQLJSONObject]) observations: Record<string, unknown>[], @Ctx() context: C): Promise<ObservationOutcome[]> {
      return withApiErrors(() => {
        if (observations.length > MAX_OBSERVATIONS_PER_CALL) throw new ApiError('INVALID_PARAMETER', `at most ${MAX_OBSERVATIONS_PER_CALL} observations per call`, 'observations');
        return recordObservations(context.observations, organisationOf(context), observations.map(toItem), score(context));
      });
    }

    @Directive('@inaccessible')
    @Query(() => Int, { name: `${kind}ObservationCount`, description: `Internal: how many observed ${kind} prices the calling organisation keeps (its plan's storage quota counts them)` })
    count(@Ctx() context: C): Promise<number> {
      return context.observations.count(organisationOf(context));
    }

    @Directive('@inaccessible')
    @Mutation(() => [String], { name: `retract${Kind}Observations`, description: `Internal (the observations subgraph): removes the calling organisation's observed ${kind} prices with these ids and refits; the ids it held (others are not its own, or not ${kind}s)` })
    retract(@Arg('ids', () => [String]) ids: string[], @Ctx() context: C): Promise<string[]> {
      return withApiErrors(() => context.observations.retract(organisationOf(context), ids));
    }

    @Directive('@inaccessible')
    @Query(() => [GraphQLJSONObject], { name: `score${Kind}Observations`, description: `Internal (the batch subgraph's backtests): values observed ${kind} prices at their dates with the model alone and keeps nothing; one { index, scored { base, groups }, error } per item` })
    scoreOnly(@Arg('observations', () => [GraphQLJSONObject]) observations: Record<string, unknown>[], @Ctx() context: C): Promise<ScoredOutcome[]> {
      return withApiErrors(async () => {
        if (observations.length > MAX_OBSERVATIONS_PER_CALL) throw new ApiError('INVALID_PARAMETER', `at most ${MAX_OBSERVATIONS_PER_CALL} observations per call`, 'observations');
        organisationOf(context); // scored for an organisation's job only, as recording is
        const scored = await score(context)(observations.map(toItem));
        return scored.map((result, index) => (result instanceof ApiError ? { index, scored: null, error: itemError(result) } : { index, scored: { base: result.base, groups: result.groups }, error: null }));
      });
    }

    @Directive('@inaccessible')
    @Query(() => [GraphQLJSONObject], { name: `${kind}Observations`, description: `Internal: the calling organisation's observed ${kind} prices, newest first` })
    list(
      @Arg('since', () => String, { nullable: true }) since: string | null,
      @Arg('until', () => String, { nullable: true }) until: string | null,
      @Arg('limit', () => Int, { nullable: true }) limit: number | null,
      @Arg('offset', () => Int, { nullable: true }) offset: number | null,
      @Ctx() context: C,
    ): Promise<StoredObservation[]> {
      return context.observations.list(organisationOf(context), { since: since ?? undefined, until: until ?? undefined, limit: limit ?? undefined, offset: offset ?? undefined });
    }

    @Directive('@inaccessible')
    @Query(() => GraphQLJSONObject, { name: `${kind}LiveAccuracy`, description: `Internal: the calling organisation's live accuracy on its observed ${kind} prices, with drift verdicts` })
    liveAccuracy(
      @Arg('since', () => String, { nullable: true }) since: string | null,
      @Arg('level', () => String) level: string,
      @Ctx() context: C,
    ): Promise<LiveAccuracyReport> {
      return withApiErrors(() => context.observations.liveAccuracy(organisationOf(context), since ?? null, level));
    }

    @Directive('@inaccessible')
    @Query(() => GraphQLJSONObject, { name: `${kind}ObservationModel`, nullable: true, description: `Internal: the calling organisation's fitted observation model for ${kind}s (factors and recalibration), null without observations` })
    model(@Ctx() context: C): Promise<ObservationModel | null> {
      return context.observations.model(organisationOf(context));
    }
  }
  return ObservationResolver;
}

/** Observations are never read or written without the organisation they belong to. */
function organisationOf(context: { organisation: string | null }): string {
  return callingOrganisation(context.organisation, 'observations');
}

/** An item as the observations subgraph sends it, its envelope already checked there. */
function toItem(item: Record<string, unknown>): ObservationItem {
  return {
    fields: (item.fields ?? {}) as Record<string, unknown>,
    priceUsd: item.priceUsd as number,
    observedAt: item.observedAt as string,
    priceType: item.priceType as ObservationItem['priceType'],
    reference: (item.reference ?? null) as string | null,
  };
}
