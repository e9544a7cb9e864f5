/**
 * BATCH_RETENTION_MS: a job and its results stay readable for the retention after it ends, then
 * are gone (404, and no longer listed), through the API, on both engines.
 */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { describeInProcessAndOnRedis } from '../support/redis';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

describeInProcessAndOnRedis('retention, engine %s', ['in process', 'on Redis'], (redisUrl) => {
  let stack: TestStack;
  let key: string;
  beforeAll(async () => {
    stack = await startTestStack({ redisUrl, env: { BATCH_RETENTION_MS: '1500', BATCH_KEY_PREFIX: `test-retention-${process.pid}-${Date.now()}:` } });
    key = stack.newKey('enterprise');
  });
  afterAll(() => stack?.stop());

  const read = (path: string) => stack.fetch(path, { headers: { 'x-api-key': key } });

  test('results are readable until the retention has passed, then the job is gone', async () => {
    const submitted = await stack.post('/api/batch', { items: [{ address: 'Куйлюк-5', home: { area: SAMPLE_HOME_REQUEST.area, rooms: 2 } }] }, { 'x-api-key': key });
    const { id } = await json(submitted);
    const job = await until(async () => json(await read(`/api/batch/${id}`)), (j) => j.status === 'completed', 20_000, 50);
    expect((await read(`/api/batch/${id}/results`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(job.completed_at) + 1_500 + 300 - Date.now()));
    expect((await read(`/api/batch/${id}`)).status).toBe(404);
    expect((await read(`/api/batch/${id}/results`)).status).toBe(404);
    const listed = await json(await stack.post('/graphql', { query: '{ batchJobs { jobs { id } } }' }, { 'x-api-key': key }));
    expect(listed.data.batchJobs.jobs).toEqual([]);
  });
});
