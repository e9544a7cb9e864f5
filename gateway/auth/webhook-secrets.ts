/**
 * Per-organisation webhook signing secrets (architecture §4), kept like the API keys and the JWT
 * secret: in the service's local state folder, readable by the owner only. Each organisation's
 * secret is random (`whsec_` + 32 random bytes), made on first use and kept in
 * `${VALUATION_HOME}/webhook-secrets/<org>` so restarts keep signatures verifiable; nothing is
 * derived from the organisation's name. Processes on one machine share the folder (the first
 * writer wins a race); processes on several machines need a shared folder or another source
 * behind the same interface (WebhookSecretSource in the location subgraph).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newWebhookSecret } from '../../subgraphs/location/batch/webhooks';
import { createPrivateFileOnce, valuationHome } from './local-state';

/** Organisation names as the key store accepts them, so one is always a safe file name. */
const ORG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export interface WebhookSecretStoreOptions {
  /** @default `${VALUATION_HOME}/webhook-secrets` */
  dir?: string;
}

export class WebhookSecretStore {
  private readonly dir: string;
  private readonly cache = new Map<string, string>();

  constructor(options: WebhookSecretStoreOptions = {}) {
    this.dir = options.dir ?? join(valuationHome(), 'webhook-secrets');
  }

  /** The organisation's `whsec_…` secret, made and persisted on first use. */
  async secretFor(organisation: string): Promise<string> {
    if (!ORG_PATTERN.test(organisation)) throw new Error(`not an organisation name: ${JSON.stringify(organisation)}`);
    let secret = this.cache.get(organisation);
    if (!secret) {
      const file = join(this.dir, organisation);
      // If another process creates it first, its secret wins and both read the same file.
      createPrivateFileOnce(file, `${newWebhookSecret()}\n`);
      secret = readFileSync(file, 'utf8').trim();
      this.cache.set(organisation, secret);
    }
    return secret;
  }
}
