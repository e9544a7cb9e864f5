/**
 * A fit handed to the observation fit worker (./observation-fit-worker.ts runs it; ./observation-fitting.ts
 * sends it, to a worker thread or inline): its own module, since both sides need it.
 */
import type { ObservationModelOptions, ScoredObservation } from '../../models/observations';
import type { LiveAccuracyOptions, RecordedObservation } from './live-accuracy';

export type FitTask =
  | { task: 'model'; observations: ScoredObservation[]; options: ObservationModelOptions }
  | { task: 'liveAccuracy'; observations: RecordedObservation[]; options: LiveAccuracyOptions };
