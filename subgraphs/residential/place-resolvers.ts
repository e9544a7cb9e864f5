/**
 * The residential fields of the District and Mahalla entities: market figures and held-out accuracy
 * of the model version in service. Their entity references resolve in ./entities.ts.
 */
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ResidentialContext } from './context';
import type { DistrictAccuracyFigures, DistrictRef, MahallaRef, MarketFigures } from './places';
import { District, DistrictModelAccuracy, Mahalla, MarketStatistics } from './types';

@Resolver(() => District)
export class DistrictResolver {
  @FieldResolver(() => MarketStatistics, { nullable: true, description: 'Training listings of the model in service in the district; null when it has none' })
  marketStatistics(@Root() district: DistrictRef, @Ctx() ctx: ResidentialContext): MarketFigures | null {
    return ctx.places().districtMarket(district);
  }

  @FieldResolver(() => DistrictModelAccuracy, { nullable: true, description: "Held-out accuracy of the model in service in the district; null when its evaluation had no sales there" })
  modelAccuracy(@Root() district: DistrictRef, @Ctx() ctx: ResidentialContext): DistrictAccuracyFigures | null {
    return ctx.places().districtAccuracy(district);
  }
}

@Resolver(() => Mahalla)
export class MahallaResolver {
  @FieldResolver(() => MarketStatistics, { nullable: true, description: 'Training listings of the model in service in the mahalla; null when fewer than the model keeps a median for' })
  marketStatistics(@Root() mahalla: MahallaRef, @Ctx() ctx: ResidentialContext): MarketFigures | null {
    return ctx.places().mahallaMarket(mahalla);
  }
}
