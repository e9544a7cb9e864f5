/**
 * Per-organisation webhook signing secrets (architecture §4). Each organisation's secret is random
 * (`whsec_` + 32 random bytes), made on first use and kept, so restarts keep signatures verifiable;
 * nothing is derived from the organisation's name. Organisations read theirs with the
 * `batchWebhookSecret` query.
 * - WebhookSecretStore: in the service's local state folder, readable by the owner only, like the
 *   API keys and the JWT secret. Processes on one machine share the folder (the first writer wins).
 * - RedisWebhookSecretStore: with REDIS_URL, in Redis, so every API process on every machine signs
 *   with the same secret (SET NX: the first writer wins). A secret already in the local folder is
 *   carried over on first use, so receivers set up before Redis keep verifying.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import type { WebhookSecretSource } from '../../subgraphs/location/batch/completion-webhooks';
import { newWebhookSecret } from '../../subgraphs/location/batch/webhooks';
import { createPrivateFileOnce, valuationHome } from './local-state';

/** Organisation names as the key store accepts them, so one is always a safe file name and key part. */
const ORG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

function checkOrganisation(organisation: string): void {
  if (!ORG_PATTERN.test(organisation)) throw new Error(`not an organisation name: ${JSON.stringify(organisation)}`);
}

export interface WebhookSecretStoreOptions {
  /** @default `${VALUATION_HOME}/webhook-secrets` */
  dir?: string;
}

export class WebhookSecretStore implements WebhookSecretSource {
  private readonly dir: string;
  private readonly cache = new Map<string, string>();

  constructor(options: WebhookSecretStoreOptions = {}) {
    this.dir = options.dir ?? join(valuationHome(), 'webhook-secrets');
  }

  /** The organisation's `whsec_…` secret, made and persisted on first use. */
  async secretFor(organisation: string): Promise<string> {
    checkOrganisation(organisation);
    let secret = this.cache.get(organisation);
    if (!secret) {
      // If another process creates it first, its secret wins and both read the same file.
      createPrivateFileOnce(join(this.dir, organisation), `${newWebhookSecret()}\n`);
      secret = this.existing(organisation)!;
      this.cache.set(organisation, secret);
    }
    return secret;
  }

  /** The secret kept in the folder, without making one. */
  existing(organisation: string): string | undefined {
    checkOrganisation(organisation);
    const file = join(this.dir, organisation);
    return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  }
}

/** What the store needs of a node-redis client (any client's modules and RESP version will do). */
export interface SecretsRedis {
  get(key: string): Promise<string | null | unknown>;
  set(key: string, value: string, options: { NX: true }): Promise<unknown>;
}

export interface RedisWebhookSecretStoreOptions {
  /** Prepended to `webhook-secret:<org>`. @default 'batch:' (BATCH_KEY_PREFIX) */
  keyPrefix?: string;
  /** Secrets made before Redis was configured. @default a WebhookSecretStore under VALUATION_HOME */
  carriedOver?: Pick<WebhookSecretStore, 'existing'>;
}

export class RedisWebhookSecretStore implements WebhookSecretSource {
  private readonly cache = new Map<string, string>();
  private readonly keyPrefix: string;
  private readonly carriedOver: Pick<WebhookSecretStore, 'existing'>;

  /** Borrows `client`: the caller connects and closes it. */
  constructor(
    private readonly client: SecretsRedis,
    options: RedisWebhookSecretStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'batch:';
    this.carriedOver = options.carriedOver ?? new WebhookSecretStore();
  }

  async secretFor(organisation: string): Promise<string> {
    checkOrganisation(organisation);
    const cached = this.cache.get(organisation);
    if (cached) return cached;
    const key = `${this.keyPrefix}webhook-secret:${organisation}`;
    let secret = await this.client.get(key);
    if (typeof secret !== 'string') {
      await this.client.set(key, this.carriedOver.existing(organisation) ?? newWebhookSecret(), { NX: true });
      secret = await this.client.get(key);
      if (typeof secret !== 'string') throw new Error(`the webhook secret of ${organisation} could not be stored in Redis`);
    }
    this.cache.set(organisation, secret);
    return secret;
  }
}

/** The store for this deployment: Redis when a URL is given, else the local folder; close() releases it. */
export async function openWebhookSecretSource(options: { redisUrl?: string; keyPrefix?: string; log?: (message: string) => void }): Promise<WebhookSecretSource & { close(): Promise<void> }> {
  if (!options.redisUrl) {
    const store = new WebhookSecretStore();
    return { secretFor: (organisation) => store.secretFor(organisation), close: async () => undefined };
  }
  const client = createClient({ url: options.redisUrl });
  client.on('error', (error: Error) => options.log?.(`webhook secrets: ${error.message}`));
  await client.connect();
  const store = new RedisWebhookSecretStore(client, { keyPrefix: options.keyPrefix });
  return {
    secretFor: (organisation) => store.secretFor(organisation),
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}
