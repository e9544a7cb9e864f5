/**
 * Scores points with the location index, each point's failure in its own place: a point out of
 * range or outside the city gets its ApiError, the others are scored in one scoreMany call.
 */
import { LocationIndex, OutsideTashkentError, type LocationScore } from '../../models/location';
import { ApiError } from '../../schema/errors';
import { outOfRange } from '../../schema/location-contract';
import { outsideTashkent } from './errors';
import type { Point } from './places';

export type PointScore = LocationScore | ApiError;

/** Why the index cannot score the point (out of range, outside Tashkent), or null when it can. */
function refusal(index: LocationIndex, { lat, lon }: Point): ApiError | null {
  for (const [field, value] of [['lat', lat], ['lon', lon]] as const) {
    const message = outOfRange(field, value);
    if (message !== null) return new ApiError('INVALID_PARAMETER', message, field);
  }
  if (index.districtOf(lat, lon) !== null) return null;
  return outsideTashkent(new OutsideTashkentError(lat, lon, undefined, index.districtOf(lon, lat) !== null));
}

/** One result per point, in input order: its score, or the ApiError saying why it has none. */
export function scorePoints(index: LocationIndex, points: readonly Point[]): PointScore[] {
  const results: PointScore[] = new Array(points.length);
  const scorable: number[] = [];
  points.forEach((point, i) => {
    const error = refusal(index, point);
    if (error) results[i] = error;
    else scorable.push(i);
  });
  const scores = index.scoreMany(scorable.map((i) => points[i]));
  scorable.forEach((pointIndex, i) => {
    results[pointIndex] = scores[i];
  });
  return results;
}
