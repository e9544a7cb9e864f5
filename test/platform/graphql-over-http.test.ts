/**
 * GraphQL over HTTP as the service's clients send it (platform/graphql-over-http.ts) and read it
 * (platform/graphql-reply.ts), and the two fetch-based clients built on it: a subgraph's peer client
 * (platform/graph-client.ts) and the MCP stdio server's executor (gateway/mcp/remote-executor.ts;
 * its replies from a real gateway are tested in test/mcp/). The gateway's own data source shares the
 * request's body and headers; test/gateway/http-transport.test.ts runs it against real subgraphs.
 * A real HTTP server on an ephemeral port plays the other side.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { remoteExecutor } from '../../gateway/mcp/remote-executor';
import { httpGraphClient } from '../../platform/graph-client';
import { callerHeaders, callerOfHeaders, GraphQLHttpFailure, graphqlRequestBody, INTERNAL_TOKEN_HEADER, postGraphQL, principalWithPlan, subgraphRequestHeaders } from '../../platform/graphql-over-http';
import { catalogueErrorOf } from '../../platform/graphql-reply';
import { ApiError } from '../../schema/errors';

interface Answer {
  status?: number;
  type?: string;
  body: string;
  /** Milliseconds before answering. */
  delay?: number;
}

let server: Server;
let url: string;
let answer: Answer;
let received: { headers: IncomingHttpHeaders; body: string; method?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body, method: request.method });
      const { status = 200, type = 'application/json', body: text, delay = 0 } = answer;
      setTimeout(() => response.writeHead(status, { 'content-type': type }).end(text), delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = { body: '{"data":{"ok":true}}' };
});

