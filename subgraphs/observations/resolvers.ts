/**
 * The observations subgraph's operations: each item's envelope is checked here, then the items of
 * each kind go to the subgraph that values that kind (record<Kind>Observations, @inaccessible),
 * which scores them at their dates and keeps them for the organisation.
 */
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MIN_WIDTH_RATIO, type LiveAccuracy, type ObservationModel } from '../../models/observations';
import type { AccuracyWithDrift, LiveAccuracyReport as LiveAccuracyReportData } from '../common/live-accuracy';
import { ApiError } from '../../schema/errors';
import { getPlan } from '../../platform/plans';
import { toGraphQLError, withApiErrors } from '../common/errors';
import { countArgument } from '../common/arguments';
import type { StoredObservation } from '../common/observation-store';
import type { ObservationsContext } from './context';
import { checkDate, checkObservation, type ForwardedItem } from '../common/observation-envelope';
import { MAX_REJECTED_LISTED } from '../../schema/observations-contract';
import { LiveAccuracyReport, MarketAdjustments, Observation, type AccuracyMeasures, ObservationKindEnum, RecordObservationsInput, RecordObservationsResult, RetractObservationsResult, type AcceptedObservation, type RejectedObservation } from './types';

/** The most items one call to a valuation subgraph carries (its own limit). */
const PART = 10_000;
const DEFAULT_LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 10_000;
/** The most ids one retraction names. */
const MAX_RETRACTED_IDS = 1_000;
/** An observation id as recorded (observation-recording.ts: obs_, time in base 36, 16 hex digits). */
const OBSERVATION_ID = /^obs_[0-9a-z]{9}[0-9a-f]{16}$/;

@Resolver()
export class ObservationResolver {
  @Mutation(() => RecordObservationsResult, { description: "Records prices the organisation observed (sales, appraisals, listings). Each is scored against the model at its date and kept for the organisation only; its valuations of the same kind are re-anchored on them at once. A bad item is refused in its place, the others kept. Up to the plan's batch size per call." })
  recordObservations(@Arg('input', () => RecordObservationsInput) input: RecordObservationsInput, @Ctx() ctx: ObservationsContext): Promise<RecordObservationsResult> {
    return withApiErrors(async () => {
      const principal = principalOf(ctx);
      const limit = getPlan(principal.plan).maxBatchItems;
      if (input.observations.length > limit) throw new ApiError('INVALID_PARAMETER', `at most ${limit.toLocaleString('en')} observations per call on the ${principal.plan} plan (got ${input.observations.length.toLocaleString('en')})`, 'observations');
      const today = new Date(ctx.clock()).toISOString().slice(0, 10);
      const rejected: RejectedObservation[] = [];
      const accepted: AcceptedObservation[] = [];
      const byKind = new Map<ObservationKindEnum, { index: number; item: ForwardedItem }[]>();
      input.observations.forEach((observation, index) => {
        try {
          const item = checkObservation(observation, today, ctx.retentionDays);
          const items = byKind.get(observation.kind);
          if (items) items.push({ index, item });
          else byKind.set(observation.kind, [{ index, item }]);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          rejected.push({ index, reference: observation.reference ?? null, error: { code: error.code, message: error.message, field: error.field ?? null } });
        }
      });
      for (const [kind, items] of byKind) {
        await checkStorageQuota(ctx, principal, kind, items.length);
        for (let start = 0; start < items.length; start += PART) {
          const part = items.slice(start, start + PART);
          const outcomes = await ctx.record(kind, principal.org, ctx.requestId, part.map((p) => p.item));
          for (const outcome of outcomes) {
            const { index, item } = part[outcome.index];
            if (outcome.id) accepted.push({ index, id: outcome.id, reference: item.reference });
            else rejected.push({ index, reference: item.reference, error: outcome.error! });
          }
        }
      }
      accepted.sort((a, b) => a.index - b.index);
      rejected.sort((a, b) => a.index - b.index);
      return { accepted: accepted.length, acceptedObservations: accepted, rejected: rejected.slice(0, MAX_REJECTED_LISTED), rejectedCount: rejected.length };
    });
  }

