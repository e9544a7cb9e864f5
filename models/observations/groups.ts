/**
 * The group hierarchies observations are pooled in, one per kind, top level first. An adjustment
 * of a group is shrunk toward the level above it: homes segment → district → city, vehicles
 * model → make → all. The modules are generic over the hierarchy: a path of labels, one per level.
 */
import type { ObservationKind } from './types';

export interface GroupHierarchy {
  kind: ObservationKind;
  /** The levels' names, top first: what an explanation calls the level an adjustment came from. */
  levels: readonly string[];
}

export const HOME_HIERARCHY: GroupHierarchy = { kind: 'home', levels: ['city', 'district', 'segment'] };
export const VEHICLE_HIERARCHY: GroupHierarchy = { kind: 'vehicle', levels: ['all', 'make', 'model'] };

/** The single top group of each kind. */
export const HOME_TOP = 'Tashkent';
export const VEHICLE_TOP = 'all';

/** A home's segment: new build, resale, or not stated. */
export type HomeSegment = 'new' | 'resale' | 'unknown';

/** A home's path: city, district id, segment (the request's market, 'unknown' when not given). */
export function homeGroups(district: string, market: 'new' | 'resale' | null): string[] {
  return [HOME_TOP, district, market ?? 'unknown'];
}

/** A vehicle's path: all, make (its badge family, as the vehicle model groups makes), model ('(other model)' when not given). */
export function vehicleGroups(make: string, model: string | null): string[] {
  return [VEHICLE_TOP, make, model ?? OTHER_VEHICLE_MODEL];
}

/** The model label of a vehicle whose model is not given. */
export const OTHER_VEHICLE_MODEL = '(other model)';

/** The separator of a group key's labels. */
export const KEY_SEPARATOR = ' › ';

/** The key of the group at `level` (0 = top) of a path: its labels down to that level, joined. */
export function groupKey(groups: readonly string[], level: number): string {
  return groups.slice(0, level + 1).join(KEY_SEPARATOR);
}

const keysOf = new WeakMap<readonly string[], readonly string[]>();

/** Every group key of a path, top first (remembered per path array: the fits ask for them again and again). */
export function groupKeys(groups: readonly string[]): readonly string[] {
  let keys = keysOf.get(groups);
  if (!keys) {
    keys = groups.map((_, level) => groupKey(groups, level));
    keysOf.set(groups, keys);
  }
  return keys;
}
