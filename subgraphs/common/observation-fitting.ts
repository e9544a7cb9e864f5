/**
 * Where observation fits run: on worker threads in the service (piscina: one thread for model fits,
 * one for live accuracy reports, each queued), so that one organisation's refit never holds the event
 * loop every organisation's valuations run on; in the calling thread for tests and tools that want no threads.
 */
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { ObservationModel } from '../../models/observations';
import type { LiveAccuracyReport } from './live-accuracy';
import type { FitTask } from './observation-fit-task';
import run = require('./observation-fit-worker');

export type { FitTask } from './observation-fit-task';

export interface ObservationFitter {
  fitModel(task: Extract<FitTask, { task: 'model' }>): Promise<ObservationModel>;
  liveAccuracy(task: Extract<FitTask, { task: 'liveAccuracy' }>): Promise<LiveAccuracyReport>;
  close(): Promise<void>;
}

/** Fits in this thread: the worker's own function, called directly. */
export const inlineFitter: ObservationFitter = {
  fitModel: async (task) => run(task) as ObservationModel,
  liveAccuracy: async (task) => run(task) as LiveAccuracyReport,
  close: async () => undefined,
};

/**
 * Fits on one worker thread and live accuracy reports on another, each started on its first task and
 * stopped after a minute without any. Apart, because a report (up to MAX_REPORT_FITS fits, seconds at
 * 20,000 observations; the metrics refresh asks for one per organisation a minute) queued ahead of a
 * refit would hold up the valuations waiting for it.
 */
export function workerFitter(): ObservationFitter {
  const thread = () => new Piscina({ filename: join(__dirname, 'observation-fit-worker.js'), minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
  const fits = thread();
  const reports = thread();
  return {
    fitModel: (task) => fits.run(task),
    liveAccuracy: (task) => reports.run(task),
    close: async () => {
      await Promise.all([fits.destroy(), reports.destroy()]);
    },
  };
}
