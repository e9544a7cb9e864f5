/** Query resolvers of the vehicle subgraph: thin glue from GraphQL to the vehicle model runtime. */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { normaliseVehicleInput, valueVehicles, type VehicleCatalogEntry, type VehicleMarketIndexSeries, type VehicleModelSummary } from '../../models/vehicle';
import { ApiError } from '../../schema/errors';
import { MAX_VEHICLES_PER_CALL, VEHICLE_SEGMENTS } from '../../schema/vehicle-contract';
import type { VehicleValuationView } from '../../schema/vehicle-rest';
import { valueInBulk, withApiErrors, type BulkItem } from '../common/bulk';
import { inCurrencies, inCurrency } from '../common/currency';
import type { Currency } from '../../models/currency';
import type { VehicleContext } from './context';
import type { ValuationRecord } from '../common/valuation-records';
import { adjustVehicleValuation, type AdjustedVehicleValuation } from './observations';
import { VehicleMake, VehicleMarketIndexSeries as VehicleMarketIndexSeriesType, VehicleModelInfo, VehicleValuation, VehicleValuationInput, VehicleValuationResult } from './types';

type RecordedVehicleValuation = AdjustedVehicleValuation & { valuationId: string | null };

/**
 * A record's request valued again with the model in service: today as a fresh valuation (adjusted
 * by the organisation's observations, recorded), and by the model alone at the record's own date
 * and today, which is what separates the model's change from the market's.
 */
export async function revalueVehicle(ctx: VehicleContext, record: ValuationRecord): Promise<{ valuationId: string | null; modelAtThen: number; modelNow: number }> {
  const stored = record.input as Pick<ReturnType<typeof normaliseVehicleInput>, 'request' | 'vehicle'>;
  const then = (record.valuation.marketLevel as { valuationDate: string }).valuationDate;
  const now = { request: { ...stored.request, valuationDate: null }, vehicle: stored.vehicle, warnings: [] };
  const atThen = { ...now, request: { ...stored.request, valuationDate: then } };
  const [today, before] = await valueVehicles(ctx.runtime(), [now, atThen]);
  if (today instanceof ApiError) throw today;
  if (before instanceof ApiError) throw before;
  // In the currency the record was answered in.
  const currency = record.valuation.currency as Currency;
  const [recorded] = await answered(ctx, [{ normalised: now, valuation: inCurrency(await adjustVehicleValuation(ctx.observations, ctx.organisation, now, today), currency) }]);
  return { valuationId: recorded.valuationId, modelAtThen: before.estimate, modelNow: today.estimate };
}

/** Valuations as answered: recorded for the caller's organisation (the request as understood, and the answer) and stamped with their ids. */
function answered(ctx: VehicleContext, items: { normalised: ReturnType<typeof normaliseVehicleInput>; valuation: AdjustedVehicleValuation }[]): Promise<RecordedVehicleValuation[]> {
  return ctx.records.stamp(ctx.caller, items.map(({ normalised, valuation }) => ({ input: { request: normalised.request, vehicle: normalised.vehicle }, valuation })));
}

@Resolver()
export class VehicleValuationResolver {
  @Query(() => VehicleValuation, { description: 'Value one vehicle. Unknown make or model: UNKNOWN_VEHICLE with suggestions; too little market data for it: INSUFFICIENT_MARKET_DATA.' })
  vehicleValuation(@Arg('input', () => VehicleValuationInput) input: VehicleValuationInput, @Ctx() ctx: VehicleContext): Promise<RecordedVehicleValuation> {
    return withApiErrors(async () => {
      const normalised = normaliseVehicleInput(input);
      const [result] = await valueVehicles(ctx.runtime(), [normalised]);
      if (result instanceof ApiError) throw result;
      const [recorded] = await answered(ctx, [{ normalised, valuation: inCurrency(await adjustVehicleValuation(ctx.observations, ctx.organisation, normalised, result), input.currency) }]);
      return recorded;
    });
  }

  @Query(() => [VehicleValuationResult], { description: `Value up to ${MAX_VEHICLES_PER_CALL.toLocaleString('en')} vehicles at once (one model call for all). A bad input, or one without enough market data, gets an error in its place; the others are still valued.` })
  vehicleValuations(@Arg('inputs', () => [VehicleValuationInput]) inputs: VehicleValuationInput[], @Ctx() ctx: VehicleContext): Promise<BulkItem<RecordedVehicleValuation>[]> {
    return withApiErrors(async () => {
      const items = await valueInBulk(inputs, MAX_VEHICLES_PER_CALL, (input) => normaliseVehicleInput(input), async (valid) => {
        const results = await valueVehicles(ctx.runtime(), valid);
        return Promise.all(results.map((r, i) => (r instanceof ApiError ? r : adjustVehicleValuation(ctx.observations, ctx.organisation, valid[i], r))));
      });
      // Recorded as answered (in the currency each asked for), in one store call for all.
      const converted = inCurrencies(items, inputs);
      const valued = converted.filter((item) => item.valuation);
      const recorded = await answered(ctx, valued.map((item) => ({ normalised: normaliseVehicleInput(inputs[item.index]), valuation: item.valuation! })));
      const byIndex = new Map(valued.map((item, i) => [item.index, recorded[i]]));
      return converted.map((item) => ({ ...item, valuation: item.valuation && byIndex.get(item.index)! }));
    });
  }

  @Query(() => [VehicleMake], { description: 'The makes and models the model in service knows, with the model years and listing counts of its training data' })
  vehicleCatalog(@Ctx() ctx: VehicleContext): Promise<VehicleCatalogEntry[]> {
    return withApiErrors(() => ctx.runtime().catalog());
  }

  @Query(() => [VehicleMarketIndexSeriesType], { description: `The vehicle market index behind the model in service, per segment of makes (${VEHICLE_SEGMENTS.join(', ')}), oldest point first; segment picks one (an unknown segment: INVALID_PARAMETER listing the segments)` })
  vehicleMarketIndex(@Arg('segment', () => String, { nullable: true, description: `${VEHICLE_SEGMENTS.join(', ')}; omitted or null for all` }) segment: string | null | undefined, @Ctx() ctx: VehicleContext): Promise<VehicleMarketIndexSeries[]> {
    return withApiErrors(() => marketIndexOf(ctx.runtime().marketIndex(), segment));
  }

  @Query(() => VehicleModelInfo, { description: 'The vehicle model version in service: training date, data, held-out accuracy overall and per make/model group, feature importance, members' })
  vehicleModel(@Ctx() ctx: VehicleContext): Promise<VehicleModelSummary> {
    return withApiErrors(() => ctx.runtime().summary());
  }
}

/** The series of one segment (any case), or all; a segment neither known nor in the model's series is INVALID_PARAMETER listing the segments. */
export function marketIndexOf(series: readonly VehicleMarketIndexSeries[], segment: string | null | undefined): VehicleMarketIndexSeries[] {
  if (segment === null || segment === undefined) return [...series];
  const wanted = segment.trim().toLowerCase();
  const segments = [...new Set([...VEHICLE_SEGMENTS, ...series.map((s) => s.segment)])];
  if (!segments.includes(wanted)) {
    throw new ApiError('INVALID_PARAMETER', `segment "${segment.slice(0, 40)}" is not a segment of the vehicle market index; accepted: ${segments.join(', ')}`, 'segment');
  }
  return series.filter((s) => s.segment === wanted);
}
