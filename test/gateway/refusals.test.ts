/**
 * Refusals made before a route runs use the error catalogue too: headers over Node's limit (431,
 * answered by the HTTP parser before fastify), bytes that are not HTTP, bodies over a route's limit
 * (413, naming that route's own limit), a WebSocket upgrade on a path without subscriptions.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import WebSocket from 'ws';
import { clientErrorHandler } from '../../gateway/http/client-errors';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { expectError, useTestStack } from '../support/stack';

const fixture = useTestStack();

/** Sends `request` as raw bytes and returns everything the server answers until it closes the connection. */
function rawExchange(request: string): Promise<string> {
  const { hostname, port } = new URL(fixture.stack.url);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

/** The status line's code and the JSON body of a raw HTTP/1.1 response. */
function parseRaw(response: string): { status: number; headers: string; body: { error: Record<string, unknown> } } {
  const [head, body] = response.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) };
}

test('a 20 KB header: 431 HEADERS_TOO_LARGE in the catalogue shape, naming the limit', async () => {
  const response = await fetch(`${fixture.stack.url}/health`, { headers: { 'x-padding': 'x'.repeat(20 * 1024) } });
  const error = await expectError(response, 431, 'HEADERS_TOO_LARGE');
  expect(error.message).toMatch(/larger than 16 KB/);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toBe(error.request_id);
  // The service goes on answering on other connections.
  expect((await fetch(`${fixture.stack.url}/health`)).status).toBe(200);
});

test('bytes that are not HTTP: 400 in the catalogue shape', async () => {
  const { status, body } = parseRaw(await rawExchange('NOT HTTP AT ALL\r\n\r\n'));
  expect(status).toBe(400);
  expect(body.error).toMatchObject({ code: 'INVALID_PARAMETER', message: expect.any(String), request_id: expect.any(String) });
});

test("a request not received in time (Node's headersTimeout, 60 s): 408 REQUEST_TIMEOUT, given to the handler as Node does", () => {
  const written: string[] = [];
  const socket = { destroyed: false, writable: true, write: (text: string) => written.push(text), destroy: jest.fn() };
  clientErrorHandler(Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket as unknown as Socket);
  const { status, body } = parseRaw(written.join(''));
  expect(status).toBe(408);
  expect(body.error).toMatchObject({ code: 'REQUEST_TIMEOUT', request_id: expect.any(String) });
  expect(socket.destroy).toHaveBeenCalled();
});

test('413 PAYLOAD_TOO_LARGE names the limit of the route that refused', async () => {
  const home = await expectError(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, padding: 'x'.repeat(100 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  expect(home.message).toBe('The request body is larger than 64 KB');
  const graphql = await expectError(await fixture.post('/graphql', { query: '{ __typename }', padding: 'x'.repeat(3 * 1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  expect(graphql.message).toBe('The request body is larger than 2 MB');
  const batch = await expectError(await fixture.post('/api/batch', { items: [], padding: 'x'.repeat(21 * 1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  expect(batch.message).toMatch(/^The request body is larger than 20 MB: /);
});

test('a WebSocket upgrade on another path: 404 NOT_FOUND in the catalogue shape', async () => {
  const ws = new WebSocket(`${fixture.stack.url.replace(/^http/, 'ws')}/not-graphql`, 'graphql-transport-ws');
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    ws.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
  });
  expect(status).toBe(404);
  expect(JSON.parse(body).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('/graphql'), request_id: expect.any(String) });
});
