/** Cleaning up after tests that share a Redis: every key under a run's prefix. */
import { createClient } from 'redis';

/** What the cleanup needs of a node-redis client, whatever its modules and RESP version. */
interface Client {
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  del(keys: string[]): Promise<unknown>;
}

/** Deletes every key under `prefix`, on `client`, or on a connection to the URL opened and closed for it. */
export async function deleteKeysUnder(prefix: string, target: Client | string): Promise<void> {
  if (typeof target === 'string') {
    const client = createClient({ url: target });
    await client.connect();
    await deleteKeysUnder(prefix, client);
    await client.close();
    return;
  }
  const leftovers: string[] = [];
  for await (const batch of target.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) leftovers.push(...batch);
  if (leftovers.length > 0) await target.del(leftovers);
}
