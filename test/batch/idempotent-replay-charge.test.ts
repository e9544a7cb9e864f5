/**
 * Issue 35, item 1: a retried submission answered with the first one's job (Idempotency-Key) submits
 * nothing, so its batch items are given back: on REST (Idempotent-Replayed header) and GraphQL
 * (idempotentReplay selected). A submission refused for a bad item stores nothing either, and is not
 * charged on any door (REST and MCP refuse it before charging, GraphQL gives the items back).
 * Against a plan of 7 batch items a day and a body of 3 items.
 */
import { plansFileWith } from '../support/plans';
import { json, startTestStack, type TestStack } from '../support/stack';

const SEVEN_ITEMS = 'seven-batch-items';
const plansFile = plansFileWith({
  [SEVEN_ITEMS]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 1000 }, reports: { perMinute: 10, perDay: 10 }, maxBatchItems: 100, batchItemsPerDay: 7 },
});

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { PLANS_FILE: plansFile, BATCH_KEY_PREFIX: `test-replay-charge-${process.pid}-${Date.now()}:` } });
});
afterAll(() => stack?.stop());

const items = (tag: string) => [1, 2, 3].map((i) => ({ address: `Chilonzor tumani, ${i}-kvartal`, reference: `${tag}-${i}` }));

it('REST: three replays of a 3-item submission cost nothing; a new one is charged and the next is refused', async () => {
  const key = stack.newKey(SEVEN_ITEMS);
  const send = (body: unknown, idempotencyKey?: string) => stack.post('/api/batch', body, { 'x-api-key': key, ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) });
  const first = await send({ items: items('A') }, 'loan-run-1');
  expect(first.status).toBe(202);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const { id } = await json(first);
  for (let i = 0; i < 3; i++) {
    const again = await send({ items: items('A') }, 'loan-run-1');
    expect(again.status).toBe(202); // charged for nothing, 9 of 7 by the second
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(again)).toMatchObject({ id, idempotent_replay: true });
  }
  expect((await send({ items: items('B') })).status).toBe(202); // 6 of 7
  expect((await send({ items: items('C') })).status).toBe(429); // 9 of 7
});

it('GraphQL: a replay answered with idempotentReplay true is given back', async () => {
  const key = stack.newKey(SEVEN_ITEMS);
  const mutation = 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id idempotentReplay } }';
  const submit = async (input: Record<string, unknown>) => json(await stack.post('/graphql', { query: mutation, variables: { input } }, { 'x-api-key': key }));
  const first = await submit({ items: items('G'), idempotencyKey: 'g-run-1' });
  expect(first.data.submitBatch.idempotentReplay).toBe(false);
  for (let i = 0; i < 3; i++) expect((await submit({ items: items('G'), idempotencyKey: 'g-run-1' })).data.submitBatch).toEqual({ id: first.data.submitBatch.id, idempotentReplay: true });
  expect((await submit({ items: items('H') })).errors).toBeUndefined();
  expect((await submit({ items: items('I') })).errors[0].extensions.code).toBe('RATE_LIMITED');
});

it('GraphQL: a submission refused for a bad item is given back', async () => {
  const key = stack.newKey(SEVEN_ITEMS);
  const mutation = 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id } }';
  const submit = async (input: Record<string, unknown>) => json(await stack.post('/graphql', { query: mutation, variables: { input } }, { 'x-api-key': key }));
  const bad = [...items('X').slice(0, 2), { address: 'Chilonzor tumani, 3-kvartal', home: { area: 5 } }];
  for (let i = 0; i < 3; i++) expect((await submit({ items: bad })).errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'items[2].home.area' }); // 9 of 7 if charged
  expect((await submit({ items: items('Y') })).errors).toBeUndefined(); // 3 of 7
  expect((await submit({ items: items('Z') })).errors).toBeUndefined(); // 6 of 7
  expect((await submit({ items: items('W') })).errors[0].extensions.code).toBe('RATE_LIMITED'); // 9 of 7
});
