import { backendOf, type BackendOptions, type BatchBackend } from './batch-backend';
import { InMemoryJobStore } from './in-memory-job-store';
import { InProcessChunkQueue } from './in-process-chunk-queue';
import { InProcessProgressBus } from './in-process-progress-bus';
import type { JobStore } from './job-store';

/**
 * Everything in this process: the service runs without Redis. The jobs live in `store`: in memory
 * only by default (tests of the engine); the embedded service passes a JournaledJobStore, so they
 * outlive a restart.
 */
export function createInProcessBatchBackend(options: BackendOptions, store: JobStore = new InMemoryJobStore({ retentionMs: options.retentionMs })): BatchBackend {
  return backendOf('in-process', {
    store,
    bus: new InProcessProgressBus(),
    queue: new InProcessChunkQueue({ retry: options.retry, log: options.log }),
  });
}
