import type { CreatedKey, KeyStore } from './key-store';

export const LOCAL_ORG = 'local';

/**
 * On first start, makes a key for organisation 'local' (plan 'pilot') so the operator can try the API;
 * the caller prints it once. Returns null once 'local' has any key, revoked ones included, so a
 * revoked local key is not silently replaced (create another with the keys CLI).
 */
export function ensureLocalKey(store: KeyStore): CreatedKey | null {
  if (store.list().some((record) => record.org === LOCAL_ORG)) return null;
  return store.create({ org: LOCAL_ORG, plan: 'pilot', label: 'created on first start' });
}
