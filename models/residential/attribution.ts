/**
 * What drives one flat's estimate (issue 35, item 6): a one-at-a-time occlusion. The flat is valued
 * again with one group of its fields set to its district's typical flat (the training listings'
 * median area and rooms, median building height, a middle floor, the most usual market, renovation
 * and building type; the place within the district left to the district), and each group's
 * contribution is what the estimate would change by were the flat typical in that group alone
 * (negative: the flat's own value of the group adds that much to its estimate).
 *
 * Fixed a priori: no weights, nothing fitted to held-out data. Pure: the caller values the variants
 * with the serving runtime, all in one call (models/residential ResidentialRuntime.value).
 */
import { mostUsual, rankedContributions, type Contribution as GroupContribution } from '../ensemble/attribution';
import { median } from '../ensemble/metrics';
import type { BuildingType, DistrictId, Market, Renovation } from '../vocabulary/codes';
import type { ComparableRow } from './comparables';
import type { ApartmentRequest } from './request';

export const ATTRIBUTION_GROUPS = ['size', 'place', 'market', 'floor', 'building', 'renovation'] as const;
export type AttributionGroup = (typeof ATTRIBUTION_GROUPS)[number];

/** The district's typical flat: what each group is set to in its variant. */
export interface TypicalFlat {
  district: DistrictId;
  /** Training listings it is drawn from. */
  listings: number;
  area: number;
  rooms: number;
  totalFloors: number;
  market: Market | null;
  renovation: Renovation | null;
  buildingType: BuildingType | null;
}

export type Contribution = GroupContribution<AttributionGroup>;

/** Each district's typical flat, worked out once per table (a report asks for it, and the listings do not change under it). */
const typicalOf = new WeakMap<readonly ComparableRow[], TypicalFlat>();

/** The typical flat of a district's training listings; null when the district has none. */
export function typicalFlat(district: DistrictId, rows: readonly ComparableRow[]): TypicalFlat | null {
  if (rows.length === 0) return null;
  const cached = typicalOf.get(rows);
  if (cached) return cached;
  const typical = typicalOfRows(district, rows);
  typicalOf.set(rows, typical);
  return typical;
}

function typicalOfRows(district: DistrictId, rows: readonly ComparableRow[]): TypicalFlat {
  const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null && x > 0);
  return {
    district,
    listings: rows.length,
    area: Math.round(median(rows.map((r) => r.area)) * 10) / 10,
    rooms: Math.round(median(known(rows.map((r) => r.rooms)))) || 2,
    totalFloors: Math.round(median(known(rows.map((r) => r.totalFloors)))) || 9,
    market: mostUsual(rows.map((r) => r.market)),
    renovation: mostUsual(rows.map((r) => r.renovation)),
    buildingType: mostUsual(rows.map((r) => r.buildingType)),
  };
}

/** A middle floor of a building of `totalFloors`: 5 of 9, 3 of 5, 1 of 1. */
export const middleFloor = (totalFloors: number): number => Math.max(1, Math.ceil(totalFloors / 2));

/**
 * One variant per group in which the flat differs from the typical one and says the group's fields
 * (a field the request left out has no value to attribute): the group set to the typical flat's.
 */
export function attributionVariants(request: ApartmentRequest, typical: TypicalFlat): { group: AttributionGroup; request: ApartmentRequest }[] {
  const variants: { group: AttributionGroup; request: ApartmentRequest }[] = [];
  const add = (group: AttributionGroup, differs: boolean, change: Partial<ApartmentRequest>) => {
    if (differs) variants.push({ group, request: { ...request, ...change, askingPrice: null } });
  };
  add('size', request.area !== typical.area || request.rooms !== typical.rooms, { area: typical.area, rooms: typical.rooms });
  add('place', request.mahallaId !== null || request.lat !== null, { mahallaId: null, lat: null, lon: null });
  add('market', request.market !== null && typical.market !== null && request.market !== typical.market, { market: typical.market });
  add('floor', request.floor !== middleFloor(request.totalFloors), { floor: middleFloor(request.totalFloors) });
  // The building's height and type; the flat keeps its place in it (the same share of the way up).
  const typicalFloor = Math.min(typical.totalFloors, Math.max(1, Math.round((request.floor / request.totalFloors) * typical.totalFloors)));
  add('building', request.totalFloors !== typical.totalFloors || (request.buildingType !== null && typical.buildingType !== null && request.buildingType !== typical.buildingType), {
    totalFloors: typical.totalFloors, floor: typicalFloor, buildingType: request.buildingType === null ? null : typical.buildingType,
  });
  add('renovation', request.renovation !== null && typical.renovation !== null && request.renovation !== typical.renovation, { renovation: typical.renovation });
  return variants;
}

/** The changes from the estimate to its variants' estimates, largest first (ties in group order), at most `top`. */
export function contributions(estimate: number, variants: readonly { group: AttributionGroup; estimate: number }[], top = 5): Contribution[] {
  return rankedContributions(estimate, variants, ATTRIBUTION_GROUPS, top);
}
