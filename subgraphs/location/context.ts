/**
 * The location subgraph's per-request context: the services loaded at start, and DataLoaders made
 * fresh for each request. Entity references (`_entities`) and nested fields go through the loaders,
 * so a query plan asking for 500 mahallas with their location index scores them in one scoreMany
 * call, and a place referenced twice in one request is looked up once.
 */
import DataLoader from 'dataloader';
import type { LocationScore } from '../../models/location';
import { withClientErrors } from './errors';
import type { DistrictRecord, MahallaRecord, Point } from './places';
import { scorePoints } from './scoring';
import type { LocationBatchApi } from './batch/api';
import type { LocationServices } from './services';
import type { LocationIndexView } from './views';

/** The caller's organisation and plan, as the gateway sets them (headers, or in process). */
export interface Principal {
  org: string;
  plan: string;
}

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
  /** Null when the gateway sent no organisation (the batch operations then refuse). */
  principal: Principal | null;
  /** Batch jobs; undefined when this process was started without them. */
  batch?: LocationBatchApi;
}

const pointKey = ({ lat, lon }: Point): string => `${lat},${lon}`;

export function createLocationContext(services: LocationServices, principal: Principal | null = null, batch?: LocationBatchApi): LocationContext {
  const { places, index } = services;
  return {
    services,
    principal,
    ...(batch && { batch }),
    loaders: {
      districtByName: new DataLoader(async (names) => names.map((name) => places.districtByKey(name))),
      mahallaById: new DataLoader(async (ids) => ids.map((id) => places.mahalla(id))),
      // DataLoader takes an Error in a result slot as that key's rejection.
      score: new DataLoader<Point, LocationScore, string>(async (points) => scorePoints(index, points), { cacheKeyFn: pointKey }),
    },
  };
}

/** The principal from the headers the gateway sets (x-organisation, x-plan); null without them. */
export function principalFromHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Principal | null {
  const org = headers['x-organisation'];
  const plan = headers['x-plan'];
  return typeof org === 'string' && org !== '' && typeof plan === 'string' && plan !== '' ? { org, plan } : null;
}

/** The location index at a point, through the request's score loader; refusals as GraphQL errors. */
export function locationIndexAt(ctx: LocationContext, point: Point): Promise<LocationIndexView> {
  return withClientErrors(async () => ctx.services.views.of(await ctx.loaders.score.load({ lat: point.lat, lon: point.lon })));
}
