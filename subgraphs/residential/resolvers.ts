/** Query resolvers of the residential subgraph: thin glue from GraphQL to the model runtime. */
import { GraphQLError } from 'graphql';
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { normaliseHomeInput, resolveDistrict, resolveMarket, type NormalisedHomeInput } from '../../models/residential/request';
import type { HomeValue, MarketIndexSeries as MarketIndexSeriesValue } from '../../models/residential/valuation';
import { checkInputFields } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import type { ResidentialContext } from './context';
import { valuationLocation } from './places';
import { HomeValuation, HomeValuationInput, HomeValuationResult, MarketIndexArgs, MarketIndexSeries, ResidentialModel } from './types';

export type { ResidentialContext } from './context';

export const MAX_BULK_INPUTS = 1000;

/** The arguments of marketIndex are checked as the same fields of a valuation are (presence, type, personal data). */
const MARKET_INDEX_FIELDS = HOME_FIELDS.filter((f) => f.graphql === 'district' || f.graphql === 'market');

@Resolver()
export class HomeValuationResolver {
  @Query(() => HomeValuation, { description: 'Value one home' })
  async homeValuation(@Arg('input', () => HomeValuationInput) input: HomeValuationInput, @Ctx() ctx: ResidentialContext): Promise<HomeValuation> {
    const normalised = asGraphQLError(() => normaliseHomeInput(input));
    const [value] = await ctx.runtime.value([normalised.request]);
    return toValuation(value, normalised, new Date().toISOString());
  }

  @Query(() => [HomeValuationResult], { description: `Value up to ${MAX_BULK_INPUTS} homes at once (one model call for all). A bad input gets an error in its place; the others are still valued.` })
  async homeValuations(@Arg('inputs', () => [HomeValuationInput]) inputs: HomeValuationInput[], @Ctx() ctx: ResidentialContext): Promise<HomeValuationResult[]> {
    if (inputs.length > MAX_BULK_INPUTS) {
      throw toGraphQLError(new ApiError('INVALID_PARAMETER', `at most ${MAX_BULK_INPUTS} inputs per call (got ${inputs.length})`, 'inputs'));
    }
    const results: HomeValuationResult[] = new Array(inputs.length);
    const valid: { index: number; normalised: NormalisedHomeInput }[] = [];
    inputs.forEach((input, index) => {
      try {
        valid.push({ index, normalised: normaliseHomeInput(input) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results[index] = { index, valuation: null, error: { code: error.code, message: error.message, field: error.field ?? null, suggestions: error.suggestions ?? null } };
      }
    });
    const values = await ctx.runtime.value(valid.map((v) => v.normalised.request));
    const valuedAt = new Date().toISOString();
    valid.forEach((v, i) => {
      results[v.index] = { index: v.index, valuation: toValuation(values[i], v.normalised, valuedAt), error: null };
    });
    return results;
  }

  @Query(() => MarketIndexSeries, { description: "The market index behind the model version in service: the price level of a like-for-like flat per listing month relative to the newest, with its 95% band, for a district (any spelling; estimated by zone of districts) and a segment (new or resale; omitted or null for the market's mix). Valuations dated past the newest month follow its drift, with intervals widened by its volatility" })
  marketIndex(@Args(() => MarketIndexArgs) { district, market }: MarketIndexArgs, @Ctx() ctx: ResidentialContext): MarketIndexSeriesValue {
    const { id, segment } = asGraphQLError(() => {
      checkInputFields(MARKET_INDEX_FIELDS, { district, market });
      return { id: resolveDistrict(district, []).id, segment: resolveMarket(market) };
    });
    return ctx.runtime.marketIndex(id, segment);
  }

  @Query(() => ResidentialModel, { description: 'The model version in service: training date, data, held-out accuracy overall and per district' })
  residentialModel(@Ctx() ctx: ResidentialContext): ResidentialModel {
    return ctx.runtime.summary();
  }
}

function toValuation(value: HomeValue, normalised: NormalisedHomeInput, valuedAt: string): HomeValuation {
  return { ...value, location: valuationLocation(normalised.location), valuedAt, warnings: normalised.warnings } as HomeValuation;
}

function asGraphQLError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof ApiError ? toGraphQLError(error) : error;
  }
}

function toGraphQLError(error: ApiError): GraphQLError {
  return new GraphQLError(error.message, { extensions: error.toExtensions() });
}
