/**
 * Districts and mahallas: the queries, the relations between them, and their location index.
 * Their entity references (`_entities`) resolve in ./entities.ts.
 */
import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { locationIndexAt, type LocationContext } from './context';
import { locationError } from './errors';
import { withApiErrors } from '../common/errors';
import type { DistrictRecord, MahallaRecord } from './places';
import { District, LocationIndexResult, Mahalla } from './types';
import type { LocationIndexView } from './views';

@Resolver(() => District)
export class DistrictResolver {
  @Query(() => [District], { description: 'The 12 districts of Tashkent' })
  districts(@Ctx() ctx: LocationContext): readonly DistrictRecord[] {
    return ctx.services.places.districts;
  }

  @Query(() => District, { nullable: true, description: 'A district by name in any common spelling (Chilanzar, Chilonzor tumani, Чиланзарский район). Unknown: UNKNOWN_DISTRICT with suggestions.' })
  district(@Arg('name') name: string, @Ctx() ctx: LocationContext): Promise<DistrictRecord> {
    return withApiErrors(() => {
      const { places } = ctx.services;
      const district = places.findDistrict(name);
      if (district) return district;
      const suggestions = places.suggestDistricts(name);
      throw new ApiError('UNKNOWN_DISTRICT', `Unknown district "${name.slice(0, 60)}"${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, 'name', suggestions);
    }, locationError);
  }

  @FieldResolver(() => [Mahalla], { description: 'Its mahallas, most listed first' })
  mahallas(@Root() district: DistrictRecord, @Ctx() ctx: LocationContext): readonly MahallaRecord[] {
    return ctx.services.places.mahallasOf(district.id);
  }

  @FieldResolver(() => LocationIndexResult, { description: 'The location index at its centroid' })
  locationIndex(@Root() district: DistrictRecord, @Ctx() ctx: LocationContext): Promise<LocationIndexView> {
    return locationIndexAt(ctx, district.centroid);
  }
}

@Resolver(() => Mahalla)
export class MahallaResolver {
  @FieldResolver(() => District)
  district(@Root() mahalla: MahallaRecord, @Ctx() ctx: LocationContext): DistrictRecord {
    return ctx.services.places.district(mahalla.districtId);
  }

  @FieldResolver(() => LocationIndexResult, { nullable: true, description: 'The location index at its centre; null when it has no centre' })
  async locationIndex(@Root() mahalla: MahallaRecord, @Ctx() ctx: LocationContext): Promise<LocationIndexView | null> {
    return mahalla.centre ? locationIndexAt(ctx, mahalla.centre) : null;
  }
}
