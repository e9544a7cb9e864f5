import type { ChunkQueue, ChunkRetryPolicy } from './chunk-queue';
import type { JobStore } from './job-store';
import type { ProgressBus } from './progress-bus';

/** The three ports one engine and its workers share; an adapter provides all of them together. */
export interface BatchBackend {
  readonly kind: 'in-process' | 'redis';
  readonly store: JobStore;
  readonly bus: ProgressBus;
  readonly queue: ChunkQueue;
  /** False while the storage is out of reach (Redis down, reconnecting or stalled): calls would fail or wait. */
  isReachable(): boolean;
  /** Closes the ports and the connections the backend opened. */
  close(): Promise<void>;
}

/**
 * How long one storage call made for a caller may take, and (Redis) a health PING, before the
 * storage counts as unavailable. Longer than a quota check's bound: a submission's chunks carry up
 * to 10,000 items, and one call timing out fails the whole submission, where a quota check only
 * goes uncounted.
 */
export const DEFAULT_STORAGE_TIMEOUT_MS = 500;

/** How long a job and its results stay readable after it ends, unless configured: 7 days. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Where the engine's messages go unless a log is given. */
export const logToStderr = (message: string): void => console.error(`[batch] ${message}`);

/** What every backend is configured with. */
export interface BackendOptions {
  /** How long a job and its results stay readable after it ends, in ms. */
  retentionMs: number;
  retry: ChunkRetryPolicy;
  log: (message: string) => void;
}

/**
 * A backend over its ports. close() stops the queue first, so no chunk handler runs against a
 * closed store, then the bus and the store, then whatever connections the adapter opened.
 */
export function backendOf(
  kind: BatchBackend['kind'],
  ports: Pick<BatchBackend, 'store' | 'bus' | 'queue'>,
  closeConnections: () => Promise<void> = async () => undefined,
  isReachable: () => boolean = () => true,
): BatchBackend {
  const { store, bus, queue } = ports;
  return {
    kind,
    store,
    bus,
    queue,
    isReachable,
    async close() {
      await queue.close();
      await bus.close();
      await store.close();
      await closeConnections();
    },
  };
}
