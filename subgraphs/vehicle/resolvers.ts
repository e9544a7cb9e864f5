/** Query resolvers of the vehicle subgraph: thin glue from GraphQL to the vehicle model runtime. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Directive, Query, Resolver } from 'type-graphql';
import {
  normaliseVehicleInput, typicalVehicleOf, valueVehicles, vehicleAttributionVariants, vehicleContributions,
  type TypicalVehicle, type TypicalVehicleLevel, type VehicleCatalogEntry, type VehicleContribution, type VehicleMarketIndexSeries, type VehicleModelSummary, type VehicleValue,
} from '../../models/vehicle';
import { ApiError } from '../../schema/errors';
import { MAX_VEHICLES_PER_CALL, VEHICLE_SEGMENTS } from '../../schema/vehicle-contract';
import { callingOrganisation, withApiErrors, type BulkItem } from '../common/bulk';
import { valuingPipeline, type Answered, type Revaluation } from '../common/valuing-pipeline';
import type { VehicleContext } from './context';
import type { ValuationRecord } from '../common/valuation-records';
import { adjustVehicleValuation, type AdjustedVehicleValuation } from './observations';
import { VehicleMake, VehicleMarketIndexSeries as VehicleMarketIndexSeriesType, VehicleModelInfo, VehicleValuation, VehicleValuationInput, VehicleValuationResult } from './types';

type RecordedVehicleValuation = Answered<AdjustedVehicleValuation>;

/** Vehicles through the valuing pipeline; without a model in service, SERVICE_UNAVAILABLE once the input is read. */
const vehicles = valuingPipeline({
  maxInputs: MAX_VEHICLES_PER_CALL,
  normalise: (input: VehicleValuationInput) => normaliseVehicleInput(input),
  value: (ctx: VehicleContext, normalised: readonly NormalisedVehicle[]) => valueVehicles(ctx.runtime(), normalised),
  adjust: adjustVehicleValuation,
  recorded: (normalised) => ({ request: normalised.request, vehicle: normalised.vehicle }),
});

/** A record's request valued again with the model in service (the record resolver's revalueVehicleRecord). */
export function revalueVehicle(ctx: VehicleContext, record: ValuationRecord): Promise<Revaluation> {
  return vehicles.revalue(ctx, record);
}

type NormalisedVehicle = ReturnType<typeof normaliseVehicleInput>;

/** What vehicleEstimateAttribution answers (USD): the report's "what drives the estimate" of a car. */
type VehicleEstimateAttribution = {
  kind: 'vehicle';
  modelVersion: string;
  estimate: number;
  /** Whose typical car it was compared with: its make and model's, its make's, or the market's. */
  level: TypicalVehicleLevel;
  typical: TypicalVehicle;
  contributions: VehicleContribution[];
};

@Resolver()
export class VehicleValuationResolver {
  @Query(() => VehicleValuation, { description: 'Value one vehicle. Unknown make or model: UNKNOWN_VEHICLE with suggestions; too little market data for it: INSUFFICIENT_MARKET_DATA.' })
  vehicleValuation(@Arg('input', () => VehicleValuationInput) input: VehicleValuationInput, @Ctx() ctx: VehicleContext): Promise<RecordedVehicleValuation> {
    return vehicles.one(ctx, input);
  }

  @Query(() => [VehicleValuationResult], { description: `Value up to ${MAX_VEHICLES_PER_CALL.toLocaleString('en')} vehicles at once (one model call for all). A bad input, or one without enough market data, gets an error in its place; the others are still valued.` })
  vehicleValuations(@Arg('inputs', () => [VehicleValuationInput]) inputs: VehicleValuationInput[], @Ctx() ctx: VehicleContext): Promise<BulkItem<RecordedVehicleValuation>[]> {
    return vehicles.many(ctx, inputs);
  }

  @Directive('@inaccessible')
  @Query(() => GraphQLJSONObject, { nullable: true, description: "Internal (the report's \"what drives the estimate\"): one of the calling organisation's vehicle valuations valued again by the model in service at its own valuation date, once as recorded and once per field group (model year, mileage, engine, fuel, gearbox, body, drive, trim, condition, region) set to its make and model's typical car (else its make's, else the market's), all in one model call (models/vehicle/attribution.ts): { kind: vehicle, modelVersion, estimate, level, typical, contributions }, USD. Null for no such record, a vehicle model version without typical cars (before 2026.11.3), or a car the model in service no longer values. Values nothing new for the organisation: not recorded, not charged" })
  vehicleEstimateAttribution(@Arg('id', () => String) id: string, @Ctx() ctx: VehicleContext): Promise<VehicleEstimateAttribution | null> {
    return withApiErrors(async () => {
      const record = await ctx.records.get(callingOrganisation(ctx.organisation, 'valuation records'), id);
      if (!record) return null;
      const runtime = ctx.runtime();
      const typicalCars = runtime.typicalVehicles();
      if (!typicalCars) return null;
      const stored = (record.input as Pick<NormalisedVehicle, 'request'>).request;
      // At the record's own valuation date, so the market level is the one it was valued at.
      const request = { ...stored, valuationDate: (record.valuation.marketLevel as { valuationDate: string }).valuationDate };
      const { level, typical } = typicalVehicleOf(request, typicalCars);
      const variants = vehicleAttributionVariants(request, typical);
      const [own, ...others] = await runtime.value([request, ...variants.map((v) => v.request)]);
      // A car the model in service no longer values (too few listings now): nothing to attribute.
      if (own instanceof Error || others.some((o) => o instanceof Error)) return null;
      const estimates = others as VehicleValue[];
      return {
        kind: 'vehicle', modelVersion: own.modelVersion, estimate: own.estimate, level, typical,
        contributions: vehicleContributions(own.estimate, variants.map((v, i) => ({ group: v.group, estimate: estimates[i].estimate }))),
      };
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
