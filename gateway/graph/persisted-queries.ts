/**
 * Automatic persisted queries, one registry per organisation (issue 33, finding 10). Apollo Server's
 * APQ cache is keyed by the query's hash alone, so one bank could run another's registered query
 * by its hash, and learn from the answer that someone had sent that exact text. Apollo Server reads
 * and writes the cache with the hash only (no request at hand), so the organisation comes from the
 * asynchronous context the HTTP route runs the request in (`inOrganisationScope`): org B sending
 * org A's hash gets PERSISTED_QUERY_NOT_FOUND, as it would for a hash nobody registered.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LRUCache } from 'lru-cache';

const organisation = new AsyncLocalStorage<string>();

/** Runs `work` (an HTTP GraphQL request) as `org`'s: the persisted queries it reads and registers are that organisation's. */
export function inOrganisationScope<T>(org: string | undefined, work: () => T): T {
  return org === undefined ? work() : organisation.run(org, work);
}

/** Characters of registered queries kept, all organisations together (least recently used go first). @default 8 MB */
const REGISTERED_QUERY_CHARACTERS = 8_000_000;

/**
 * Apollo Server's KeyValueCache for `persistedQueries.cache`, keyed by organisation and hash. Outside
 * an organisation's scope (no caller known) nothing is found and nothing is kept.
 */
export class OrganisationPersistedQueries {
  private readonly queries = new LRUCache<string, string>({ maxSize: REGISTERED_QUERY_CHARACTERS, sizeCalculation: (query, key) => query.length + key.length });

  private keyOf(hash: string): string | undefined {
    const org = organisation.getStore();
    return org === undefined ? undefined : JSON.stringify([org, hash]);
  }

  async get(hash: string): Promise<string | undefined> {
    const key = this.keyOf(hash);
    return key === undefined ? undefined : this.queries.get(key);
  }

  async set(hash: string, query: string): Promise<void> {
    const key = this.keyOf(hash);
    if (key !== undefined) this.queries.set(key, query);
  }

  async delete(hash: string): Promise<boolean> {
    const key = this.keyOf(hash);
    return key !== undefined && this.queries.delete(key);
  }
}
