/**
 * Issue 33, finding 10: persisted queries (APQ) are registered per organisation. Over HTTP to the real
 * gateway with two organisations' keys: the one that registered a query runs it by its hash, from any
 * of its keys; the other gets PERSISTED_QUERY_NOT_FOUND for the same hash, as for one nobody sent.
 */
import { createHash } from 'node:crypto';
import { json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';

const fixture = useSharedTestStack();

const QUERY = '{ residentialModel { version } } # the text only bank A has sent';
const HASH = createHash('sha256').update(QUERY).digest('hex');
const persisted = { persistedQuery: { version: 1, sha256Hash: HASH } };

const send = (key: string, body: Record<string, unknown>) => fixture.stack.post('/graphql', body, { 'x-api-key': key });
const byHash = async (key: string) => json(await send(key, { extensions: persisted }));

it("another organisation sending a registered query's hash gets PERSISTED_QUERY_NOT_FOUND", async () => {
  const stack = fixture.stack;
  const org = `apq-bank-a-${Date.now()}`;
  const bankA = stack.keys.create({ org, plan: 'standard' });
  const bankAsOtherKey = stack.keys.create({ org, plan: 'standard' }).key;
  const bankB = stack.newKey();

  expect((await byHash(bankA.key)).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  const registered = await json(await send(bankA.key, { query: QUERY, extensions: persisted }));
  expect(registered.errors).toBeUndefined();
  const version = registered.data.residentialModel.version;

  // Bank A, from either of its keys, runs it by hash alone.
  expect((await byHash(bankA.key)).data.residentialModel.version).toBe(version);
  expect((await byHash(bankAsOtherKey)).data.residentialModel.version).toBe(version);

  // Bank B cannot, and so cannot tell that anyone sent this text.
  const refused = await byHash(bankB);
  expect(refused.data).toBeUndefined();
  expect(refused.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

  // Once bank B registers the text itself, it runs it too.
  expect((await json(await send(bankB, { query: QUERY, extensions: persisted }))).data.residentialModel.version).toBe(version);
  expect((await byHash(bankB)).data.residentialModel.version).toBe(version);
});
