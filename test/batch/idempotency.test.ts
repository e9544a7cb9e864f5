/**
 * The bindings behind Idempotency-Key (subgraphs/batch/idempotency.ts), in process and on Redis:
 * of two processes racing on one key exactly one makes the job, the other is told the first is in
 * progress, then gets the first job; another fingerprint is refused; a failed submission frees the key.
 */
import { randomBytes } from 'node:crypto';
import { openIdempotencyBindings, submitOnce, type IdempotencyBindings } from '../../subgraphs/batch/idempotency';
import { describeInProcessAndOnRedis } from '../support/redis';

describeInProcessAndOnRedis('idempotency bindings %s', ['in process', 'on Redis'], (redisUrl) => {
  let a: IdempotencyBindings;
  let b: IdempotencyBindings;
  const prefix = `test:idem:${process.pid}:${randomBytes(4).toString('hex')}:`;
  beforeAll(async () => {
    a = await openIdempotencyBindings({ redisUrl, keyPrefix: prefix, timeoutMs: 1000 });
    // On Redis a second connection stands for a second process; in process they share one map only through the same instance.
    b = redisUrl ? await openIdempotencyBindings({ redisUrl, keyPrefix: prefix, timeoutMs: 1000 }) : a;
  });
  afterAll(async () => {
    await a.close();
    if (b !== a) await b.close();
  });

  test('one of two racing submissions makes the job; the other is told it is in progress, and later gets it', async () => {
    let made = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const submit = async () => {
      made++;
      await held;
      return { id: 'job-1' };
    };
    const first = submitOnce(a, 'bank', 'k1', 'f1', submit, async (id) => ({ id }));
    await expect(submitOnce(b, 'bank', 'k1', 'f1', submit, async (id) => ({ id }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/still being made/) });
    release();
    expect(await first).toEqual({ job: { id: 'job-1' }, replayed: false });
    expect(await submitOnce(b, 'bank', 'k1', 'f1', submit, async (id) => ({ id }))).toEqual({ job: { id: 'job-1' }, replayed: true });
    await expect(submitOnce(b, 'bank', 'k1', 'f2', submit, async (id) => ({ id }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/another submission/) });
    expect(made).toBe(1);
    // Another organisation's key of the same text is its own.
    expect(await submitOnce(b, 'other-bank', 'k1', 'f2', async () => ({ id: 'job-2' }), async (id) => ({ id }))).toEqual({ job: { id: 'job-2' }, replayed: false });
  });

  test('a submission that fails frees its key for the retry', async () => {
    await expect(submitOnce(a, 'bank', 'k2', 'f', async () => Promise.reject(new Error('refused')), async (id) => ({ id }))).rejects.toThrow('refused');
    expect(await submitOnce(b, 'bank', 'k2', 'f', async () => ({ id: 'job-3' }), async (id) => ({ id }))).toEqual({ job: { id: 'job-3' }, replayed: false });
  });
});
