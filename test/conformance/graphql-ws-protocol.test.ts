/**
 * The graphql-transport-ws protocol (https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md)
 * on the gateway's /graphql, driven by a raw `ws` client (no graphql-ws client smoothing things
 * over): each close code of the protocol, ping/pong, and a batchProgress subscription to its end.
 *
 * Close codes the gateway uses, and when:
 *   4400 invalid message (not JSON, unknown type, missing id)      graphql-ws
 *   4400 a server-only message (connection_ack, next, error)       the gateway's message reviver
 *   4401 subscribe before connection_ack                           graphql-ws
 *   4403 bad or missing credentials in connection_init             the gateway's onConnect (principalOf)
 *   4403 a subscribe once the key is revoked (or the token expired) the gateway's onSubscribe
 *   4403 the next event of a running subscription of a revoked key  the gateway's onNext
 *   4406 no graphql-transport-ws subprotocol                       graphql-ws (see the two cases below)
 *   4408 no connection_init within 3 s (graphql-ws's default)      graphql-ws
 *   4409 a subscribe id already in use on the socket               graphql-ws
 *   4429 a second connection_init                                  graphql-ws
 *   4429 the organisation's quota is exhausted                     the gateway's onConnect
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { KeyStore } from '../../gateway/auth/key-store';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';
import { startSubscriptionServer } from '../../gateway/subscriptions';
import type { ProgressEvent } from '../../platform/batch-engine';
import { fragmentBomb } from '../support/hostile-documents';
import { startTestStack, type TestStack } from '../support/stack';
import { waitFor } from '../support/wait';

const PROTOCOL = 'graphql-transport-ws';
const PROGRESS = 'subscription($id: ID!) { batchProgress(id: $id) { id status processed total final } }';

// A plan of one request a day, so the second connection of its organisation is over quota whatever
// the time (no minute boundary to race). The other plans are the repository's.
const plansDir = mkdtempSync(join(tmpdir(), 'conformance-plans-'));
const plansFile = join(plansDir, 'plans.json');
writeFileSync(plansFile, JSON.stringify({ ...JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')), 'one-a-day': { quota: { perMinute: 1, perDay: 1 }, valuations: { perMinute: 1, perDay: 1 }, maxBatchItems: 10, batchItemsPerDay: 10 } }));

let stack: TestStack;
let key = '';
const sockets: WebSocket[] = [];

beforeAll(async () => {
  stack = await startTestStack({ env: { PLANS_FILE: plansFile } });
  key = stack.newKey('enterprise');
});
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await stack?.stop();
  rmSync(plansDir, { recursive: true, force: true });
});

interface Closed {
  code: number;
  reason: string;
}

/** A raw socket with its messages queued and its close (or handshake failure) recorded. */
interface RawSocket {
  ws: WebSocket;
  /** Resolves once the handshake is done (rejects if it fails). */
  opened: Promise<void>;
  /** Resolves on close; a failed handshake closes with 1006. */
  closed: Promise<Closed>;
  /** The handshake failure, if any. */
  handshakeError?: Error;
  send(message: unknown): void;
  /** The next message (JSON-parsed); rejects if the socket closes first. */
  next(): Promise<Record<string, unknown>>;
}

function connect(protocols?: string | string[], url = stack.url): RawSocket {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, protocols);
  sockets.push(ws);
  const queue: Record<string, unknown>[] = [];
  const waiting: { resolve(m: Record<string, unknown>): void; reject(e: Error): void }[] = [];
  let closedWith: Closed | undefined;
  const raw: RawSocket = {
    ws,
    opened: new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', (error) => {
        raw.handshakeError = error;
        reject(error);
      });
    }),
    closed: new Promise((resolve) =>
      ws.once('close', (code, reason) => {
        closedWith = { code, reason: reason.toString() };
        for (const w of waiting.splice(0)) w.reject(new Error(`closed ${code} ${closedWith.reason} before the next message`));
        resolve(closedWith);
      }),
    ),
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: () =>
      new Promise((resolve, reject) => {
        const queued = queue.shift();
        if (queued) resolve(queued);
        else if (closedWith) reject(new Error(`closed ${closedWith.code} ${closedWith.reason}`));
        else waiting.push({ resolve, reject });
      }),
  };
  raw.opened.catch(() => undefined); // observed through `closed` and `handshakeError` where expected
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const w = waiting.shift();
    if (w) w.resolve(message);
    else queue.push(message);
  });
  return raw;
}

