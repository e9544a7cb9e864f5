/**
 * The vocabulary lookups the adapters use, memoised: 28,000 rows repeat a few hundred names, and
 * fuzzy matching on a miss is the expensive part.
 */
import { parseYesNo } from '../../vocabulary';
import { memoise } from '../../ingest/normaliser';
import { isBlank } from '../../ingest/parse';
import {
  isResolved, normaliseBody, normaliseColour, normaliseDrive, normaliseFuel, normaliseRegion, normaliseTransmission,
  resolveMake, resolveModel, resolveVehicle,
  type BodyType, type Colour, type Drive, type Fuel, type RegionId, type Transmission, type VehicleName,
} from '../vocabulary';

export interface VehicleLookups {
  /** "Chevrolet Cobalt", "VAZ (Lada) 2106": make and model from one cell. */
  vehicle(text: string): VehicleName | null;
  make(text: string): string | null;
  /** The canonical model of a canonical make. */
  model(make: string, text: string): string | null;
  region(text: string): RegionId | null;
  fuel(text: string): Fuel | null;
  transmission(text: string): Transmission | null;
  body(text: string): BodyType | null;
  drive(text: string): Drive | null;
  colour(text: string): Colour | null;
  yesNo(text: string): boolean | null;
}

/** Only exact and alias spellings count: a suggestion is not a name. */
function resolvedOrNull<T extends string | VehicleName>(result: T | { suggestions: string[] }): T | null {
  return isResolved(result) ? result : null;
}

export function createVehicleLookups(): VehicleLookups {
  const model = memoise((key) => {
    const separator = key.indexOf('\u0000');
    return resolvedOrNull(resolveModel(key.slice(0, separator), key.slice(separator + 1)));
  });
  return {
    vehicle: memoise((text) => resolvedOrNull(resolveVehicle(text))),
    make: memoise((text) => resolvedOrNull(resolveMake(text))),
    model: (make, text) => (isBlank(text) ? null : model(`${make}\u0000${text}`)),
    region: memoise(normaliseRegion),
    fuel: memoise(normaliseFuel),
    transmission: memoise(normaliseTransmission),
    body: memoise(normaliseBody),
    drive: memoise(normaliseDrive),
    colour: memoise(normaliseColour),
    yesNo: memoise(parseYesNo),
  };
}
