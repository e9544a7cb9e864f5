/**
 * An ingestion (the listing files' `ingestListings`, the vehicles' `ingestVehicles`) run once per
 * distinct options in a test file, for a `jest.mock` of the module the trainers import it from: a
 * training, or `trainingRecords` and `forwardTestOf`, ingest the same files again on every call (a
 * full ingest is seconds). The result comes frozen, deep, so code that altered what it was given
 * would throw rather than pass on altered data. A test that compares the trainers' records with an
 * ingestion of its own takes that one from `jest.requireActual`, fresh.
 *
 *   jest.mock('../../models/ingest', () => {
 *     const actual = jest.requireActual<typeof import('../../models/ingest')>('../../models/ingest');
 *     return { ...actual, ingestListings: jest.requireActual<typeof import('../support/ingest-once')>('../support/ingest-once').once(actual.ingestListings) };
 *   });
 */
export function once<O, R>(ingest: (options?: O) => R): (options?: O) => R {
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