/** A socket past connection_ack, authenticated with `apiKey` (or any connection_init payload). */
async function acknowledged(apiKey: string | Record<string, unknown> = key, url = stack.url): Promise<RawSocket> {
  const socket = connect(PROTOCOL, url);
  await socket.opened;
  socket.send({ type: 'connection_init', payload: typeof apiKey === 'string' ? { 'x-api-key': apiKey } : apiKey });
  expect(await socket.next()).toEqual({ type: 'connection_ack' });
  return socket;
}

async function submitBatch(items: number, apiKey = key): Promise<string> {
  const response = await stack.post('/api/batch', { items: Array.from({ length: items }, () => ({ address: 'Chilonzor tumani, 13-kvartal' })) }, { 'x-api-key': apiKey });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

describe('handshake and subprotocol', () => {
  test('the server selects graphql-transport-ws when the client offers it', async () => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    expect(socket.ws.protocol).toBe(PROTOCOL);
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });

  test('4406: no subprotocol offered: the handshake completes, then graphql-ws closes with 4406', async () => {
    const socket = connect();
    await socket.opened;
    expect(socket.ws.protocol).toBe('');
    expect(await socket.closed).toEqual({ code: 4406, reason: 'Subprotocol not acceptable' });
  });

  test('4406 case 2: only another subprotocol offered (the legacy graphql-ws): the server selects none, so the client refuses the handshake', async () => {
    // graphql-ws's handleProtocols answers false, so ws replies 101 without Sec-WebSocket-Protocol;
    // RFC 6455 has a client that offered subprotocols fail the connection then (ws: "Server sent no
    // subprotocol"). The server's 4406 close is never seen by such a client: it sees 1006.
    const socket = connect('graphql-ws');
    await expect(socket.opened).rejects.toThrow(/no subprotocol/i);
    expect((await socket.closed).code).toBe(1006);
  });

  test('the subprotocol is picked among several offered', async () => {
    const socket = connect(['graphql-ws', PROTOCOL]);
    await socket.opened;
    expect(socket.ws.protocol).toBe(PROTOCOL);
    socket.ws.close(1000);
    await socket.closed;
  });
});

describe('connection_init', () => {
  test('connection_ack for a valid API key, without a payload', async () => {
    const socket = await acknowledged();
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });

  test('connection_ack for a bearer token from /service/auth/token', async () => {
    const response = await stack.post('/service/auth/token', {}, { 'x-api-key': key });
    const { access_token } = (await response.json()) as { access_token: string };
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'connection_init', payload: { Authorization: `Bearer ${access_token}` } });
    expect(await socket.next()).toEqual({ type: 'connection_ack' });
    socket.ws.close(1000);
    await socket.closed;
  });

  test.each([
    ['an unknown API key', { 'x-api-key': 'tvk_not-a-key' }],
    ['a bad bearer token', { authorization: 'Bearer not.a.jwt' }],
    ['no credentials', {}],
    ['no payload at all', undefined],
  ])('4403 Forbidden: %s', async (_name, payload) => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload });
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Forbidden' });
  });

  test('4403 for a revoked key', async () => {
    const created = stack.keys.create({ org: `conformance-revoked-${Date.now()}`, plan: 'standard' });
    stack.keys.revoke(created.record.id);
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'connection_init', payload: { 'x-api-key': created.key } });
    expect((await socket.closed).code).toBe(4403);
  });

  test('4429: a second connection_init on an acknowledged socket (graphql-ws: too many initialisation requests)', async () => {
    const socket = await acknowledged();
    socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
    expect(await socket.closed).toEqual({ code: 4429, reason: 'Too many initialisation requests' });
  });

  test('4429: a second connection_init while the first is being checked', async () => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
    socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
    expect((await socket.closed).code).toBe(4429);
  });

  test("4429: the organisation's quota is exhausted (the gateway's own use of the code, reason RATE_LIMITED)", async () => {
    const tiny = stack.newKey('one-a-day');
    const first = await acknowledged(tiny); // the organisation's one request of the day
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'connection_init', payload: { 'x-api-key': tiny } });
    const closed = await socket.closed;
    expect(closed.code).toBe(4429);
    expect(closed.reason).toMatch(/^RATE_LIMITED: retry in \d+ s$/);
    first.ws.close(1000);
    await first.closed;
  });

  test('4408: no connection_init within the 3 s graphql-ws allows', async () => {
    // The server's timer, not the test's: the test only waits for the close.
    const socket = connect(PROTOCOL);
    await socket.opened;
    expect(await socket.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
  });
});

