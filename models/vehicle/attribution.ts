/**
 * What drives one car's estimate (issue 35, item 6): as a flat's (models/residential/attribution.ts)
 * and a house's (models/house/attribution.ts), a one-at-a-time occlusion. The car is valued again
 * with one field group set to its make and model's typical car (the training listings' median model
 * year, mileage, engine volume and trim, and their most usual fuel, gearbox, body, drive, condition
 * and region); each group's contribution is what the estimate would change by were the car typical
 * of its make and model in that group alone. Make and model themselves are the comparison's frame,
 * not a group. A make and model with too few listings is compared with its make's typical car, a make
 * with too few with the whole market's.
 *
 * Fixed a priori: nothing fitted, no weights. The typical cars are worked out by the trainer from its
 * training rows and shipped in the manifest (`typical`); the caller values the variants with the
 * serving runtime, all in one call.
 */
import { mostUsual, rankedContributions, type Contribution } from '../ensemble/attribution';
import { median } from '../ensemble/metrics';
import { groupBy } from '../ingest/outliers';
import { vehicleGroup, type VehicleFeatureSource } from './features';
import type { TypicalVehicle, TypicalVehicleLevel, TypicalVehicles, VehicleRequest } from './valuation';
import { badgeFamily } from './vocabulary';

export type { TypicalVehicle, TypicalVehicleLevel, TypicalVehicles } from './valuation';

export const VEHICLE_ATTRIBUTION_GROUPS = ['year', 'mileage', 'engine', 'fuel', 'transmission', 'body', 'drive', 'trim', 'condition', 'region'] as const;
export type VehicleAttributionGroup = (typeof VEHICLE_ATTRIBUTION_GROUPS)[number];
export type VehicleContribution = Contribution<VehicleAttributionGroup>;

type TypicalSource = Omit<VehicleFeatureSource, 'period'>;

/** The typical car of some training rows (deterministic: medians, and the most usual value, ties to the first met). */
export function typicalVehicle(rows: readonly TypicalSource[]): TypicalVehicle {
  const known = <T>(xs: (T | null)[]) => xs.filter((x): x is T => x !== null);
  const middle = (xs: number[], step: number) => (xs.length ? Math.round(Math.round(median(xs) / step) * step * 1000) / 1000 : null);
  return {
    listings: rows.length,
    year: Math.round(median(rows.map((r) => r.year))),
    mileageKm: middle(known(rows.map((r) => r.mileageKm)), 1000),
    engineLitres: middle(known(rows.map((r) => r.engineLitres)).filter((x) => x > 0), 0.1),
    fuel: mostUsual(rows.map((r) => r.fuel)),
    transmission: mostUsual(rows.map((r) => r.transmission)),
    body: mostUsual(rows.map((r) => r.body)),
    drive: mostUsual(rows.map((r) => r.drive)),
    trim: middle(known(rows.map((r) => r.trim)), 1),
    defects: recordedBothWays(rows.map((r) => r.defects)),
    region: mostUsual(rows.map((r) => r.region)),
  };
}

/**
 * The most usual answer of a yes/no the rows record both ways; null when they only ever record one.
 * The listings' condition is such a column: the 2022 file's "Kami bor" is ticked (defects) or blank,
 * the other files do not have it, so no listing says "no defects" and the most usual known answer
 * would always be "needs repair". With no typical condition, a car's condition is not attributed.
 */
function recordedBothWays(values: readonly (boolean | null)[]): boolean | null {
  return values.includes(true) && values.includes(false) ? mostUsual(values) : null;
}

/** The typical cars of the training rows: per make and model and per make with `minListings` or more, and overall. */
export function typicalVehicles(rows: readonly TypicalSource[], minListings: number): TypicalVehicles {
  const ofGroups = (key: (row: TypicalSource) => string, of: readonly TypicalSource[]) =>
    Object.fromEntries([...groupBy(of, key)].filter(([, g]) => g.length >= minListings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, g]) => [id, typicalVehicle(g)]));
  return {
    group: ofGroups(vehicleGroup, rows.filter((r) => r.model !== null)),
    make: ofGroups((r) => badgeFamily(r.make), rows),
    overall: typicalVehicle(rows),
    minListings,
  };
}

/** The typical car a request is compared with: its make and model's, else its make's, else the market's. */
export function typicalVehicleOf(request: Pick<VehicleRequest, 'make' | 'model'>, typical: TypicalVehicles): { level: TypicalVehicleLevel; typical: TypicalVehicle } {
  const own = request.model === null ? undefined : typical.group[vehicleGroup(request)];
  if (own) return { level: 'model', typical: own };
  const make = typical.make[badgeFamily(request.make)];
  return make ? { level: 'make', typical: make } : { level: 'market', typical: typical.overall };
}

/**
 * One variant per group in which the car differs from the typical one and says the group's field (a
 * field the request left out has no value to attribute; the typical car must know it too): the
 * group set to the typical car's, the asking price dropped.
 */
export function vehicleAttributionVariants(request: VehicleRequest, typical: TypicalVehicle): { group: VehicleAttributionGroup; request: VehicleRequest }[] {
  const variants: { group: VehicleAttributionGroup; request: VehicleRequest }[] = [];
  const add = (group: VehicleAttributionGroup, differs: boolean, change: Partial<VehicleRequest>) => {
    if (differs) variants.push({ group, request: { ...request, ...change, askingPrice: null } });
  };
  const given = <T>(own: T | null, usual: T | null) => own !== null && usual !== null && own !== usual;
  add('year', request.year !== typical.year, { year: typical.year });
  add('mileage', given(request.mileageKm, typical.mileageKm), { mileageKm: typical.mileageKm });
  add('engine', given(request.engineLitres, typical.engineLitres), { engineLitres: typical.engineLitres });
  add('fuel', given(request.fuel, typical.fuel), { fuel: typical.fuel });
  add('transmission', given(request.transmission, typical.transmission), { transmission: typical.transmission });
  add('body', given(request.body, typical.body), { body: typical.body });
  add('drive', given(request.drive, typical.drive), { drive: typical.drive });
  add('trim', given(request.trim, typical.trim), { trim: typical.trim });
  add('condition', given(request.defects, typical.defects), { defects: typical.defects });
  add('region', given(request.region, typical.region), { region: typical.region });
  return variants;
}

/** The changes from the estimate to its variants' estimates, largest first (ties in group order), at most `top`. */
export function vehicleContributions(estimate: number, variants: readonly { group: VehicleAttributionGroup; estimate: number }[], top = 5): VehicleContribution[] {
  return rankedContributions(estimate, variants, VEHICLE_ATTRIBUTION_GROUPS, top);
}
