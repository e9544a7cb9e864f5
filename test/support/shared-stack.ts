/**
 * The worker's shared stack (test/shared-stack-host.js): the service with its default settings, started
 * once per jest worker in a process of its own and used by every test file that needs nothing else of
 * it. Files share it as clients of one running bank service would: each works under organisations of its
 * own (fresh keys), so quotas, records, observations and batch jobs stay apart. A file that needs its
 * own settings, the stack's logs or its in-process parts starts its own (./stack.ts startTestStack).
 */
import { KeyStore } from '../../gateway/auth/key-store';
import type { SubgraphName } from '../../subgraphs/registry';
import type { SharedStackInfo } from './shared-stack-main';
import { stackClient, stackFixture, type Fixture, type StackClient } from './stack-client';
import { until } from './wait';

export interface SharedTestStack extends StackClient, Record<SubgraphName, { readonly url: string }> {
  readonly url: string;
  readonly keys: KeyStore;
  readonly internalToken: string;
  /** The residential model version in service. */
  readonly modelVersion: string;
  readonly vehicleModelVersion: string | null;
  /**
   * Revokes the key in the key file, as the keys CLI does, and resolves once the gateway refuses it: a
   * process other than the gateway's sees a revocation within a second (gateway/auth/key-store.ts).
   */
  revokeKey(id: string, key: string): Promise<void>;
}

declare global {
  // Set by test/jest-environment.js: starts the worker's shared stack on first call.
  // eslint-disable-next-line no-var
  var __acquireSharedTestStack: (() => Promise<SharedStackInfo>) | undefined;
}

/** The worker's shared stack; `checkResponses: false` leaves replies unchecked (hostile bodies). */
export async function sharedTestStack(options: { checkResponses?: boolean } = {}): Promise<SharedTestStack> {
  if (!globalThis.__acquireSharedTestStack) throw new Error('the shared test stack needs test/jest-environment.js as the jest environment');
  const info = await globalThis.__acquireSharedTestStack();
  const keys = new KeyStore({ file: info.keysFile });
  const subgraphs = Object.fromEntries(Object.entries(info.subgraphUrls).map(([name, url]) => [name, { url }])) as Record<SubgraphName, { url: string }>;
  return {
    ...subgraphs,
    url: info.url,
    keys,
    internalToken: info.internalToken,
    modelVersion: info.modelVersion,
    vehicleModelVersion: info.vehicleModelVersion,
    ...stackClient(info.url, keys, options.checkResponses !== false),
    revokeKey: async (id, key) => {
      keys.revoke(id);
      await until(
        async () => (await fetch(`${info.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: '{"query":"{ __typename }"}' })).status,
        (status) => status === 401,
        5_000,
      );
    },
  };
}

/** The shared stack for the enclosing block's tests, with a key of a new enterprise organisation. */
export type SharedStackFixture = Fixture<SharedTestStack>;

export function useSharedTestStack(options: { checkResponses?: boolean } = {}): SharedStackFixture {
  return stackFixture(() => sharedTestStack(options));
}