describe('messages', () => {
  test.each([
    ['not JSON', 'this is not json'],
    ['JSON but not a message', '[1, 2, 3]'],
    ['an unknown type', { type: 'bogus' }],
    ['a subscribe without an id', { type: 'subscribe', payload: { query: PROGRESS, variables: { id: 'x' } } }],
    ['a subscribe without a query', { type: 'subscribe', id: '1', payload: {} }],
    // Server-only messages: graphql-ws alone closes with 4500 and logs an internal error; the gateway
    // refuses them while parsing (gateway/subscriptions/server.ts), so they get the protocol's 4400.
    ['a server message (next) from the client', { type: 'next', id: '1', payload: {} }],
    ['a server message (error) from the client', { type: 'error', id: '1', payload: [{ message: 'x' }] }],
    ['a server message (connection_ack) from the client', { type: 'connection_ack' }],
  ])('4400 invalid message: %s', async (_name, message) => {
    const socket = await acknowledged();
    socket.send(message);
    expect(await socket.closed).toEqual({ code: 4400, reason: 'Invalid message received' });
  });

  test('4400 also before connection_init', async () => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send('{');
    expect((await socket.closed).code).toBe(4400);
  });

  test('4401: subscribe before connection_init', async () => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'subscribe', id: '1', payload: { query: PROGRESS, variables: { id: 'x' } } });
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Unauthorized' });
  });

  test('4409: a second subscribe with an id still in use', async () => {
    const id = await submitBatch(200);
    const socket = await acknowledged();
    // Both frames go at once: the first subscription holds id "same" while it runs (it checks the
    // job, then follows it), so the second arrives while the id is in use.
    socket.send({ type: 'subscribe', id: 'same', payload: { query: PROGRESS, variables: { id } } });
    socket.send({ type: 'subscribe', id: 'same', payload: { query: PROGRESS, variables: { id } } });
    expect(await socket.closed).toEqual({ code: 4409, reason: 'Subscriber for same already exists' });
  });

  test('ping → pong, before and after connection_init, with the payload echoed', async () => {
    const socket = connect(PROTOCOL);
    await socket.opened;
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
    expect(await socket.next()).toEqual({ type: 'connection_ack' });
    socket.send({ type: 'ping', payload: { n: 1 } });
    expect(await socket.next()).toEqual({ type: 'pong', payload: { n: 1 } });
    // An unsolicited pong is allowed (a unidirectional heartbeat) and answered with nothing.
    socket.send({ type: 'pong' });
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });
});

