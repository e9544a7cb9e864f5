/**
 * The valuations subgraph's operations (issue 19): one record by id, pages of records, a random
 * sample of a period for review, and a record valued again with the model in service. The records
 * live with the subgraph that valued them (residential: homes, vehicle: vehicles); this one asks
 * them through the graph and merges kinds.
 */
import { randomBytes } from 'node:crypto';
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { callingOrganisation, withApiErrors } from '../common/bulk';
import { countArgument } from '../common/arguments';
import { isRecordId, smallestBySampleKey, type ValuationRecord } from '../common/valuation-records';
import type { ValuationsContext } from './context';
import { periodDays } from './period';
import { Revaluation, ValuationKindEnum, ValuationPage, ValuationRecordType, ValuationSample, type ValuationChange } from './types';

const KINDS = [ValuationKindEnum.HOME, ValuationKindEnum.VEHICLE];
const DEFAULT_PAGE = 50;
const MAX_PAGE = 1000;
const DEFAULT_SAMPLE = 20;
const MAX_SAMPLE = 200;

@Resolver()
export class ValuationRecordResolver {
  @Query(() => ValuationRecordType, { nullable: true, description: "One of the organisation's valuations by its valuation_id; null for an id it did not make (another organisation's included)" })
  valuation(@Arg('id', () => String) id: string, @Ctx() ctx: ValuationsContext): Promise<ValuationRecordType | null> {
    return withApiErrors(async () => {
      const { record } = await findRecord(ctx, id);
      return record && toRecordType(record);
    });
  }

  @Query(() => ValuationPage, { description: `The organisation's valuations, newest first: ${DEFAULT_PAGE} (at most ${MAX_PAGE}) a page; made since/until (YYYY-MM-DD, inclusive); before: the previous page's next` })
  valuations(
    @Arg('kind', () => ValuationKindEnum, { nullable: true }) kind: ValuationKindEnum | null,
    @Arg('since', () => String, { nullable: true }) since: string | null,
    @Arg('until', () => String, { nullable: true }) until: string | null,
    @Arg('before', () => String, { nullable: true }) before: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: ValuationsContext,
  ): Promise<ValuationPage> {
    return withApiErrors(async () => {
      organisationOf(ctx);
      if (since != null) periodDays(since, 'since');
      if (until != null) periodDays(until, 'until');
      if (before != null && !isRecordId(before)) throw new ApiError('INVALID_PARAMETER', 'before must be a valuation_id (val_…), the previous page\'s next', 'before');
      const wanted = countArgument(limit, 'limit', DEFAULT_PAGE, MAX_PAGE);
      const window = { since, until, before, limit: wanted };
      const pages = await Promise.all((kind ? [kind] : KINDS).map((k) => ctx.list(k, window)));
      // Ids sort as records were made: the newest of both kinds first.
      const records = pages.flat().sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, wanted);
      return { records: records.map(toRecordType), next: records.length === wanted ? records[records.length - 1].id : null };
    });
  }

  @Query(() => ValuationSample, { description: `A random sample of n (default ${DEFAULT_SAMPLE}, at most ${MAX_SAMPLE}) of the organisation's valuations made in a period (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD), for review; the same seed draws the same sample` })
  valuationSample(
    @Arg('period', () => String) period: string,
    @Arg('n', () => Int, { nullable: true }) n: number | null,
    @Arg('kind', () => ValuationKindEnum, { nullable: true }) kind: ValuationKindEnum | null,
    @Arg('seed', () => String, { nullable: true }) seed: string | null,
    @Ctx() ctx: ValuationsContext,
  ): Promise<ValuationSample> {
    return withApiErrors(async () => {
      organisationOf(ctx);
      const { since, until } = periodDays(period);
      const size = countArgument(n, 'n', DEFAULT_SAMPLE, MAX_SAMPLE);
      if (seed != null && (seed.length === 0 || seed.length > 64)) throw new ApiError('INVALID_PARAMETER', 'seed must be 1 to 64 characters', 'seed');
      const drawnWith = seed ?? randomBytes(6).toString('hex');
      const kinds = kind ? [kind] : KINDS;
      // Each kind's store draws its own n (the ids of smallest SHA-256(seed ':' id): common/valuation-records/record-sample.ts);
      // the n smallest of theirs are the sample of both, the same whatever order the kinds answer in. (Samples drawn with a
      // seed before issue 34 were a Fisher–Yates draw and come out differently now; the seed is reported with each sample,
      // and from now on it draws the same sample again.)
      const samples = await Promise.all(kinds.map(async (k) => ({ kind: k, sample: await ctx.sample(k, since, until, size, drawnWith) })));
      const drawn = smallestBySampleKey(drawnWith, size, samples.flatMap(({ kind: k, sample }) => sample.ids.map((id) => ({ kind: k, id }))));
      const records = await Promise.all(drawn.map(({ kind: k, id }) => ctx.record(k, id)));
      return {
        since,
        until,
        population: samples.reduce((sum, { sample }) => sum + sample.population, 0),
        seed: drawnWith,
        records: records.filter((r): r is ValuationRecord => r !== null).sort((a, b) => (a.id < b.id ? -1 : 1)).map(toRecordType),
      };
    });
  }

  @Mutation(() => Revaluation, { nullable: true, description: "One of the organisation's valuations valued again with the model in service, today (recorded in its turn), beside the old one with the change explained: the model's version, the market index and the organisation's observations. Null for an id it did not make" })
  revalueValuation(@Arg('id', () => String) id: string, @Ctx() ctx: ValuationsContext): Promise<Revaluation | null> {
    return withApiErrors(async () => {
      const { kind } = await findRecord(ctx, id);
      if (!kind) return null;
      const answer = await ctx.revalue(kind, id);
      if (!answer) return null;
      if (!answer.revalued.current) throw new ApiError('SERVICE_UNAVAILABLE', 'the new valuation could not be recorded (the record store did not answer); try again');
      return {
        previous: toRecordType(answer.previous),
        current: toRecordType(answer.revalued.current),
        change: changeOf(answer.previous, answer.revalued.current, answer.revalued),
      };
    });
  }
}