/** A port nothing listens on: one this test opened and closed. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('the request', () => {
  test("the body is the query, its variables and the operation's name, the name left out when there is none", () => {
    expect(JSON.parse(graphqlRequestBody('query Q { a }', { n: 1 }, 'Q'))).toEqual({ query: 'query Q { a }', variables: { n: 1 }, operationName: 'Q' });
    expect(graphqlRequestBody('{ a }', { n: 1 })).toBe('{"query":"{ a }","variables":{"n":1}}');
    expect(graphqlRequestBody('{ a }', undefined, null)).toBe('{"query":"{ a }","operationName":null}');
  });

  test("a subgraph is sent JSON, the internal token when there is one, and the caller's organisation, plan and request id", () => {
    expect(subgraphRequestHeaders('secret', { principal: { org: 'org-a', plan: 'enterprise' }, requestId: 'req-1' })).toEqual({
      'content-type': 'application/json',
      [INTERNAL_TOKEN_HEADER]: 'secret',
      'x-organisation': 'org-a',
      'x-plan': 'enterprise',
      'x-request-id': 'req-1',
    });
    // A peer subgraph knows no plan; a call for nobody (the gateway's own) names no organisation.
    expect(subgraphRequestHeaders(undefined, { principal: { org: 'org-a' }, requestId: 'req-2' })).toEqual({ 'content-type': 'application/json', 'x-organisation': 'org-a', 'x-request-id': 'req-2' });
    expect(subgraphRequestHeaders('secret', { principal: null })).toEqual({ 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: 'secret' });
    expect(callerHeaders({ principal: { org: 'org-b', plan: 'standard' } })).toEqual({ 'x-organisation': 'org-b', 'x-plan': 'standard' });
  });

  test('a subgraph reads back the caller its headers name, the caller the gateway gives it in process', () => {
    for (const caller of [{ principal: { org: 'org-a', plan: 'standard' }, requestId: 'req-1' }, { principal: { org: 'org-b' }, requestId: 'req-2' }, { principal: null }]) {
      expect(callerOfHeaders(subgraphRequestHeaders('secret', caller))).toEqual(caller);
    }
    // An empty header names nobody; a plan without an organisation is no principal.
    expect(callerOfHeaders({ 'x-organisation': '', 'x-plan': 'standard', 'x-request-id': '' })).toEqual({ principal: null });
    expect(principalWithPlan({ principal: { org: 'org-a', plan: 'pilot' } })).toEqual({ org: 'org-a', plan: 'pilot' });
    expect(principalWithPlan({ principal: { org: 'org-a' } })).toBeNull();
  });
});

describe('postGraphQL', () => {
  test('posts the body with the given headers and gives the status and the JSON reply, whatever the status', async () => {
    const ok = await postGraphQL<{ data: unknown }>(url, { 'content-type': 'application/json', 'x-organisation': 'org-a' }, '{"query":"{ ok }"}', 5_000);
    expect(ok).toEqual({ status: 200, ok: true, reply: { data: { ok: true } } });
    expect(received).toEqual([expect.objectContaining({ method: 'POST', body: '{"query":"{ ok }"}', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-organisation': 'org-a' }) })]);
    answer = { status: 429, body: '{"error":{"code":"RATE_LIMITED"}}' };
    expect(await postGraphQL(url, {}, '{}', 5_000)).toEqual({ status: 429, ok: false, reply: { error: { code: 'RATE_LIMITED' } } });
  });

  test('an answer without a JSON body is one failure, with its status', async () => {
    answer = { status: 502, type: 'text/html', body: '<html>Bad gateway</html>' };
    const failure = await rejection(postGraphQL(url, {}, '{}', 5_000));
    expect(failure).toBeInstanceOf(GraphQLHttpFailure);
    expect(failure).toMatchObject({ status: 502, message: `${url} answered HTTP 502 without a JSON body` });
  });

  test('nothing listening is a failure without a status, the connection error kept as its cause', async () => {
    const nowhere = await closedPortUrl();
    const failure = await rejection(postGraphQL(nowhere, {}, '{}', 5_000));
    expect(failure).toBeInstanceOf(GraphQLHttpFailure);
    expect(failure).toMatchObject({ status: undefined, message: expect.stringContaining(`${nowhere} cannot be reached`) });
    const causes: unknown[] = [];
    // fetch's errors come from Node's own realm, not the test's: no instanceof Error here.
    for (let cause = failure.cause as NodeJS.ErrnoException | undefined; cause; cause = cause.cause as NodeJS.ErrnoException | undefined) causes.push(cause.code);
    expect(causes).toContain('ECONNREFUSED');
  });

  test('an answer slower than the timeout is a failure without a status', async () => {
    answer = { body: '{"data":{}}', delay: 1_000 };
    const failure = await rejection(postGraphQL(url, {}, '{}', 100));
    expect(failure).toBeInstanceOf(GraphQLHttpFailure);
    expect(failure).toMatchObject({ status: undefined });
    expect((failure.cause as Error).name).toBe('TimeoutError');
  });
});

describe('the reply', () => {
  test("an error with a catalogue code is that ApiError, with its message, field and suggestions; any other code is not the catalogue's", () => {
    const error = catalogueErrorOf({ message: 'Unknown district "Chilanzor"', extensions: { code: 'UNKNOWN_DISTRICT', field: 'district', suggestions: ['Chilanzar'] } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'UNKNOWN_DISTRICT', message: 'Unknown district "Chilanzor"', field: 'district', suggestions: ['Chilanzar'] });
    expect(catalogueErrorOf({ message: 'Variable "$n" got invalid value', extensions: { code: 'BAD_USER_INPUT' } })).toBeUndefined();
    expect(catalogueErrorOf({ message: 'boom' })).toBeUndefined();
  });
});

describe("a subgraph's peer client (httpGraphClient)", () => {
  const caller = { organisation: 'org-a', requestId: 'req-7' };

  test('sends the operation with the internal token and the caller, and resolves its data', async () => {
    const client = httpGraphClient({ url, internalToken: 'secret' });
    expect(await client.request('query ($n: Int) { ok }', { n: 2 }, caller)).toEqual({ ok: true });
    expect(JSON.parse(received[0].body)).toEqual({ query: 'query ($n: Int) { ok }', variables: { n: 2 } });
    expect(received[0].headers).toMatchObject({ 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: 'secret', 'x-organisation': 'org-a', 'x-request-id': 'req-7' });
  });

  test("a catalogue refusal rejects as that ApiError, even after another error; an error of no code fails the call as a whole", async () => {
    const client = httpGraphClient({ url });
    answer = { body: JSON.stringify({ data: null, errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL' } }, { message: 'The report queue is busy', extensions: { code: 'SERVICE_UNAVAILABLE' } }] }) };
    const refusal = await rejection(client.request('{ ok }', {}, caller));
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The report queue is busy' });
    answer = { body: JSON.stringify({ data: null, errors: [{ message: 'boom', extensions: { code: 'INTERNAL' } }] }) };
    const failed = await rejection(client.request('{ ok }', {}, caller));
    expect(failed).not.toBeInstanceOf(ApiError);
    expect(failed.message).toBe('the operation failed: boom');
  });

  test('a status other than 2xx fails the call, even with a JSON body', async () => {
    answer = { status: 401, body: '{"errors":[{"message":"no token"}]}' };
    const failure = await rejection(httpGraphClient({ url }).request('{ ok }', {}, caller));
    expect(failure).toBeInstanceOf(GraphQLHttpFailure);
    expect(failure.message).toBe(`${url} answered HTTP 401`);
  });
});

describe("the MCP stdio server's executor (remoteExecutor), where the gateway answers with no JSON", () => {
  const gatewayUrl = () => url.replace(/\/graphql$/, '');

  test('sends the operation with the API key, its own request id and JSON accepted', async () => {
    const executor = remoteExecutor({ url: gatewayUrl(), apiKey: 'tvk_key', userAgent: 'test-agent' });
    expect(await executor.execute({ query: '{ ok }' }, { n: 1 })).toEqual({ ok: true });
    expect(JSON.parse(received[0].body)).toEqual({ query: '{ ok }', variables: { n: 1 } });
    expect(received[0].headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json', 'x-api-key': 'tvk_key', 'user-agent': 'test-agent', 'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  test('a 5xx page is SERVICE_UNAVAILABLE, any other answer without JSON INTERNAL', async () => {
    const executor = remoteExecutor({ url: gatewayUrl(), apiKey: 'tvk_key' });
    answer = { status: 502, type: 'text/html', body: '<html>Bad gateway</html>' };
    expect(await rejection(executor.execute({ query: '{ ok }' }, {}))).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The valuation service answered HTTP 502 without a JSON body' });
    answer = { status: 200, type: 'text/plain', body: 'ok' };
    expect(await rejection(executor.execute({ query: '{ ok }' }, {}))).toMatchObject({ code: 'INTERNAL' });
  });
});
