/** Query resolvers of the residential subgraph: thin glue from GraphQL to the model runtime. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, Directive, Int, Query, Resolver } from 'type-graphql';
import { collectedWeeklySeries, DEFAULT_COMPARABLES, attributionVariants, comparablesTable, contributions, houseAttributionVariants, houseContributions, isHouseRequest, typicalFlat, type HouseAttributionGroup, type TypicalHouse, normaliseHomeInput, resolveDistrict, resolveMarket, valueHomes, type ComparableListing as ComparableListingValue, type Contribution, type HomeValue, type TypicalFlat, type HomeRequest, type CollectedWeeklySeries, type MarketIndexSeries as MarketIndexSeriesValue } from '../../models/residential';
import type { Contribution as GroupContribution } from '../../models/ensemble';
import { DISTRICT_NAMES } from '../../models/vocabulary';
import type { ValuationRecord } from '../common/valuation-records';
import { checkInputFields } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import { callingOrganisation, withApiErrors, type BulkItem } from '../common/bulk';
import { valuingPipeline, type Revaluation } from '../common/valuing-pipeline';
import { countArgument } from '../common/arguments';
import type { ResidentialContext } from './context';
import { adjustHomeValuation, type AdjustedHomeValuation } from './observations';
import { mahallaName, valuationLocation } from './places';
import { collectStatus } from '../../platform/collect/run-status';
import { CollectionRun, ComparableListing, HomeValuation, HomeValuationInput, HomeValuationResult, MarketIndexArgs, MarketIndexSeries, ResidentialModel } from './types';

export type { ResidentialContext } from './context';

export const MAX_BULK_INPUTS = 1000;
/** comparableListings(n): at most this many. */
export const MAX_COMPARABLES = 20;

/** The arguments of marketIndex are checked as the same fields of a valuation are (presence, type, personal data). */
const MARKET_INDEX_FIELDS = HOME_FIELDS.filter((f) => f.graphql === 'district' || f.graphql === 'market');

/** Flats and houses through the valuing pipeline (models/residential/serving.ts sends a house to the house model). */
const homes = valuingPipeline({
  maxInputs: MAX_BULK_INPUTS,
  normalise: (input: HomeValuationInput) => normaliseHomeInput(input),
  value: (ctx: ResidentialContext, normalised: readonly NormalisedHome[]) => valueHomes(ctx.runtime, normalised),
  adjust: adjustHomeValuation,
  recorded: (normalised) => ({ request: normalised.request, location: normalised.location }),
  answer: toValuation,
});

@Resolver()
export class HomeValuationResolver {
  @Query(() => HomeValuation, { description: 'Value one home: a flat (propertyType apartment, the default) or a house with its plot (propertyType house). A house in a district with too few house listings to value honestly: INSUFFICIENT_MARKET_DATA.' })
  homeValuation(@Arg('input', () => HomeValuationInput) input: HomeValuationInput, @Ctx() ctx: ResidentialContext): Promise<HomeValuation> {
    return homes.one(ctx, input);
  }

  @Query(() => [HomeValuationResult], { description: `Value up to ${MAX_BULK_INPUTS} homes at once (one model call for all). A bad input, or a house without enough market data, gets an error in its place; the others are still valued.` })
  homeValuations(@Arg('inputs', () => [HomeValuationInput]) inputs: HomeValuationInput[], @Ctx() ctx: ResidentialContext): Promise<BulkItem<HomeValuation>[]> {
    return homes.many(ctx, inputs);
  }

  @Query(() => MarketIndexSeries, { description: "The market index behind the model version in service: the price level of a like-for-like flat per listing month relative to the newest, with its 95% band, for a district (any spelling; estimated by zone of districts) and a segment (new or resale; omitted or null for the market's mix). Valuations dated past the newest month are held at its newest level, with intervals widened by its volatility. Weekly points of the listings the service collects itself, for the weeks after the newest month, are published beside it (weekly) and not applied to valuations" })
  marketIndex(@Args(() => MarketIndexArgs) { district, market }: MarketIndexArgs, @Ctx() ctx: ResidentialContext): Promise<MarketIndexSeriesValue & { weekly: CollectedWeeklySeries | null }> {
    return withApiErrors(() => {
      checkInputFields(MARKET_INDEX_FIELDS, { district, market });
      const series = ctx.runtime.marketIndex(resolveDistrict(district, []).id, resolveMarket(market));
      const collected = ctx.collected?.current();
      return { ...series, weekly: collected ? collectedWeeklySeries(series.newestPeriod, collected.day, collected.weekly) : null };
    });
  }

  @Query(() => [CollectionRun], { description: "Collecting progress (npm run collect, docs/COLLECTING.md): each site's last run, or the run under way, read from the collect folder's small status files. Read only; the same for every organisation" })
  collectionStatus(@Ctx() ctx: ResidentialContext): CollectionRun[] {
    const directory = ctx.collected?.directory;
    if (!directory) return [];
    return collectStatus(directory).map(({ previous, ...run }) => ({ ...run, previousEndedAt: previous?.endedAt ?? null, previousState: previous?.status ?? null }));
  }

