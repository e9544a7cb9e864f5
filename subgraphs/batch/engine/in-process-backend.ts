import { backendOf, type BackendOptions, type BatchBackend } from './batch-backend';
import { InMemoryJobStore } from './in-memory-job-store';
import { InProcessChunkQueue } from './in-process-chunk-queue';
import { InProcessProgressBus } from './in-process-progress-bus';

/** Everything in this process: the service runs without Redis, and nothing survives a restart. */
export function createInProcessBatchBackend(options: BackendOptions): BatchBackend {
  return backendOf('in-process', {
    store: new InMemoryJobStore({ retentionMs: options.retentionMs }),
    bus: new InProcessProgressBus(),
    queue: new InProcessChunkQueue({ retry: options.retry, log: options.log }),
  });
}
