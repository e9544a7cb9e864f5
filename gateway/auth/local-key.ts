import type { CreatedKey, KeyStore } from './key-store';

export const LOCAL_ORG = 'local';

/**
 * The first start's key: when there is no key file yet, creates it with a key for organisation
 * 'local' (plan 'development': the standard plan's rates, so the README can be followed, with
 * short retention) so the operator can try the API, and returns it for the caller to print
 * once. Every later start returns null and creates nothing, and so does a first start finding a key
 * file made beforehand (by the keys CLI, for a bank's organisation): a key is printed to a log on the
 * very first start only. A revoked or missing local key is not replaced (use the keys CLI).
 */
export function createFirstStartKey(store: KeyStore): CreatedKey | null {
  return store.createInNewFile({ org: LOCAL_ORG, plan: 'development', label: 'created on first start' });
}
