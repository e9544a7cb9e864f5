/**
 * The ingestions (the listing files' `ingestListings`, the vehicles' `ingestVehicles`) run once per
 * distinct options in a test file, for a `jest.mock` of the module the trainers import them from: a
 * training, or `trainingRecords` and `forwardTestOf`, ingest the same files again on every call (a
 * full ingest is seconds). The result comes frozen, deep, so code that altered what it was given
 * would throw rather than pass on altered data. A test that compares the trainers' records with an
 * ingestion of its own takes that one from `jest.requireActual`, fresh.
 *
 *   jest.mock('../../models/ingest', () => jest.requireActual<typeof import('../support/ingest-once')>('../support/ingest-once').listingsIngestedOnce());
 */
import type * as Listings from '../../models/ingest';
import type * as Vehicles from '../../models/vehicle/ingest';

/** models/ingest with `ingestListings` run once per options. */
export function listingsIngestedOnce(): typeof Listings {
  const actual = jest.requireActual<typeof Listings>('../../models/ingest');
  return { ...actual, ingestListings: once(actual.ingestListings) };
}

/** models/vehicle/ingest with `ingestVehicles` run once per options. */
export function vehiclesIngestedOnce(): typeof Vehicles {
  const actual = jest.requireActual<typeof Vehicles>('../../models/vehicle/ingest');
  return { ...actual, ingestVehicles: once(actual.ingestVehicles) };
}

function once<O, R>(ingest: (options?: O) => R): (options?: O) => R {
  const results = new Map<string, R>();
  return (options) => {
    const key = JSON.stringify(options ?? {});
    if (!results.has(key)) results.set(key, deepFreeze(ingest(options)));
    return results.get(key)!;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
