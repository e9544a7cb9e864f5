/** Query resolvers of the residential subgraph: thin glue from GraphQL to the model runtime. */
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { normaliseHomeInput, resolveDistrict, resolveMarket, valueHomes, type MarketIndexSeries as MarketIndexSeriesValue } from '../../models/residential';
import { checkInputFields } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import type { HomeValuationView } from '../../schema/home-rest';
import { valueInBulk, withApiErrors, type BulkItem } from '../common/bulk';
import { inCurrencies, inCurrency } from '../common/currency';
import type { ResidentialContext } from './context';
import { adjustHomeValuation, type AdjustedHomeValuation } from './observations';
import { valuationLocation } from './places';
import { HomeValuation, HomeValuationInput, HomeValuationResult, MarketIndexArgs, MarketIndexSeries, ResidentialModel } from './types';

export type { ResidentialContext } from './context';

export const MAX_BULK_INPUTS = 1000;

/** The arguments of marketIndex are checked as the same fields of a valuation are (presence, type, personal data). */
const MARKET_INDEX_FIELDS = HOME_FIELDS.filter((f) => f.graphql === 'district' || f.graphql === 'market');

@Resolver()
export class HomeValuationResolver {
  @Query(() => HomeValuation, { description: 'Value one home: a flat (propertyType apartment, the default) or a house with its plot (propertyType house). A house in a district with too few house listings to value honestly: INSUFFICIENT_MARKET_DATA.' })
  homeValuation(@Arg('input', () => HomeValuationInput) input: HomeValuationInput, @Ctx() ctx: ResidentialContext): Promise<HomeValuation> {
    return withApiErrors(async () => {
      const normalised = normaliseHomeInput(input);
      const [result] = await valueHomes(ctx.runtime, [normalised]);
      if (result instanceof ApiError) throw result;
      return toValuation(inCurrency(await adjustHomeValuation(ctx.observations, ctx.organisation, normalised, result), input.currency));
    });
  }

  @Query(() => [HomeValuationResult], { description: `Value up to ${MAX_BULK_INPUTS} homes at once (one model call for all). A bad input, or a house without enough market data, gets an error in its place; the others are still valued.` })
  homeValuations(@Arg('inputs', () => [HomeValuationInput]) inputs: HomeValuationInput[], @Ctx() ctx: ResidentialContext): Promise<BulkItem<HomeValuation>[]> {
    return withApiErrors(async () => {
      const items = await valueInBulk(inputs, MAX_BULK_INPUTS, normaliseHomeInput, async (valid) => {
        const results = await valueHomes(ctx.runtime, valid);
        return Promise.all(results.map((r, i) => (r instanceof ApiError ? r : adjustHomeValuation(ctx.observations, ctx.organisation, valid[i], r))));
      });
      return inCurrencies(items, inputs).map((item) => ({ ...item, valuation: item.valuation && toValuation(item.valuation) }));
    });
  }

  @Query(() => MarketIndexSeries, { description: "The market index behind the model version in service: the price level of a like-for-like flat per listing month relative to the newest, with its 95% band, for a district (any spelling; estimated by zone of districts) and a segment (new or resale; omitted or null for the market's mix). Valuations dated past the newest month follow its drift, with intervals widened by its volatility" })
  marketIndex(@Args(() => MarketIndexArgs) { district, market }: MarketIndexArgs, @Ctx() ctx: ResidentialContext): Promise<MarketIndexSeriesValue> {
    return withApiErrors(() => {
      checkInputFields(MARKET_INDEX_FIELDS, { district, market });
      return ctx.runtime.marketIndex(resolveDistrict(district, []).id, resolveMarket(market));
    });
  }

  @Query(() => ResidentialModel, { description: 'The model version in service: training date, data, held-out accuracy overall and per district; houses: the house model in service, if any' })
  residentialModel(@Ctx() ctx: ResidentialContext): ResidentialModel {
    return ctx.runtime.summary();
  }
}

/** The valuation with its location as the District and Mahalla entities. */
function toValuation(view: AdjustedHomeValuation): HomeValuation {
  return { ...view, location: valuationLocation(view.location) } as HomeValuation;
}