  @Query(() => [ComparableListing], { description: `Comparable listings for a flat: the n (default ${DEFAULT_COMPARABLES}, at most ${MAX_COMPARABLES}) training listings of its district nearest to it in area, rooms, floor, building, market, renovation and place, best first, each with its asking price as listed and brought to the valuation date (the input's valuationDate, else today) by the market index of the model in service. The input is read as homeValuation reads it (same errors); prices are in USD whatever currency asks for. A house: [] (house comparables are not offered)` })
  comparableListings(@Arg('input', () => HomeValuationInput) input: HomeValuationInput, @Arg('n', () => Int, { nullable: true, description: `How many, 1 to ${MAX_COMPARABLES}; default ${DEFAULT_COMPARABLES}` }) n: number | null, @Ctx() ctx: ResidentialContext): Promise<ComparableListing[]> {
    return withApiErrors(() => {
      const wanted = countArgument(n, 'n', DEFAULT_COMPARABLES, MAX_COMPARABLES);
      const { request } = normaliseHomeInput(input);
      return ctx.runtime.comparables(request, wanted).map(toComparableListing);
    });
  }

  @Directive('@inaccessible')
  @Query(() => GraphQLJSONObject, { nullable: true, description: "Internal (the report's \"what drives the estimate\"): one of the calling organisation's home valuations valued again by the model in service, once as recorded and once per field group set to its district's typical flat or house, all in one model call (models/residential/attribution.ts, models/house/attribution.ts): { kind: flat or house, modelVersion, estimate, typical, contributions }, USD. Null for no such record, or a district without a typical home (a house model version before 2026.11.7). Values nothing new for the organisation: not recorded, not charged" })
  homeEstimateAttribution(@Arg('id', () => String) id: string, @Ctx() ctx: ResidentialContext): Promise<EstimateAttribution | null> {
    return withApiErrors(async () => {
      const record = await ctx.records.get(callingOrganisation(ctx.organisation, 'valuation records'), id);
      if (!record) return null;
      const stored = (record.input as { request: HomeRequest }).request;
      // At the record's own valuation date, so the market level is the one it was valued at.
      const valuationDate = (record.valuation.marketLevel as { valuationDate: string }).valuationDate;
      if (isHouseRequest(stored)) {
        const request = { ...stored, valuationDate };
        const typical = ctx.runtime.typicalHouse(request.district);
        if (!typical) return null;
        const variants = houseAttributionVariants(request, typical);
        const [own, ...others] = await ctx.runtime.value([request, ...variants.map((v) => v.request)]);
        // A house the model in service no longer values (too few listings now): nothing to attribute.
        if (own instanceof Error || others.some((o) => o instanceof Error)) return null;
        const estimates = others as HomeValue[];
        return { kind: 'house', modelVersion: own.modelVersion, estimate: own.estimate, typical, contributions: houseContributions(own.estimate, variants.map((v, i) => ({ group: v.group, estimate: estimates[i].estimate }))) };
      }
      const request = { ...stored, valuationDate };
      const typical = typicalFlat(request.district, comparablesTable().inDistrict(request.district));
      if (!typical) return null;
      const variants = attributionVariants(request, typical);
      const values = await ctx.runtime.value([request, ...variants.map((v) => v.request)]);
      // A flat's answers are all HomeValues (a refusal is a house's).
      const [own, ...others] = values as HomeValue[];
      return {
        kind: 'flat',
        modelVersion: own.modelVersion,
        estimate: own.estimate,
        typical,
        contributions: contributions(own.estimate, variants.map((v, i) => ({ group: v.group, estimate: others[i].estimate }))),
      };
    });
  }

  @Query(() => ResidentialModel, { description: 'The model version in service: training date, data, held-out accuracy overall and per district; houses: the house model in service, if any' })
  residentialModel(@Ctx() ctx: ResidentialContext): ResidentialModel {
    return ctx.runtime.summary();
  }
}

/** A record's request valued again with the model in service (the record resolver's revalueHomeRecord). */
export function revalueHome(ctx: ResidentialContext, record: ValuationRecord): Promise<Revaluation> {
  return homes.revalue(ctx, record);
}

type NormalisedHome = ReturnType<typeof normaliseHomeInput>;

type EstimateAttribution =
  | { kind: 'flat'; modelVersion: string; estimate: number; typical: TypicalFlat; contributions: Contribution[] }
  | { kind: 'house'; modelVersion: string; estimate: number; typical: TypicalHouse; contributions: GroupContribution<HouseAttributionGroup>[] };

/** A comparable with its district and mahalla by name. */
function toComparableListing(c: ComparableListingValue): ComparableListing {
  return { ...c, district: DISTRICT_NAMES[c.district], mahalla: c.mahallaId ? mahallaName(c.mahallaId) : null };
}

/** The valuation with its location as the District and Mahalla entities. */
function toValuation(view: AdjustedHomeValuation & { valuationId: string | null }): HomeValuation {
  return { ...view, location: valuationLocation(view.location) } as HomeValuation;
}
