/**
 * Where observation fits run: on a worker thread in the service (piscina: one thread, fits queued),
 * so that one organisation's refit never holds the event loop every organisation's valuations run
 * on; in the calling thread for tests and tools that want no threads.
 */
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { ObservationModel, ObservationModelOptions, ScoredObservation } from '../../models/observations';
import type { LiveAccuracyOptions, LiveAccuracyReport, RecordedObservation } from './live-accuracy';
import run = require('./observation-fit-worker');

/** What the worker is asked (./observation-fit-worker.ts). */
export type FitTask =
  | { task: 'model'; observations: ScoredObservation[]; options: ObservationModelOptions }
  | { task: 'liveAccuracy'; observations: RecordedObservation[]; options: LiveAccuracyOptions };

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

/** Fits on one worker thread, started on the first fit and stopped after a minute without any. */
export function workerFitter(): ObservationFitter {
  const pool = new Piscina({ filename: join(__dirname, 'observation-fit-worker.js'), minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
  return {
    fitModel: (task) => pool.run(task),
    liveAccuracy: (task) => pool.run(task),
    close: () => pool.destroy(),
  };
}
