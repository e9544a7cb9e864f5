/**
 * Talking to a started test stack over HTTP: keys of fresh organisations, POST and fetch with the
 * replies of documented REST routes checked against the OpenAPI document, and the reply assertions.
 * Light on purpose (no service code): files on the worker's shared stack load only this.
 */
import { randomBytes } from 'node:crypto';
import type { KeyStore } from '../../gateway/auth/key-store';
import { checkedFetchResponse } from './openapi-responses';

let orgCounter = 0;
// Jest reloads this module for every test file, so the counter restarts: the random part keeps
// organisations (and their Redis quota counters) apart across files run by one worker in one minute,
// and across the files that share one stack.
const ORG_RUN = randomBytes(4).toString('hex');

export interface StackClient {
  /** A fresh API key of a new organisation on the plan. */
  newKey(plan?: string): string;
  /** POST a JSON body (a string is sent as it is); a documented REST route's reply is checked against the OpenAPI document. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** fetch on the gateway (`path` from the root); a documented REST route's reply is checked against the OpenAPI document. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** A client of the gateway at `url` whose keys go into `keys`; `checkResponses: false` leaves replies unchecked. */
export function stackClient(url: string, keys: KeyStore, checkResponses = true): StackClient {
  const checked = async (method: string, path: string, response: Promise<Response>) =>
    checkResponses ? checkedFetchResponse(method, path, await response) : response;
  return {
    newKey: (plan = 'standard') => keys.create({ org: `test-org-${ORG_RUN}-${++orgCounter}`, plan }).key,
    post: (path, body, headers = {}) =>
      checked('POST', path, fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })),
    fetch: (path, init = {}) => checked(init.method ?? 'GET', path, fetch(url + path, init)),
  };
}

/** A started stack for the enclosing `describe` (or file), with a key of a new enterprise organisation. */
export interface Fixture<S extends StackClient> {
  readonly stack: S;
  readonly key: string;
  /** POST with the fixture's key (headers may override it). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** A fixture whose stack `start` gives in beforeAll and `stop` (if any) ends in afterAll. */
export function stackFixture<S extends StackClient>(start: () => Promise<S>, stop?: (stack: S) => Promise<void>): Fixture<S> {
  let started: S | undefined;
  let key = '';
  beforeAll(async () => {
    started = await start();
    key = started.newKey('enterprise');
  });
  if (stop) afterAll(() => started && stop(started));
  const fixture: Fixture<S> = {
    get stack() {
      if (!started) throw new Error('the test stack starts in beforeAll: use it inside tests');
      return started;
    },
    get key() {
      return key;
    },
    post: (path, body, headers = {}) => fixture.stack.post(path, body, { 'x-api-key': key, ...headers }),
  };
  return fixture;
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
