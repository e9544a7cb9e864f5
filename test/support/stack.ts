/** Starts the real service (gateway + subgraphs) on ephemeral loopback ports for a test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore } from '../../gateway/auth/key-store';
import { gatewayConfigFromEnv } from '../../gateway/config';
import { startStack, type RunningStack } from '../../gateway/stack';
import type { BulkPacer } from '../../gateway/http/bulk-pacing';
import { stackClient, stackFixture, type Fixture, type StackClient } from './stack-client';

export { expectError, json } from './stack-client';

export interface TestStack extends RunningStack, StackClient {
  url: string;
  keys: KeyStore;
  logs: string[];
  stop(): Promise<void>;
}

export interface TestStackOptions {
  redisUrl?: string;
  /** Valuation records and observations in this PostgreSQL (test/support/postgres.ts). @default none: files */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Residential artifacts. @default models/artifacts/residential */
  artifactsRoot?: string;
  /** Vehicle artifacts (an empty folder: no vehicle model in service). @default models/artifacts/vehicle */
  vehicleArtifactsRoot?: string;
  /**
   * Check every reply of `post` and `fetch` on a documented REST route against the OpenAPI document
   * (test/support/openapi-responses.ts): a mismatch rejects the call, failing the test. @default true
   */
  checkResponses?: boolean;
  /** The gateway's clock for bearer tokens (ms since the epoch). @default Date.now */
  clock?: () => number;
  /** Paces uploads and exports (gateway/http/bulk-pacing.ts); a test injects one that records its pauses. @default a BulkPacer */
  pacer?: BulkPacer;
}

export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const home = mkdtempSync(join(tmpdir(), 'valuation-test-'));
  // The in-process subgraphs read their settings from process.env; they are put back when the stack stops.
  const restoreEnv = setEnv({ VALUATION_HOME: home, APOLLO_TELEMETRY_DISABLED: '1', ...options.env });
  const keys = new KeyStore({ file: join(home, 'keys.json') });
  const logs: string[] = [];
  const config = { ...gatewayConfigFromEnv({ ...process.env, ...options.env }), host: '127.0.0.1', port: 0, redisUrl: options.redisUrl, databaseUrl: options.databaseUrl };
  const stack = await startStack({
    gateway: config,
    keys,
    log: (m) => logs.push(m),
    clock: options.clock,
    pacer: options.pacer,
    overrides: { residential: { artifactsRoot: options.artifactsRoot }, vehicle: { artifactsRoot: options.vehicleArtifactsRoot } },
  }).catch((error: unknown) => {
    restoreEnv();
    rmSync(home, { recursive: true, force: true });
    throw error;
  });
  const url = stack.gateway.url;
  return {
    ...stack,
    url,
    keys,
    logs,
    ...stackClient(url, keys, options.checkResponses !== false),
    stop: async () => {
      await stack.close();
      restoreEnv();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Sets `values` in process.env; the returned function puts back what each key held before, unless
 * a later stack has set the key since (its value is then left to that stack). Without it, a stack's
 * settings outlived it and reached the next stack started in the same file.
 */
function setEnv(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of Object.entries(values)) {
      if (process.env[key] !== value) continue;
      if (before[key] === undefined) delete process.env[key];
      else process.env[key] = before[key];
    }
  };
}

/** The subgraph transports of all-in-one mode, for `describe.each`: in process, and over loopback HTTP. */
export const SUBGRAPH_TRANSPORTS = [
  ['in process', 'local'],
  ['over HTTP', 'http'],
] as const;

/** A test stack for the enclosing `describe` (or file), with a key of an enterprise organisation. */
export type StackFixture = Fixture<TestStack>;

/** Starts a test stack before the enclosing block's tests and stops it after them; options may be computed then. */
export function useTestStack(options: TestStackOptions | (() => TestStackOptions) = {}): StackFixture {
  return stackFixture(() => startTestStack(typeof options === 'function' ? options() : options), (stack) => stack.stop());
}

/** The METRICS_TOKEN of test stacks that read /metrics: start them with `env: { METRICS_TOKEN: TEST_METRICS_TOKEN }`. */
export const TEST_METRICS_TOKEN = 'metrics-token-of-the-test-stacks';

/** GET /metrics of a stack started with TEST_METRICS_TOKEN: the Prometheus text. */
export async function readMetrics(stack: TestStack): Promise<string> {
  const response = await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}
