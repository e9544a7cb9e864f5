/** geokdbush 1 ships no types: the two functions the location index uses. */
declare module 'geokdbush' {
  import KDBush = require('kdbush');

  /** Points of a kdbush index (built on lon, lat) nearest first, at most `maxResults`, within `maxDistanceKm` (great-circle). */
  export function around<T>(
    index: KDBush<T>, lon: number, lat: number, maxResults?: number, maxDistanceKm?: number, filter?: (point: T) => boolean,
  ): T[];

  /** Great-circle distance in kilometres. */
  export function distance(lon1: number, lat1: number, lon2: number, lat2: number): number;
}
