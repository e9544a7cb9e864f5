/**
 * The location subgraph's per-request context: the services loaded at start, and DataLoaders made
 * fresh for each request. Entity references (`_entities`) and nested fields go through the loaders,
 * so a query plan asking for 500 mahallas with their location index scores them in one scoreMany
 * call, and a place referenced twice in one request is looked up once.
 */
import DataLoader from 'dataloader';
import type { LocationScore } from '../../models/location';
import { locationError } from './errors';
import { withApiErrors } from '../common/errors';
import type { DistrictRecord, MahallaRecord, Point } from './places';
import { scorePoints } from './scoring';
import type { LocationServices } from './services';
import type { LocationIndexView } from './views';

export interface LocationLoaders {
  /** By the District key (English name); null for a name that is no district. */
  districtByName: DataLoader<string, DistrictRecord | null>;
  /** By Mahalla id; null for an unknown id. */
  mahallaById: DataLoader<string, MahallaRecord | null>;
  /** Location index scores by point; a point that cannot be scored rejects with its ApiError. */
  score: DataLoader<Point, LocationScore, string>;
}

export interface LocationContext {
  services: LocationServices;
  loaders: LocationLoaders;
}

const pointKey = ({ lat, lon }: Point): string => `${lat},${lon}`;

export function createLocationContext(services: LocationServices): LocationContext {
  const { places, index } = services;
  return {
    services,
    loaders: {
      districtByName: new DataLoader(async (names) => names.map((name) => places.districtByKey(name))),
      mahallaById: new DataLoader(async (ids) => ids.map((id) => places.mahalla(id))),
      // DataLoader takes an Error in a result slot as that key's rejection.
      score: new DataLoader<Point, LocationScore, string>(async (points) => scorePoints(index, points), { cacheKeyFn: pointKey }),
    },
  };
}

/** The location index at a point, through the request's score loader; refusals as GraphQL errors. */
export function locationIndexAt(ctx: LocationContext, point: Point): Promise<LocationIndexView> {
  return withApiErrors(async () => ctx.services.views.of(await ctx.loaders.score.load({ lat: point.lat, lon: point.lon })), locationError);
}
