import { backendOf, DEFAULT_RETENTION_MS, logToStderr } from './batch-backend';
import { BatchEngine } from './batch-engine';
import type { ChunkQueue } from './chunk-queue';
import type { CreateBatchEngineOptions } from './create-batch-engine';
import { connectBatchRedis } from './redis-connection';
import { DEFAULT_KEY_PREFIX } from './redis-keys';

/** What a process that only follows batch progress may do: read a job, follow its progress, close. */
export type BatchProgressReader = Pick<BatchEngine, 'get' | 'progress' | 'close'>;

export interface OpenBatchProgressOptions
  extends Pick<CreateBatchEngineOptions, 'keyPrefix' | 'retentionMs' | 'storageTimeoutMs' | 'progressHeartbeatMs' | 'log'> {
  /** The Redis the API and worker processes share. */
  redisUrl: string;
}

/** A reader submits no job and takes no chunk, so it has no chunk queue. */
const NO_CHUNK_QUEUE: ChunkQueue = {
  enqueue: async () => {
    throw new Error('a batch progress reader queues no chunk');
  },
  consume: async () => {
    throw new Error('a batch progress reader takes no chunk');
  },
  close: async () => undefined,
};

/**
 * The engine's read side on Redis, for the gateway run alone: the same get() and progress() as the
 * engine of the API processes (it is one, over the job store and progress bus with the same
 * settings), but without a chunk queue, so it loads no BullMQ and opens nothing beyond the engine's
 * client and, on the first subscription, its progress subscriber. Import it from this module, not
 * the engine's index.ts, which loads BullMQ.
 */
export async function openBatchProgress(options: OpenBatchProgressOptions): Promise<BatchProgressReader> {
  const log = options.log ?? logToStderr;
  const redis = await connectBatchRedis({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
    storageTimeoutMs: options.storageTimeoutMs,
    log,
  });
  const backend = backendOf('redis', { store: redis.store, bus: redis.bus, queue: NO_CHUNK_QUEUE }, redis.closeConnection, redis.isReachable);
  return new BatchEngine(backend, { progressHeartbeatMs: options.progressHeartbeatMs, storageTimeoutMs: options.storageTimeoutMs, log });
}
