/**
 * Where observation fits run: on a worker thread in the service (piscina: one thread, fits queued),
 * so that one organisation's refit never holds the event loop every organisation's valuations run
 * on; in the calling thread for tests and tools that want no threads.
 */
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { fitObservationModel, type ObservationModel, type ObservationModelOptions, type ScoredObservation } from '../../models/observations';
import { liveAccuracyReport, type LiveAccuracyOptions, type LiveAccuracyReport, type RecordedObservation } from './live-accuracy';

/** What the worker is asked (./observation-fit-worker.ts). */
export type FitTask =
  | { task: 'model'; observations: ScoredObservation[]; options: ObservationModelOptions }
  | { task: 'liveAccuracy'; observations: RecordedObservation[]; options: LiveAccuracyOptions };

export interface ObservationFitter {
  fitModel(task: Extract<FitTask, { task: 'model' }>): Promise<ObservationModel>;
  liveAccuracy(task: Extract<FitTask, { task: 'liveAccuracy' }>): Promise<LiveAccuracyReport>;
  close(): Promise<void>;
}

/** Fits in this thread. */
export const inlineFitter: ObservationFitter = {
  fitModel: async ({ observations, options }) => fitObservationModel(observations, options),
  liveAccuracy: async ({ observations, options }) => liveAccuracyReport(observations, options),
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
