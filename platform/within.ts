/**
 * What `promise` settles to, or what `late()` returns (or throws) if it has not settled within `ms`.
 * `promise` is not cancelled: a node-redis command already written, for one, waits for its reply
 * whatever its caller does, so a caller bounding Redis calls must also stop sending them once
 * Redis is known to be stalled (see RedisHealth).
 *
 * Only a slow answer times out, not a busy event loop: the clock starts once what the caller queued
 * in this turn has gone out (node-redis writes commands in a setImmediate), and when it runs out,
 * I/O that has arrived meanwhile is read first (timers run before the loop reads sockets), so a
 * reply that came in while the loop was busy still wins.
 */
export async function within<T, L>(promise: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    immediate = setImmediate(() => {
      timer = setTimeout(() => (immediate = setImmediate(resolve)), ms);
    });
  }).then(late);
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearImmediate(immediate);
    clearTimeout(timer);
  }
}
