/**
 * batchProgress over graphql-ws (graphql-transport-ws) on the gateway's /graphql: authenticated in
 * connection_init, events until exactly one final one, the organisation boundary, 4403 on bad keys.
 */
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { describeInProcessAndOnRedis } from '../support/redis';
import { json, startTestStack, type TestStack } from '../support/stack';

const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV', 'ТТЗ'];
const HOME = { area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro' };
const PROGRESS = 'subscription($id: ID!) { batchProgress(id: $id) { id status processed succeeded failed total ratePerSecond etaSeconds final at } }';

describeInProcessAndOnRedis('batchProgress over graphql-ws, engine %s', ['in process', 'on Redis'], (redisUrl) => {
  let stack: TestStack;
  let key: string;
  let otherKey: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ redisUrl, env: { BATCH_KEY_PREFIX: `test-batch-progress-${process.pid}-${Date.now()}:` } });
    key = stack.newKey('enterprise');
    otherKey = stack.newKey('standard');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await stack?.stop();
  });

  function client(connectionParams: Record<string, unknown>, onClosed?: (event: unknown) => void): Client {
    const c = createClient({
      url: `${stack.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: true,
      on: onClosed ? { closed: onClosed } : undefined,
    });
    clients.push(c);
    return c;
  }

  async function submit(items: unknown[], apiKey = key): Promise<string> {
    const body = await json(await stack.post('/graphql', { query: 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id } }', variables: { input: { items, chunkSize: 10 } } }, { 'x-api-key': apiKey }));
    expect(body.errors).toBeUndefined();
    return body.data.submitBatch.id;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Progress = any;

  /** Every event of the subscription until it completes or errors. */
  function follow(c: Client, id: string): Promise<{ events: Progress[]; errors: unknown }> {
    return new Promise((resolve) => {
      const events: Progress[] = [];
      c.subscribe<{ batchProgress: Progress }>(
        { query: PROGRESS, variables: { id } },
        {
          next: (result: ExecutionResult<{ batchProgress: Progress }>) => {
            if (result.errors) resolve({ events, errors: result.errors });
            else events.push(result.data!.batchProgress);
          },
          error: (errors) => resolve({ events, errors }),
          complete: () => resolve({ events, errors: undefined }),
        },
      );
    });
  }

  const items = (n: number) => Array.from({ length: n }, (_, i) => (i % 5 === 0 ? { address: ADDRESSES[i % ADDRESSES.length], home: HOME } : { address: ADDRESSES[i % ADDRESSES.length] }));

  it('is in /graphql introspection (the types the WebSocket serves), and a subscription sent over HTTP is refused naming the WebSocket', async () => {
    const introspected = await json(await stack.post('/graphql', { query: '{ __schema { subscriptionType { fields { name args { name } type { ofType { name fields { name } } } } } } }' }, { 'x-api-key': key }));
    const [field] = introspected.data.__schema.subscriptionType.fields;
    expect(field.name).toBe('batchProgress');
    expect(field.args.map((a: { name: string }) => a.name)).toEqual(['id']);
    expect(field.type.ofType.name).toBe('BatchProgress');
    expect(field.type.ofType.fields.map((f: { name: string }) => f.name)).toEqual(['id', 'status', 'processed', 'succeeded', 'failed', 'total', 'ratePerSecond', 'etaSeconds', 'final', 'at']);
    const overHttp = await json(await stack.post('/graphql', { query: PROGRESS, variables: { id: 'x' } }, { 'x-api-key': key }));
    expect(overHttp.data ?? null).toBeNull();
    expect(overHttp.errors[0].message).toMatch(/WebSocket/);
  });

  it('an API key in connection_init sees progress, non-decreasing, then exactly one final completed event', async () => {
    const id = await submit(items(120));
    const { events, errors } = await follow(client({ 'x-api-key': key }), id);
    expect(errors).toBeUndefined();
    expect(events.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < events.length; i++) expect(events[i].processed).toBeGreaterThanOrEqual(events[i - 1].processed);
    expect(events.filter((e) => e.final)).toHaveLength(1);
    const last = events[events.length - 1];
    expect(last).toMatchObject({ id, status: 'completed', final: true, total: 120, processed: 120, succeeded: 120, failed: 0, etaSeconds: 0 });
    expect(Date.parse(last.at)).not.toBeNaN();
    for (const event of events) expect(event).toMatchObject({ id, total: 120, ratePerSecond: expect.any(Number) });
  });

  it('a bearer token in connection_init works too', async () => {
    const id = await submit(items(3));
    const token = (await json(await stack.post('/service/auth/token', {}, { 'x-api-key': key }))).access_token;
    expect(token).toEqual(expect.any(String));
    const { events, errors } = await follow(client({ authorization: `Bearer ${token}` }), id);
    expect(errors).toBeUndefined();
    expect(events[events.length - 1]).toMatchObject({ final: true, status: 'completed' });
  });

  it('a bad key is closed with 4403 Forbidden', async () => {
    let closedWith: { code?: number } | undefined;
    const c = client({ 'x-api-key': 'not-a-key' }, (event) => (closedWith = event as { code: number }));
    const { events, errors } = await follow(c, 'anything');
    expect(events).toEqual([]);
    expect((errors as { code?: number }).code ?? closedWith?.code).toBe(4403);
    expect(closedWith?.code).toBe(4403);

    let noCredentials: { code?: number } | undefined;
    await follow(client({}, (event) => (noCredentials = event as { code: number })), 'anything');
    expect(noCredentials?.code).toBe(4403);
  });

  it("another organisation's job: an error NOT_FOUND and no events", async () => {
    const id = await submit(items(30));
    const { events, errors } = await follow(client({ 'x-api-key': otherKey }), id);
    expect(events).toEqual([]);
    expect(Array.isArray(errors)).toBe(true);
    expect((errors as { extensions?: { code?: string } }[])[0].extensions?.code).toBe('NOT_FOUND');
    const unknown = await follow(client({ 'x-api-key': key }), 'no-such-job');
    expect(unknown.events).toEqual([]);
    expect((unknown.errors as { extensions?: { code?: string } }[])[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('a job that already ended gives its final event and completes', async () => {
    const id = await submit(items(2));
    await follow(client({ 'x-api-key': key }), id);
    const again = await follow(client({ 'x-api-key': key }), id);
    expect(again.errors).toBeUndefined();
    expect(again.events).toHaveLength(1);
    expect(again.events[0]).toMatchObject({ final: true, status: 'completed', processed: 2 });
  });
});
