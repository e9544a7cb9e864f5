/** Query resolvers of the vehicle subgraph: thin glue from GraphQL to the vehicle model runtime. */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { normaliseVehicleInput, valueVehicles } from '../../models/vehicle/request';
import type { VehicleCatalogEntry, VehicleModelSummary } from '../../models/vehicle/valuation';
import { ApiError } from '../../schema/errors';
import { MAX_VEHICLES_PER_CALL } from '../../schema/vehicle-contract';
import type { VehicleValuationView } from '../../schema/vehicle-rest';
import { valueInBulk, withApiErrors, type BulkItem } from '../common/bulk';
import type { VehicleContext } from './context';
import { VehicleMake, VehicleModelInfo, VehicleValuation, VehicleValuationInput, VehicleValuationResult } from './types';

@Resolver()
export class VehicleValuationResolver {
  @Query(() => VehicleValuation, { description: 'Value one vehicle. Unknown make or model: UNKNOWN_VEHICLE with suggestions; too little market data for it: INSUFFICIENT_MARKET_DATA.' })
  vehicleValuation(@Arg('input', () => VehicleValuationInput) input: VehicleValuationInput, @Ctx() ctx: VehicleContext): Promise<VehicleValuationView> {
    return withApiErrors(async () => {
      const normalised = normaliseVehicleInput(input);
      const [result] = await valueVehicles(ctx.runtime(), [normalised]);
      if (result instanceof ApiError) throw result;
      return result;
    });
  }

  @Query(() => [VehicleValuationResult], { description: `Value up to ${MAX_VEHICLES_PER_CALL.toLocaleString('en')} vehicles at once (one model call for all). A bad input, or one without enough market data, gets an error in its place; the others are still valued.` })
  vehicleValuations(@Arg('inputs', () => [VehicleValuationInput]) inputs: VehicleValuationInput[], @Ctx() ctx: VehicleContext): Promise<BulkItem<VehicleValuationView>[]> {
    return withApiErrors(() => valueInBulk(inputs, MAX_VEHICLES_PER_CALL, (input) => normaliseVehicleInput(input), (valid) => valueVehicles(ctx.runtime(), valid)));
  }

  @Query(() => [VehicleMake], { description: 'The makes and models the model in service knows, with the model years and listing counts of its training data' })
  vehicleCatalog(@Ctx() ctx: VehicleContext): Promise<VehicleCatalogEntry[]> {
    return withApiErrors(() => ctx.runtime().catalog());
  }

  @Query(() => VehicleModelInfo, { description: 'The vehicle model version in service: training date, data, held-out accuracy overall and per make/model group, feature importance, members' })
  vehicleModel(@Ctx() ctx: VehicleContext): Promise<VehicleModelSummary> {
    return withApiErrors(() => ctx.runtime().summary());
  }
}