  @Mutation(() => RetractObservationsResult, { description: `Removes the organisation's observations with these ids (up to ${MAX_RETRACTED_IDS.toLocaleString('en')} a call), of either kind, and re-fits its adjustments at once: its valuations are then as if they had never been recorded. Another organisation's ids are never found (notFound), as unknown ones.` })
  retractObservations(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: ObservationsContext): Promise<RetractObservationsResult> {
    return withApiErrors(async () => {
      const { org } = principalOf(ctx);
      if (ids.length === 0) throw new ApiError('MISSING_PARAMETER', 'ids must name at least one observation', 'ids');
      if (ids.length > MAX_RETRACTED_IDS) throw new ApiError('INVALID_PARAMETER', `at most ${MAX_RETRACTED_IDS.toLocaleString('en')} ids per call`, 'ids');
      // An id that no store could hold is not found without asking: it cannot be anyone's.
      const removed = new Set<string>();
      for (const kind of [ObservationKindEnum.HOME, ObservationKindEnum.VEHICLE]) {
        const asked = [...new Set(ids.filter((id) => OBSERVATION_ID.test(id) && !removed.has(id)))]; // the vehicles' subgraph is asked for what homes did not hold
        if (asked.length === 0) break;
        for (const id of await ctx.retract(kind, org, ctx.requestId, asked)) removed.add(id);
      }
      const retractedIds = [...new Set(ids)].filter((id) => removed.has(id));
      return { retracted: retractedIds.length, retractedIds, notFound: [...new Set(ids)].filter((id) => !removed.has(id)) };
    });
  }

