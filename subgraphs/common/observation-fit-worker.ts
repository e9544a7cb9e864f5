/**
 * The observation fits, run on a worker thread (./observation-fitting.ts): fitting one
 * organisation's model, or scoring its live accuracy, takes from milliseconds to seconds of CPU
 * with its number of observations, and must not hold the event loop other organisations'
 * valuations run on.
 */
import { fitObservationModel, type ObservationModel } from '../../models/observations';
import { liveAccuracyReport, type LiveAccuracyReport } from './live-accuracy';
import type { FitTask } from './observation-fit-task';

function run(task: FitTask): ObservationModel | LiveAccuracyReport {
  return task.task === 'model' ? fitObservationModel(task.observations, task.options) : liveAccuracyReport(task.observations, task.options);
}

export = run;