/**
 * The record and its kind. An id does not say its kind: the kinds' subgraphs are asked one after
 * the other, homes first, so that a home's record costs one lookup, not one per kind (a vehicle's
 * waits for the homes' answer; docs/ARCHITECTURE.md, "Reading valuation records").
 */
async function findRecord(ctx: ValuationsContext, id: string): Promise<{ record: ValuationRecord | null; kind: ValuationKindEnum | null }> {
  organisationOf(ctx);
  if (!isRecordId(id)) throw new ApiError('INVALID_PARAMETER', 'id must be a valuation_id: val_ and 26 letters and digits', 'id');
  for (const kind of KINDS) {
    const record = await ctx.record(kind, id);
    if (record) return { record, kind };
  }
  return { record: null, kind: null };
}

function organisationOf(ctx: ValuationsContext): string {
  return callingOrganisation(ctx.organisation, 'valuation records');
}

interface AnsweredValuation {
  estimate: number;
  currency: string;
  interval: { low: number; high: number };
  modelVersion: string;
  marketLevel: { valuationDate: string };
  marketAdjustment?: { baseEstimate: number; asOf: string; observationsUsed?: number } | null;
  /** Set when answered in soʻm: the USD/UZS rate it was converted at. */
  exchangeRate?: { usdToUzs: number } | null;
}

function toRecordType(record: ValuationRecord): ValuationRecordType {
  const v = record.valuation as unknown as AnsweredValuation;
  return {
    id: record.id,
    kind: record.kind as ValuationKindEnum,
    createdAt: record.createdAt,
    keepUntil: record.keepUntil,
    requestId: record.requestId,
    modelVersion: v.modelVersion,
    estimate: v.estimate,
    currency: v.currency,
    intervalLow: v.interval.low,
    intervalHigh: v.interval.high,
    valuationDate: v.marketLevel.valuationDate,
    input: record.input,
    valuation: record.valuation,
  };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)}%`;

/** What a valuation's re-anchoring stood on, in words (point in time: the observations up to its own date). */
function observationsBasis(v: AnsweredValuation): string {
  const a = v.marketAdjustment;
  if (!a) return 'none';
  return a.observationsUsed === undefined ? `fitted as of ${a.asOf}` : `${a.observationsUsed.toLocaleString('en')} observed by ${a.asOf}`;
}

/**
 * estimate now / before = model × market × observations × exchange rate (each a ratio; see
 * ValuationChange), up to rounding. The first three are taken in USD, the models' own currency
 * (the runtime's estimates are), the last is the soʻm rate's own move.
 */
function changeOf(previous: ValuationRecord, current: ValuationRecord, revalued: { modelAtThen: number; modelNow: number }): ValuationChange {
  const before = previous.valuation as unknown as AnsweredValuation;
  const now = current.valuation as unknown as AnsweredValuation;
  const rateOf = (v: AnsweredValuation) => v.exchangeRate?.usdToUzs ?? 1;
  const baseBefore = (before.marketAdjustment?.baseEstimate ?? before.estimate) / rateOf(before);
  const model = revalued.modelAtThen / baseBefore;
  const market = revalued.modelNow / revalued.modelAtThen;
  const observations = now.estimate / rateOf(now) / revalued.modelNow / (before.estimate / rateOf(before) / baseBefore);
  const exchangeRate = rateOf(now) / rateOf(before);
  const ratio = now.estimate / before.estimate;
  const parts = [
    before.modelVersion === now.modelVersion ? `the same model (${now.modelVersion}): ${pct(model)}` : `model ${before.modelVersion} → ${now.modelVersion}: ${pct(model)}`,
    `market from ${before.marketLevel.valuationDate} to ${now.marketLevel.valuationDate}: ${pct(market)}`,
    `your observed prices: ${pct(observations)} (${observationsBasis(before)} then, ${observationsBasis(now)} now)`,
    ...(now.currency === 'USD' ? [] : [`the USD/UZS rate: ${pct(exchangeRate)}`]),
  ];
  return {
    estimateBefore: before.estimate,
    estimateNow: now.estimate,
    ratio: round4(ratio),
    modelVersionBefore: before.modelVersion,
    modelVersionNow: now.modelVersion,
    valuationDateBefore: before.marketLevel.valuationDate,
    valuationDateNow: now.marketLevel.valuationDate,
    model: round4(model),
    market: round4(market),
    observations: round4(observations),
    exchangeRate: round4(exchangeRate),
    explanation: `${before.estimate.toLocaleString('en')} → ${now.estimate.toLocaleString('en')} ${now.currency} (${pct(ratio)}): ${parts.join('; ')}.`,
  };
}
