/**
 * Webhook signing secrets on Redis: every API process (here: two stores, each with its own local
 * folder, as on two machines) signs with the one secret, and a secret made before Redis was
 * configured is carried over so its receivers keep verifying.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { RedisWebhookSecretStore, WebhookSecretStore } from '../../subgraphs/batch/webhook-secrets';
import { REDIS_URL, describeWithRedis } from '../support/redis';

const keyPrefix = `test:webhook-secrets:${process.pid}:${randomBytes(4).toString('hex')}:`;

describeWithRedis('webhook signing secrets on Redis', () => {
  const client = createClient({ url: REDIS_URL });
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-secrets-'));
    folders.push(dir);
    return dir;
  };

  beforeAll(() => client.connect());
  afterAll(async () => {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}*` })) keys.push(...batch);
    if (keys.length > 0) await client.del(keys);
    await client.close();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('gives every process the same random secret per organisation, different between organisations', async () => {
    const machineA = new RedisWebhookSecretStore(client, { keyPrefix, carriedOver: new WebhookSecretStore({ dir: folder() }) });
    const machineB = new RedisWebhookSecretStore(client, { keyPrefix, carriedOver: new WebhookSecretStore({ dir: folder() }) });
    const [a, b] = await Promise.all([machineA.secretFor('bank-one'), machineB.secretFor('bank-one')]);
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(b).toBe(a);
    expect(await machineB.secretFor('bank-two')).not.toBe(a);
    expect(await client.get(`${keyPrefix}webhook-secret:bank-one`)).toBe(a);
  });

  it("carries over a secret kept in the local folder before Redis was configured", async () => {
    const dir = folder();
    const before = await new WebhookSecretStore({ dir }).secretFor('bank-three');
    const store = new RedisWebhookSecretStore(client, { keyPrefix, carriedOver: new WebhookSecretStore({ dir }) });
    expect(await store.secretFor('bank-three')).toBe(before);
    // Once in Redis, Redis decides: another machine's different local secret does not replace it.
    const elsewhere = new RedisWebhookSecretStore(client, { keyPrefix, carriedOver: { existing: () => 'whsec_other' } });
    expect(await elsewhere.secretFor('bank-three')).toBe(before);
  });

  it('refuses names that are not organisation names', async () => {
    const store = new RedisWebhookSecretStore(client, { keyPrefix, carriedOver: new WebhookSecretStore({ dir: folder() }) });
    await expect(store.secretFor('../etc/passwd')).rejects.toThrow(/not an organisation name/);
    await expect(store.secretFor('a*')).rejects.toThrow(/not an organisation name/);
  });
});
