/**
 * The batch job engine (docs/ARCHITECTURE.md, "A batch job"): the public surface; everything else in this folder is
 * internal but for the read side a process that only follows progress imports on its own
 * (open-batch-progress.ts, with settings.ts), since this surface loads BullMQ. Transports (GraphQL,
 * REST, webhooks) use BatchEngine; worker processes call engine.startWorker() with their chunk processor.
 *
 * What the engine guarantees, on both backends:
 * - States move queued → running → completed | failed | cancelled, and no other way.
 * - Each item's result is recorded exactly once, however often its chunk is run; results stream
 *   back in item order, a chunk at a time.
 * - A job ends once: one final progress event and one job-ended announcement.
 * - Progress reaches readers at least once a second until the final event.
 * - Every key of a job expires after the retention once the job ends.
 * Redis adds: any number of API and worker processes, a killed worker loses and duplicates no
 * item, and with Redis persistence a queued job survives a Redis restart.
 */
export { BatchEngine, type BatchEngineOptions, type JobEndedListener } from './batch-engine';
export { BatchWorker, type BatchWorkerOptions, type ChunkOutcome, type SettledChunk } from './batch-worker';
export { createBatchEngine, type CreateBatchEngineOptions } from './create-batch-engine';
export type { BackendOptions, BatchBackend } from './batch-backend';
export { createInProcessBatchBackend } from './in-process-backend';
export { createRedisBatchBackend, type RedisBatchBackendOptions } from './redis-backend';
export {
  BatchItemLimitError,
  BatchJobClosedError,
  BatchJobNotFoundError,
  BatchStorageUnavailableError,
  BatchSubmissionError,
  ChunkOutOfOrderError,
  ChunkResultsMismatchError,
  InvalidBatchOptionsError,
  isStorageUnavailable,
} from './errors';
export { canTransition, isTerminal } from './job-status';
export { batchEngineSettings, batchEngineSettingsFromEnv, type BatchEngineSettings } from './settings';
export { progressEventOf } from './progress-event';
export type { JobStore, RecordOutcome, TransitionResult } from './job-store';
export type {
  AppendOptions,
  BatchJob,
  BatchJobPage,
  ChunkContext,
  ChunkProcessor,
  ItemError,
  ItemResult,
  JobStatus,
  PageRequest,
  ProgressEvent,
  SubmitOptions,
  TerminalJobStatus,
} from './types';
