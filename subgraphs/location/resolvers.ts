/** Location index and geocoding queries: thin glue from GraphQL to the location libraries. */
import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { ApiError } from '../../schema/errors';
import { MAX_ADDRESS_LENGTH, MAX_POINTS_PER_CALL } from '../../schema/location-contract';
import { locationIndexAt, type LocationContext } from './context';
import { locationError } from './errors';
import { withApiErrors } from '../common/errors';
import { itemError } from '../common/bulk';
import { scorePoints } from './scoring';
import { GeocodeItem, GeocodeResult, LocationIndexItem, LocationIndexResult, PointArgs, PointInput } from './types';
import { geocodeView, type GeocodeView, type LocationIndexView } from './views';

type LocationIndexItemView = Omit<LocationIndexItem, 'result'> & { result: LocationIndexView | null };
type GeocodeItemView = Omit<GeocodeItem, 'result'> & { result: GeocodeView | null };

@Resolver()
export class LocationIndexResolver {
  @Query(() => LocationIndexResult, { description: 'The location index of a Tashkent coordinate: nine subindexes, a composite, and the data behind them. Outside the city: OUTSIDE_TASHKENT.' })
  locationIndex(@Args(() => PointArgs) { lat, lon }: PointArgs, @Ctx() ctx: LocationContext): Promise<LocationIndexView> {
    return locationIndexAt(ctx, { lat, lon });
  }

  @Query(() => [LocationIndexItem], { description: `The location index of up to ${MAX_POINTS_PER_CALL.toLocaleString('en')} points at once, in input order; a point that cannot be scored gets an error in its place.` })
  locationIndexes(@Arg('points', () => [PointInput]) points: PointInput[], @Ctx() ctx: LocationContext): Promise<LocationIndexItemView[]> {
    return withApiErrors(() => {
      if (points.length > MAX_POINTS_PER_CALL) {
        throw new ApiError('INVALID_PARAMETER', `at most ${MAX_POINTS_PER_CALL} points per call (got ${points.length})`, 'points');
      }
      return scorePoints(ctx.services.index, points).map((score, index) =>
        score instanceof ApiError
          ? { index, result: null, error: { code: score.code, message: score.message, field: score.field ?? null } }
          : { index, result: ctx.services.views.of(score), error: null },
      );
    }, locationError);
  }
}

@Resolver(() => GeocodeResult)
export class GeocodeResolver {
  @Query(() => GeocodeResult, { description: 'Places a Tashkent address (Russian, Uzbek Latin or Cyrillic, English). An address that cannot be placed: UNRESOLVABLE_ADDRESS, with suggestions in extensions.' })
  geocode(@Arg('address') address: string, @Ctx() ctx: LocationContext): Promise<GeocodeView> {
    return withApiErrors(() => {
      if (address.length > MAX_ADDRESS_LENGTH) throw new ApiError('INVALID_PARAMETER', `address must be at most ${MAX_ADDRESS_LENGTH} characters`, 'address');
      return geocodeView(address, ctx.services.geocode(address), ctx.services.places);
    }, locationError);
  }

  @Query(() => [GeocodeItem], { description: `Places up to ${MAX_POINTS_PER_CALL.toLocaleString('en')} addresses at once, in input order; an address that cannot be placed gets an error in its place (batch jobs place their items with it).` })
  geocodes(@Arg('addresses', () => [String]) addresses: string[], @Ctx() ctx: LocationContext): Promise<GeocodeItemView[]> {
    return withApiErrors(() => {
      if (addresses.length > MAX_POINTS_PER_CALL) {
        throw new ApiError('INVALID_PARAMETER', `at most ${MAX_POINTS_PER_CALL} addresses per call (got ${addresses.length})`, 'addresses');
      }
      return addresses.map((address, index) => {
        try {
          if (address.length > MAX_ADDRESS_LENGTH) throw new ApiError('INVALID_PARAMETER', `address must be at most ${MAX_ADDRESS_LENGTH} characters`, 'address');
          return { index, result: geocodeView(address, ctx.services.geocode(address), ctx.services.places), error: null };
        } catch (error) {
          const api = error instanceof ApiError ? error : locationError(error);
          if (!api) throw error;
          return { index, result: null, error: itemError(api) };
        }
      });
    }, locationError);
  }

  @FieldResolver(() => LocationIndexResult, { description: 'The location index at the geocoded point' })
  locationIndex(@Root() geocoded: GeocodeView, @Ctx() ctx: LocationContext): Promise<LocationIndexView> {
    return locationIndexAt(ctx, geocoded);
  }
}
