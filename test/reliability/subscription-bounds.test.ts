/**
 * Issue 33, finding 11: subscriptions are priced and bounded. Over WebSocket (graphql-transport-ws)
 * to the real gateway: each subscribe takes one request of the plan's quota, at most 20 run at once
 * on a socket and the plan's maxSubscriptions for an organisation; one more gets an error message
 * with code RATE_LIMITED while the socket and its other subscriptions go on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { MAX_SUBSCRIPTIONS_PER_SOCKET } from '../../gateway/subscriptions/subscription-bounds';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';
import { createClient } from 'redis';
import { RedisSubscriptionCounts } from '../../gateway/subscriptions/shared-subscription-counts';
import { json, startTestStack, type TestStack } from '../support/stack';
import { describeWithRedis, REDIS_URL } from '../support/redis';
import { until } from '../support/wait';

const PROGRESS = 'subscription($id: ID!) { batchProgress(id: $id) { id status final } }';

// Day windows only, so no test depends on the minute it runs in.
const plansDir = mkdtempSync(join(tmpdir(), 'subscription-plans-'));
const plansFile = join(plansDir, 'plans.json');
writeFileSync(plansFile, JSON.stringify({
  ...JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')),
  subscriber: { quota: { perMinute: 10_000, perDay: 10_000 }, valuations: { perMinute: 10, perDay: 10 }, maxBatchItems: 10, batchItemsPerDay: 10, maxSubscriptions: 25 },
  'six-requests': { quota: { perMinute: 10_000, perDay: 6 }, valuations: { perMinute: 10, perDay: 10 }, maxBatchItems: 10, batchItemsPerDay: 10 },
}));

let stack: TestStack;
const sockets: WebSocket[] = [];
beforeAll(async () => {
  stack = await startTestStack({ env: { PLANS_FILE: plansFile } });
});
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await stack?.stop();
  rmSync(plansDir, { recursive: true, force: true });
});

type Message = { id?: string; type: string; payload?: unknown };

/** An acknowledged graphql-transport-ws socket for `key`, its messages read in order. */
async function connect(key: string, on: TestStack = stack): Promise<{ send(message: unknown): void; next(): Promise<Message> }> {
  const ws = new WebSocket(`${on.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  sockets.push(ws);
  const queue: Message[] = [];
  const waiting: ((m: Message) => void)[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    const reader = waiting.shift();
    if (reader) reader(message);
    else queue.push(message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const socket = {
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    next: () => new Promise<Message>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve))),
  };
  socket.send({ type: 'connection_init', payload: { 'x-api-key': key } });
  expect((await socket.next()).type).toBe('connection_ack');
  return socket;
}

const subscribe = (id: string, jobId: string) => ({ id, type: 'subscribe', payload: { query: PROGRESS, variables: { id: jobId } } });
type Errors = { extensions?: { code?: string } }[];
/** The code of a refusal (an error message) or of a failed subscription (a next message with errors only); undefined otherwise. */
function codeOf(message: Message): string | undefined {
  if (message.type === 'error') return (message.payload as Errors)[0]?.extensions?.code ?? 'none';
  const result = message.payload as { data?: unknown; errors?: Errors } | undefined;
  return message.type === 'next' && !result?.data && result?.errors ? result.errors[0]?.extensions?.code ?? 'none' : undefined;
}

/** A job left open (no items yet): its progress subscription runs until the test ends. */
async function openJob(key: string, on: TestStack = stack): Promise<string> {
  const body = await json(await on.post('/graphql', { query: 'mutation { openBatch(input: {}) { id } }' }, { 'x-api-key': key }));
  expect(body.errors).toBeUndefined();
  return body.data.openBatch.id;
}

/** The next `count` refused or failed operations' codes, by id (progress events are passed over). */
async function errors(socket: { next(): Promise<Message> }, count: number): Promise<Map<string, string | undefined>> {
  const found = new Map<string, string | undefined>();
  while (found.size < count) {
    const message = await socket.next();
    const code = codeOf(message);
    if (code !== undefined) found.set(message.id!, code);
  }
  return found;
}

it('at most 20 subscriptions run at once on a socket, and the plan\'s maxSubscriptions for the organisation', async () => {
  const key = stack.newKey('subscriber');
  const job = await openJob(key);
  const first = await connect(key);
  // 21 sent together: one is refused, whichever graphql-ws reaches last.
  for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_SOCKET; i++) first.send(subscribe(`s${i}`, job));
  first.send(subscribe('unknown-while-full', 'no-such-job'));
  const refused = await errors(first, 2);
  expect([...refused.values()]).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  expect(refused.has('unknown-while-full')).toBe(true); // refused for the bound before its job was looked up

  // Completing one makes room: the next subscribe runs (and fails on its unknown job, NOT_FOUND).
  const running = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET + 1 }, (_, i) => `s${i}`).find((id) => !refused.has(id))!;
  first.send({ id: running, type: 'complete' });
  first.send(subscribe('unknown-with-room', 'no-such-job'));
  expect(await errors(first, 1)).toEqual(new Map([['unknown-with-room', 'NOT_FOUND']]));

  // The organisation's plan allows 25: 19 run on the first socket, so a second socket takes 6 more of 7.
  const second = await connect(key);
  for (let i = 0; i < 7; i++) second.send(subscribe(`t${i}`, job));
  const refusedOnSecond = await errors(second, 1);
  expect([...refusedOnSecond.values()]).toEqual(['RATE_LIMITED']);

  // Another organisation is untouched.
  const otherKey = stack.newKey('subscriber');
  const other = await connect(otherKey);
  other.send(subscribe('x', 'no-such-job'));
  expect(await errors(other, 1)).toEqual(new Map([['x', 'NOT_FOUND']]));
});

it('each subscribe takes one request of the plan\'s quota; past it, RATE_LIMITED and the socket stays open', async () => {
  const key = stack.newKey('six-requests');
  const socket = await connect(key); // 1 of 6
  for (let i = 0; i < 5; i++) {
    socket.send(subscribe(`q${i}`, 'no-such-job')); // 2..6 of 6
    expect(await errors(socket, 1)).toEqual(new Map([[`q${i}`, 'NOT_FOUND']]));
  }
  socket.send(subscribe('over', 'no-such-job'));
  const [refused] = await errors(socket, 1).then((found) => [...found]);
  expect(refused).toEqual(['over', 'RATE_LIMITED']);
  // The same organisation's HTTP requests are out of quota too: one count for every door.
  expect((await stack.post('/graphql', { query: '{ __typename }' }, { 'x-api-key': key })).status).toBe(429);
});

describeWithRedis('with gateways sharing a Redis', () => {
  let shared: TestStack;
  const client = createClient({ url: REDIS_URL });
  beforeAll(async () => {
    shared = await startTestStack({ redisUrl: REDIS_URL, env: { PLANS_FILE: plansFile, BATCH_KEY_PREFIX: `subscription-bounds-${process.pid}-${Date.now()}:` } });
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
    await shared?.stop();
  });

  it("the plan's maxSubscriptions counts what the organisation runs on the other gateway processes", async () => {
    const key = shared.newKey('subscriber');
    const org = shared.keys.verify(key)!.org;
    // Another gateway process, as the service sees it: its count of the organisation in Redis.
    const other = new RedisSubscriptionCounts(client, { current: () => new Map(), log: () => undefined, processId: 'another-gateway' });
    const reader = new RedisSubscriptionCounts(client, { current: () => new Map(), log: () => undefined, processId: 'reader' });
    other.publish(org, 20);
    await until(() => reader.elsewhere(org), (n) => n === 20);

    const job = await openJob(key, shared);
    const socket = await connect(key, shared);
    for (let i = 0; i < 6; i++) socket.send(subscribe(`o${i}`, job)); // 25 allowed, 20 elsewhere: 5 run here
    const refused = await errors(socket, 1);
    expect([...refused.values()]).toEqual(['RATE_LIMITED']);

    // This gateway shares its own count too: a third process sees the 5 running here and no more.
    other.publish(org, 0); // the other process's subscriptions end: room again
    await until(() => reader.elsewhere(org), (n) => n === 5);
    socket.send(subscribe('after', 'no-such-job'));
    expect(await errors(socket, 1)).toEqual(new Map([['after', 'NOT_FOUND']]));
    await Promise.all([other.close(), reader.close()]);
  });
});