  @Query(() => [Observation], { description: "The organisation's observed prices of a kind, newest observedAt first, each with the model's valuation at its date" })
  observations(
    @Arg('kind', () => ObservationKindEnum) kind: ObservationKindEnum,
    @Arg('since', () => String, { nullable: true, description: 'YYYY-MM-DD: observed on or after' }) since: string | null,
    @Arg('limit', () => Int, { nullable: true, description: `Default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}` }) limit: number | null,
    @Arg('until', () => String, { nullable: true, description: 'YYYY-MM-DD: observed on or before' }) until: string | null,
    @Arg('offset', () => Int, { nullable: true, description: 'Skip this many first (paging; default 0). Pages read while observations are recorded may repeat one, never miss one' }) offset: number | null,
    @Ctx() ctx: ObservationsContext,
  ): Promise<Observation[]> {
    return withApiErrors(async () => {
      if (since != null) checkDate(since, 'since');
      if (until != null) checkDate(until, 'until');
      const wanted = countArgument(limit, 'limit', DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const skip = offset ?? 0;
      if (!Number.isInteger(skip) || skip < 0) throw new ApiError('INVALID_PARAMETER', 'offset must be a whole number ≥ 0', 'offset');
      const records = await ctx.list(kind, principalOf(ctx).org, ctx.requestId, { since: since ?? null, until: until ?? null, limit: wanted, offset: skip });
      return records.map((r) => toObservation(r, kind));
    });
  }

  @Query(() => LiveAccuracyReport, { description: "The organisation's live accuracy: its observations scored against the valuations the service gave (and the model alone), overall and per group, with drift flags (driftRule)" })
  liveAccuracy(
    @Arg('kind', () => ObservationKindEnum) kind: ObservationKindEnum,
    @Arg('since', () => String, { nullable: true, description: 'YYYY-MM-DD: observed on or after (default: every kept observation)' }) since: string | null,
    @Arg('level', () => String, { nullable: true, description: 'The groups: district (default) or segment for homes, make (default) or model for vehicles' }) level: string | null,
    @Ctx() ctx: ObservationsContext,
  ): Promise<LiveAccuracyReport> {
    return withApiErrors(async () => {
      if (since != null) checkDate(since, 'since');
      const levels = kind === ObservationKindEnum.HOME ? ['district', 'segment'] : ['make', 'model'];
      if (level != null && !levels.includes(level)) throw new ApiError('INVALID_PARAMETER', `level must be ${levels.join(' or ')} for kind ${kind.toUpperCase()}`, 'level');
      const report = await ctx.liveAccuracy(kind, principalOf(ctx).org, ctx.requestId, since ?? null, level ?? levels[0]);
      return toLiveAccuracyReport(report, kind);
    });
  }

  @Query(() => MarketAdjustments, { nullable: true, description: "The market factors and interval calibration the organisation's observations of a kind give its valuations (null while it has none)" })
  marketAdjustments(@Arg('kind', () => ObservationKindEnum) kind: ObservationKindEnum, @Ctx() ctx: ObservationsContext): Promise<MarketAdjustments | null> {
    return withApiErrors(async () => {
      const model = await ctx.model(kind, principalOf(ctx).org, ctx.requestId);
      return model && toMarketAdjustments(model, kind);
    });
  }
}

/**
 * Refuses a call that would take the organisation past the observations of a kind its plan keeps
 * (issue 33, finding 8), before any is scored. Counted before the call: calls at once may together
 * pass the quota by what they bring.
 */
async function checkStorageQuota(ctx: ObservationsContext, principal: { org: string; plan: string }, kind: ObservationKindEnum, adding: number): Promise<void> {
  const quota = getPlan(principal.plan).maxStoredObservations;
  if (quota === undefined) return;
  const kept = await ctx.count(kind, principal.org, ctx.requestId);
  if (kept + adding <= quota) return;
  throw new ApiError('OBSERVATION_QUOTA_EXCEEDED', `the ${principal.plan} plan keeps at most ${quota.toLocaleString('en')} observations of ${kind}s; ${kept.toLocaleString('en')} are kept and this call brings ${adding.toLocaleString('en')} more: none of them was recorded. Retract some (DELETE /api/observations/{id}, retractObservations) or wait for the oldest to pass the retention`, 'observations');
}

/** A group's recalibrated width for a valuation within the model's data: its quantile, floored as ./adjust applies it. */
function recalibratedWidthRatio(q: number | undefined): number | null {
  return q === undefined ? null : Math.max(q, MIN_WIDTH_RATIO);
}

function principalOf(ctx: ObservationsContext): { org: string; plan: string } {
  if (!ctx.principal) throw toGraphQLError(new ApiError('INVALID_API_KEY', 'observations need the calling organisation'));
  return ctx.principal;
}

function toMeasures(a: LiveAccuracy): AccuracyMeasures {
  return {
    observations: a.n, effectiveObservations: a.effectiveN, medianApe: a.medianApe, within10: a.within10,
    medianBias: a.bias.medianLogResidual, meanBias: a.bias.weightedMeanLogResidual, meanBiasLow: a.bias.ci95?.low ?? null, meanBiasHigh: a.bias.ci95?.high ?? null,
    coverage: a.coverage.share, coverageLow: a.coverage.bounds95.low, coverageHigh: a.coverage.bounds95.high,
  };
}

function toLiveAccuracyReport(report: LiveAccuracyReportData, kind: ObservationKindEnum): LiveAccuracyReport {
  const group = (name: string, g: AccuracyWithDrift) => ({ group: name, service: toMeasures(g.service), base: toMeasures(g.base), drift: g.drift });
  const { rule } = report;
  return {
    kind, asOf: report.asOf, since: report.since, level: report.level,
    overall: report.overall && group('all', report.overall),
    groups: report.groups.map((g) => group(g.group, g)),
    driftRule: `With at least ${rule.minObservations} observations in the window: bias is flagged when the 95% interval of the recency-weighted mean log(price / valuation) lies wholly outside ±${rule.biasBand}; coverage when the Wilson 95% interval of the 90% intervals' coverage lies wholly outside ${rule.coverageBand.low}–${rule.coverageBand.high}.`,
  };
}

function toObservation(record: StoredObservation, kind: ObservationKindEnum): Observation {
  const levels = Object.values(record.groups).filter((g): g is string => g !== null);
  return {
    id: record.id, kind, observedAt: record.observedAt, recordedAt: record.recordedAt, priceUsd: record.priceUsd,
    priceType: record.priceType as Observation['priceType'], reference: record.reference, groups: levels,
    baseEstimate: record.base?.estimate ?? null, baseLow: record.base?.low ?? null, baseHigh: record.base?.high ?? null, modelVersion: record.base?.modelVersion ?? null,
    input: record.input,
  };
}

function toMarketAdjustments(model: ObservationModel, kind: ObservationKindEnum): MarketAdjustments {
  const groups = Object.values(model.adjustments.groups)
    .sort((a, b) => a.level - b.level || a.key.localeCompare(b.key))
    .map((g) => ({
      group: g.key, level: model.hierarchy.levels[g.level] ?? String(g.level), factor: Math.exp(g.factor), observations: g.observations,
      effectiveObservations: g.effectiveN, shrinkage: g.shrinkageWeight, intervalWidthRatio: recalibratedWidthRatio(model.recalibration.groups[g.key]?.q),
    }));
  return {
    kind, asOf: model.asOf, observations: model.observations, halfLifeDays: model.halfLifeDays, coverage: model.recalibration.coverage,
    minRecalibrationObservations: model.recalibration.minEffectiveN, groups,
  };
}

