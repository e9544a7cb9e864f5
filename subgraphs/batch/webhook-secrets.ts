/**
 * Per-organisation webhook signing secrets (docs/ARCHITECTURE.md, "A batch job"). Each organisation's secret is random
 * (`whsec_` + 32 random bytes), made on first use and kept, so restarts keep signatures verifiable;
 * nothing is derived from the organisation's name. Organisations read theirs with the
 * `batchWebhookSecret` query.
 * - WebhookSecretStore: in the service's local state folder, readable by the owner only, like the
 *   API keys and the JWT secret. Processes on one machine share the folder (the first writer wins).
 * - RedisWebhookSecretStore: with REDIS_URL, in Redis, so every API process on every machine signs
 *   with the same secret (SET NX: the first writer wins). A secret already in the local folder is
 *   carried over on first use, so receivers set up before Redis keep verifying. Each Redis call is
 *   bounded: a Redis that is down or stalled makes secretFor fail with BatchStorageUnavailableError
 *   (SERVICE_UNAVAILABLE) within the timeout, not wait for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { within } from '../../platform/within';
import type { WebhookSecretSource } from './completion-webhooks';
import { BatchStorageUnavailableError } from '../../platform/batch-engine/errors';
import { newWebhookSecret } from './webhooks';
import { createPrivateFileOnce, valuationHome } from '../../platform/local-state';

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
  /** The longest one Redis call may take before secretFor fails with BatchStorageUnavailableError. @default 250 (DEFAULT_REDIS_TIMEOUT_MS) */
  timeoutMs?: number;
}

export class RedisWebhookSecretStore implements WebhookSecretSource {
  private readonly cache = new Map<string, string>();
  private readonly keyPrefix: string;
  private readonly carriedOver: Pick<WebhookSecretStore, 'existing'>;
  private readonly timeoutMs: number;

  /** Borrows `client`: the caller connects and closes it. */
  constructor(
    private readonly client: SecretsRedis,
    options: RedisWebhookSecretStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'batch:';
    this.carriedOver = options.carriedOver ?? new WebhookSecretStore();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  }

  async secretFor(organisation: string): Promise<string> {
    checkOrganisation(organisation);
    const cached = this.cache.get(organisation);
    if (cached) return cached;
    const key = `${this.keyPrefix}webhook-secret:${organisation}`;
    let secret = await this.bounded(this.client.get(key));
    if (typeof secret !== 'string') {
      await this.bounded(this.client.set(key, this.carriedOver.existing(organisation) ?? newWebhookSecret(), { NX: true }));
      secret = await this.bounded(this.client.get(key));
      if (typeof secret !== 'string') throw new Error(`the webhook secret of ${organisation} could not be stored in Redis`);
    }
    this.cache.set(organisation, secret);
    return secret;
  }

  private bounded<T>(command: Promise<T>): Promise<T> {
    return within(command, this.timeoutMs, () => {
      throw new BatchStorageUnavailableError({ cause: new Error(`Redis did not answer within ${this.timeoutMs} ms`) });
    });
  }
}

/** The store for this deployment: Redis when a URL is given, else the local folder; close() releases it. */
export async function openWebhookSecretSource(options: { redisUrl?: string; keyPrefix?: string; timeoutMs?: number; log?: (message: string) => void }): Promise<WebhookSecretSource & { close(): Promise<void> }> {
  if (!options.redisUrl) {
    const store = new WebhookSecretStore();
    return { secretFor: (organisation) => store.secretFor(organisation), close: async () => undefined };
  }
  // No offline queue: while Redis is away a read fails at once (the caller retries) instead of queueing.
  const client = createClient({ url: options.redisUrl, disableOfflineQueue: true });
  client.on('error', (error: Error) => options.log?.(`webhook secrets: ${error.message}`));
  await client.connect();
  const store = new RedisWebhookSecretStore(client, { keyPrefix: options.keyPrefix, timeoutMs: options.timeoutMs });
  return {
    secretFor: (organisation) => store.secretFor(organisation),
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}