describe('a batchProgress subscription', () => {
  test('next events until exactly one final event, then complete; the socket stays open', async () => {
    const id = await submitBatch(12);
    const socket = await acknowledged();
    socket.send({ type: 'subscribe', id: 'progress-1', payload: { query: PROGRESS, variables: { id } } });
    const events: { id: string; status: string; processed: number; total: number; final: boolean }[] = [];
    for (;;) {
      const message = await socket.next();
      expect(message.id).toBe('progress-1');
      if (message.type === 'complete') break;
      expect(message.type).toBe('next');
      const payload = message.payload as { data?: { batchProgress: (typeof events)[number] }; errors?: unknown };
      expect(payload.errors).toBeUndefined();
      events.push(payload.data!.batchProgress);
    }
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.final)).toHaveLength(1);
    const last = events[events.length - 1];
    expect(last).toMatchObject({ id, status: 'completed', processed: 12, total: 12, final: true });
    // The id is free again, and the connection still serves pings.
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });

  test('an unknown job: one next with the NOT_FOUND error and no data entry, then complete; the socket stays open', async () => {
    // graphql-js's subscribe() returns an error result (not a stream) when the subscribe resolver
    // throws, and graphql-ws sends a result as `next` + `complete`; the `error` message is for
    // operations that never execute (validation), tested below.
    const socket = await acknowledged();
    socket.send({ type: 'subscribe', id: 'missing', payload: { query: PROGRESS, variables: { id: 'no-such-job' } } });
    const message = await socket.next();
    expect(message).toMatchObject({ type: 'next', id: 'missing' });
    expect(message.payload).not.toHaveProperty('data'); // a request error: no data entry at all
    expect((message.payload as { errors: { extensions?: { code?: string } }[] }).errors[0].extensions?.code).toBe('NOT_FOUND');
    expect(await socket.next()).toEqual({ type: 'complete', id: 'missing' });
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.ws.close(1000);
    await socket.closed;
  });

  test('an invalid document: one error message (GraphQL errors, no next, no complete); the socket stays open', async () => {
    const socket = await acknowledged();
    socket.send({ type: 'subscribe', id: 'invalid', payload: { query: 'subscription { batchProgress(id: "x") { nope } }' } });
    const message = await socket.next();
    expect(message).toMatchObject({ type: 'error', id: 'invalid' });
    expect((message.payload as { message: string }[])[0].message).toMatch(/nope/);
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.ws.close(1000);
    await socket.closed;
  });

  test('a fragment bomb (issue 13, finding 1) is refused with QUERY_TOO_COMPLEX at once, and the socket goes on serving', async () => {
    const query = fragmentBomb(26, 'Subscription');
    const socket = await acknowledged();
    socket.send({ type: 'subscribe', id: 'bomb', payload: { query } });
    const message = await socket.next();
    expect(message).toMatchObject({ type: 'error', id: 'bomb' });
    expect((message.payload as { extensions: { code: string } }[])[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.ws.close(1000);
    await socket.closed;
  });

  test('complete from the client stops a running subscription; the socket goes on serving', async () => {
    const id = await submitBatch(300);
    const socket = await acknowledged();
    socket.send({ type: 'subscribe', id: 'stop-me', payload: { query: PROGRESS, variables: { id } } });
    const first = await socket.next(); // the subscription is running once an event came
    expect(first).toMatchObject({ id: 'stop-me', type: 'next' });
    socket.send({ type: 'complete', id: 'stop-me' });
    // Messages are handled in order, so once the ping's pong is back nothing more comes for that id:
    // only what was already on its way (or the job's own end, if it finished first).
    socket.send({ type: 'ping' });
    for (;;) {
      const message = await socket.next();
      if (message.type === 'pong') break;
      expect(message.id).toBe('stop-me');
    }
    socket.send({ type: 'subscribe', id: 'after', payload: { query: PROGRESS, variables: { id } } });
    let final = false;
    for (;;) {
      const message = await socket.next();
      expect(message.id).toBe('after'); // nothing for stop-me any more
      if (message.type === 'complete') break;
      final = (message.payload as { data: { batchProgress: { final: boolean } } }).data.batchProgress.final;
    }
    expect(final).toBe(true);
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });
});

