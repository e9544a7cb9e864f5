/**
 * Where PDF reports are rendered: a small pool of worker threads (piscina) with a bounded queue, so
 * that reports never run on the event loop every organisation's valuations share (issue 33,
 * finding 4: 300 reports on the main thread moved another bank's median valuation to 763 ms).
 * One thread by default: on a two-core machine the other core stays with the event loop. A render
 * that finds the queue full is refused at once with 503 SERVICE_UNAVAILABLE (Retry-After 1) rather
 * than waiting behind it; each organisation's own allowance (`reports` in the plan) comes first.
 */
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { ApiError } from '../../schema/errors';
import type { PdfTask } from './pdf-task';

/** Renders at most this many reports at once. @default 1 */
export const REPORT_RENDER_THREADS = 1;

/** Reports waiting for a thread, beyond which a render is refused. @default 32 (about 2 s of rendering) */
export const REPORT_RENDER_QUEUE = 32;

export interface ReportRenderer {
  pdf(task: PdfTask): Promise<Buffer>;
  close(): Promise<void>;
}

/** The pool is busy: 503 with Retry-After (QuotaExceededError's header is for a plan's allowance). */
export class RenderQueueFullError extends ApiError {
  readonly retryAfterSeconds = 1;
  constructor(waiting: number) {
    super('SERVICE_UNAVAILABLE', `Reports are being rendered for other requests (${waiting} waiting): retry in a second`);
  }
}


export function renderPool(options: { threads?: number; queue?: number } = {}): ReportRenderer {
  const queue = options.queue ?? REPORT_RENDER_QUEUE;
  const pool = new Piscina({
    filename: join(__dirname, 'pdf-worker.js'),
    minThreads: 0,
    maxThreads: options.threads ?? REPORT_RENDER_THREADS,
    maxQueue: queue,
    // Fonts are parsed once per thread (gateway/reports/fonts.ts): keep a thread a while between reports.
    idleTimeout: 60_000,
  });
  return {
    async pdf(task) {
      if (pool.queueSize >= queue) throw new RenderQueueFullError(queue);
      const bytes = (await pool.run(task)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    close: () => pool.destroy(),
  };
}
