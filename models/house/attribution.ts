/**
 * What drives one house's estimate (issue 35, item 6): as a flat's (models/residential/attribution.ts),
 * each field group of the house set to its district's typical house in turn (the training houses'
 * median floor area, rooms, plot and storeys, and their most usual building type, renovation and
 * utilities; the place within the district left to the district). Fixed a priori; pure.
 */
import { mostUsual, rankedContributions, type Contribution } from '../ensemble/attribution';
import { median } from '../ensemble/metrics';
import type { BuildingType, Renovation } from '../vocabulary/codes';
import type { HouseFeatureSource } from './features';
import type { HouseRequest } from './valuation';

export const HOUSE_ATTRIBUTION_GROUPS = ['size', 'plot', 'place', 'building', 'renovation', 'utilities'] as const;
export type HouseAttributionGroup = (typeof HOUSE_ATTRIBUTION_GROUPS)[number];

/** The district's typical house (the training houses' medians and most usual values), kept in the house manifest. */
export interface TypicalHouse {
  /** Training houses it is drawn from. */
  listings: number;
  area: number;
  rooms: number | null;
  landAreaSotka: number | null;
  totalFloors: number | null;
  buildingType: BuildingType | null;
  renovation: Renovation | null;
  gas: boolean | null;
  water: boolean | null;
  sewerage: boolean | null;
}

/** The typical house of a district's training houses; null when it has none. */
export function typicalHouse(rows: readonly Omit<HouseFeatureSource, 'period' | 'district'>[]): TypicalHouse | null {
  if (rows.length === 0) return null;
  const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null && x > 0);
  const middle = (xs: number[], step: number) => (xs.length ? Math.round(median(xs) / step) * step : null);
  return {
    listings: rows.length,
    area: Math.round(median(rows.map((r) => r.area))),
    rooms: middle(known(rows.map((r) => r.rooms)), 1),
    landAreaSotka: middle(known(rows.map((r) => r.landAreaSotka)), 0.5),
    totalFloors: middle(known(rows.map((r) => r.totalFloors)), 1),
    buildingType: mostUsual(rows.map((r) => r.buildingType)),
    renovation: mostUsual(rows.map((r) => r.renovation)),
    gas: mostUsual(rows.map((r) => r.gas)),
    water: mostUsual(rows.map((r) => r.water)),
    sewerage: mostUsual(rows.map((r) => r.sewerage)),
  };
}

/**
 * One variant per group in which the house differs from the typical one and says the group's fields
 * (a field the request left out has no value to attribute; the typical house must know it too).
 */
export function houseAttributionVariants(request: HouseRequest, typical: TypicalHouse): { group: HouseAttributionGroup; request: HouseRequest }[] {
  const variants: { group: HouseAttributionGroup; request: HouseRequest }[] = [];
  const add = (group: HouseAttributionGroup, differs: boolean, change: Partial<HouseRequest>) => {
    if (differs) variants.push({ group, request: { ...request, ...change, askingPrice: null } });
  };
  const given = <T>(own: T | null, usual: T | null) => own !== null && usual !== null && own !== usual;
  add('size', request.area !== typical.area || given(request.rooms, typical.rooms), { area: typical.area, ...(request.rooms !== null && { rooms: typical.rooms }) });
  add('plot', given(request.landAreaSotka, typical.landAreaSotka), { landAreaSotka: typical.landAreaSotka });
  add('place', request.mahallaId !== null || request.lat !== null, { mahallaId: null, lat: null, lon: null });
  add('building', given(request.totalFloors, typical.totalFloors) || given(request.buildingType, typical.buildingType), {
    ...(request.totalFloors !== null && { totalFloors: typical.totalFloors }), ...(request.buildingType !== null && { buildingType: typical.buildingType }),
  });
  add('renovation', given(request.renovation, typical.renovation), { renovation: typical.renovation });
  add('utilities', given(request.gas, typical.gas) || given(request.water, typical.water) || given(request.sewerage, typical.sewerage), {
    ...(request.gas !== null && { gas: typical.gas }), ...(request.water !== null && { water: typical.water }), ...(request.sewerage !== null && { sewerage: typical.sewerage }),
  });
  return variants;
}

/** The changes from the estimate to its variants' estimates, largest first (ties in group order), at most `top`. */
export function houseContributions(estimate: number, variants: readonly { group: HouseAttributionGroup; estimate: number }[], top = 5): Contribution<HouseAttributionGroup>[] {
  return rankedContributions(estimate, variants, HOUSE_ATTRIBUTION_GROUPS, top);
}
