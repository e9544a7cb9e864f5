/** Starts the real service (gateway + subgraphs) on ephemeral loopback ports for a test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore } from '../../gateway/auth/key-store';
import { gatewayConfigFromEnv } from '../../gateway/config';
import { startStack, type RunningStack } from '../../gateway/stack';

export interface TestStack extends RunningStack {
  url: string;
  keys: KeyStore;
  /** A fresh API key of a new organisation on the plan. */
  newKey(plan?: string): string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  logs: string[];
  stop(): Promise<void>;
}

let orgCounter = 0;

export async function startTestStack(options: { redisUrl?: string; env?: Record<string, string>; artifactsRoot?: string } = {}): Promise<TestStack> {
  const home = mkdtempSync(join(tmpdir(), 'valuation-test-'));
  process.env.VALUATION_HOME = home;
  process.env.APOLLO_TELEMETRY_DISABLED = '1';
  Object.assign(process.env, options.env ?? {});
  const keys = new KeyStore({ file: join(home, 'keys.json') });
  const logs: string[] = [];
  const config = { ...gatewayConfigFromEnv({ ...process.env, ...options.env }), host: '127.0.0.1', port: 0, redisUrl: options.redisUrl };
  const stack = await startStack({ gateway: config, keys, log: (m) => logs.push(m), artifactsRoot: options.artifactsRoot });
  const url = stack.gateway.url;
  return {
    ...stack,
    url,
    keys,
    logs,
    newKey: (plan = 'standard') => keys.create({ org: `test-org-${process.pid}-${++orgCounter}`, plan }).key,
    post: (path, body, headers = {}) =>
      fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    stop: async () => {
      await stack.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Response bodies in tests are checked field by field, so `any` is the honest type here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = (response: Response): Promise<any> => response.json() as Promise<any>;

/** Asserts an error reply in the catalogue's shape (status, code, field, message, request id) and never a stack trace; returns `error`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectError(response: Response, status: number, code: string, field?: string): Promise<any> {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.error.code).toBe(code);
  if (field !== undefined) expect(body.error.field).toBe(field);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.request_id).toBeTruthy();
  expect(JSON.stringify(body)).not.toMatch(/at .*\.js:\d+/);
  return body.error;
}