describe('a key revoked while its socket is open', () => {
  /** Every message of subscription `id` until its complete: the progress events it carried. */
  async function followToEnd(socket: RawSocket, id: string): Promise<unknown[]> {
    const events: unknown[] = [];
    for (;;) {
      const message = await socket.next();
      expect(message.id).toBe(id);
      if (message.type === 'complete') return events;
      expect(message).toMatchObject({ type: 'next', payload: { data: { batchProgress: expect.any(Object) } } });
      events.push(message.payload);
    }
  }

  test.each([
    ['an API key', (apiKey: string) => Promise.resolve({ 'x-api-key': apiKey })],
    [
      'a bearer token of the key',
      async (apiKey: string) => {
        const { access_token } = (await (await stack.post('/service/auth/token', {}, { 'x-api-key': apiKey })).json()) as { access_token: string };
        return { authorization: `Bearer ${access_token}` };
      },
    ],
  ])('%s: the next subscribe on the same socket closes it with 4403, and no data is sent', async (_name, credential) => {
    const created = stack.keys.create({ org: `conformance-revoked-later-${Date.now()}`, plan: 'enterprise' });
    const id = await submitBatch(2, created.key);
    const socket = await acknowledged(await credential(created.key));
    socket.send({ type: 'subscribe', id: 'before', payload: { query: PROGRESS, variables: { id } } });
    expect((await followToEnd(socket, 'before')).length).toBeGreaterThanOrEqual(1);

    stack.keys.revoke(created.record.id);
    socket.send({ type: 'subscribe', id: 'after', payload: { query: PROGRESS, variables: { id } } });
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Forbidden' });
    await expect(socket.next()).rejects.toThrow(/^closed 4403/); // nothing came for 'after'
  });

  test('a running subscription is closed with 4403 at its next event', async () => {
    // A progress source the test drives, so the job is running (not final) for as long as the test needs.
    const home = mkdtempSync(join(tmpdir(), 'conformance-revocation-'));
    const keys = new KeyStore({ file: join(home, 'keys.json') });
    const created = keys.create({ org: 'bank-a', plan: 'standard' });
    const pending: ((event: ProgressEvent) => void)[] = [];
    const event = (processed: number): ProgressEvent => ({ id: 'job', status: 'running', processed, succeeded: processed, failed: 0, total: 100, ratePerSecond: 1, etaSeconds: 1, final: false, at: new Date().toISOString() });
    const source = {
      get: async () => ({ id: 'job' }),
      async *progress() {
        for (;;) yield await new Promise<ProgressEvent>((resolve) => pending.push(resolve));
      },
    };
    const server = createServer();
    const subscriptions = startSubscriptionServer({ server, source, keys, log: () => undefined });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const socket = await acknowledged(created.key, `http://127.0.0.1:${port}`);
      socket.send({ type: 'subscribe', id: 'running', payload: { query: PROGRESS, variables: { id: 'job' } } });
      await waitFor(() => pending.length > 0);
      pending.shift()!(event(1));
      expect(await socket.next()).toMatchObject({ type: 'next', id: 'running', payload: { data: { batchProgress: { processed: 1 } } } });

      keys.revoke(created.record.id);
      await waitFor(() => pending.length > 0);
      pending.shift()!(event(2));
      expect(await socket.closed).toEqual({ code: 4403, reason: 'Forbidden' });
      await expect(socket.next()).rejects.toThrow(/^closed 4403/); // the event after the revocation was not sent
    } finally {
      await subscriptions.close();
      server.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('subscription documents are held to the configured depth limit, as /graphql is', () => {
  let shallow: TestStack;
  let shallowKey = '';
  beforeAll(async () => {
    shallow = await startTestStack({ env: { MAX_QUERY_DEPTH: '1' } });
    shallowKey = shallow.newKey('enterprise');
  });
  afterAll(() => shallow?.stop());

  test('with MAX_QUERY_DEPTH=1 a two-level subscription is refused with QUERY_TOO_DEEP, like a two-level query over HTTP', async () => {
    const http = await shallow.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': shallowKey });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('QUERY_TOO_DEEP');

    const socket = await acknowledged(shallowKey, shallow.url);
    socket.send({ type: 'subscribe', id: 'deep', payload: { query: PROGRESS, variables: { id: 'x' } } });
    const message = await socket.next();
    expect(message).toMatchObject({ type: 'error', id: 'deep' });
    expect((message.payload as { extensions: { code: string } }[])[0].extensions.code).toBe('QUERY_TOO_DEEP');
    socket.ws.close(1000);
    await socket.closed;
  });
});
