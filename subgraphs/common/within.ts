/**
 * What `promise` settles to, or what `late()` returns (or throws) if it has not settled within `ms`.
 * `promise` is not cancelled: a node-redis command already written, for one, waits for its reply
 * whatever its caller does, so a caller bounding Redis calls must also stop sending them once
 * Redis is known to be stalled (see RedisHealth).
 */
export async function within<T, L>(promise: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))).then(late);
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
