/** Polling for tests that wait on something asynchronous (a job ending, a webhook arriving). Bounds only: no test asserts a duration. */
import { setTimeout as sleep } from 'node:timers/promises';

/** Reads until `done` holds of the value read, and returns it; fails after `timeoutMs` showing the last value. */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last: ${JSON.stringify(value)?.slice(0, 1000)}`);
    await sleep(intervalMs);
  }
}

/** Waits until `condition` holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000, intervalMs = 20): Promise<void> {
  await until(condition, (met) => met, timeoutMs, intervalMs);
}
