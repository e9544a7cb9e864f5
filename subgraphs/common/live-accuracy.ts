/**
 * Live accuracy of an organisation's valuations (issue 18): each observation scored against the
 * valuation the service would have given for it when it arrived, i.e. the model's estimate at the
 * observation's date adjusted by what the organisation had recorded before that call (prequential:
 * a call's observations never adjust their own scores), and against the model alone. Overall and
 * per group, with the drift rule's verdict (models/observations/drift.ts).
 */
import {
  accuracyByGroup, adjustValuation, driftOf, fitObservationModel, liveAccuracy, DRIFT_RULE,
  type DriftVerdict, type GroupHierarchy, type LiveAccuracy, type ObservationModel, type ScoredObservation, type ScoredValuation,
} from '../../models/observations';

export interface AccuracyWithDrift {
  service: LiveAccuracy;
  base: LiveAccuracy;
  drift: DriftVerdict;
}

export interface LiveAccuracyReport {
  asOf: string;
  since: string | null;
  /** The level the groups are at (e.g. district, make). */
  level: string;
  overall: AccuracyWithDrift | null;
  groups: ({ group: string } & AccuracyWithDrift)[];
  rule: typeof DRIFT_RULE;
}

/** A scored observation with the time of the call that recorded it. */
export interface RecordedObservation {
  recordedAt: string;
  observation: ScoredObservation;
}

export interface LiveAccuracyOptions {
  hierarchy: GroupHierarchy;
  asOf: string;
  since: string | null;
  /** The depth of the groups reported (1: below the top). */
  level: number;
}

/**
 * The most models one report fits: 12. An organisation that records in more calls than that has
 * its calls taken in 12 consecutive runs, each scored with the model of the runs before it (a little
 * stricter than call by call), so that a report costs at most 12 fits (seconds of a worker thread at
 * 20,000 observations) however it was recorded.
 */
export const MAX_REPORT_FITS = 12;

/**
 * `records`: the organisation's scored observations of one kind, any order. Observations recorded
 * in one call share a recordedAt, and are scored with the model fitted on the calls before it.
 */
export function liveAccuracyReport(records: readonly RecordedObservation[], options: LiveAccuracyOptions): LiveAccuracyReport {
  const byCall = new Map<string, RecordedObservation[]>();
  for (const record of records) {
    const call = byCall.get(record.recordedAt);
    if (call) call.push(record);
    else byCall.set(record.recordedAt, [record]);
  }
  const ordered = [...byCall].sort(([a], [b]) => a.localeCompare(b));
  const runs: [string, RecordedObservation[]][] = [];
  ordered.forEach(([recordedAt, call], i) => {
    const run = Math.floor((i * MAX_REPORT_FITS) / ordered.length);
    if (runs[run]) runs[run][1].push(...call);
    else runs[run] = [recordedAt, [...call]];
  });
  const service: ScoredValuation[] = [];
  const base: ScoredValuation[] = [];
  const before: ScoredObservation[] = [];
  for (const [recordedAt, call] of runs.filter(Boolean)) {
    const model: ObservationModel | null = before.length === 0 ? null : fitObservationModel(before, { hierarchy: options.hierarchy, asOf: recordedAt.slice(0, 10) });
    for (const { observation } of call) {
      const given = model ? adjustValuation(observation.base, observation.groups, model) : observation.base;
      const common = { groups: observation.groups, observedAt: observation.observedAt, priceUsd: observation.priceUsd };
      service.push({ ...common, estimate: given.estimate, low: given.low, high: given.high });
      base.push({ ...common, estimate: observation.base.estimate, low: observation.base.low, high: observation.base.high });
    }
    before.push(...call.map((c) => c.observation));
  }
  const accuracyOptions = { asOf: options.asOf, window: options.since ? { from: options.since } : undefined };
  const withDrift = (serviceRows: ScoredValuation[], baseRows: ScoredValuation[]): AccuracyWithDrift | null => {
    const own = liveAccuracy(serviceRows, accuracyOptions);
    if (own.n === 0) return null;
    return { service: own, base: liveAccuracy(baseRows, accuracyOptions), drift: driftOf(own) };
  };
  const byGroupService = accuracyByGroup(service, options.level, accuracyOptions);
  const byGroupBase = accuracyByGroup(base, options.level, accuracyOptions);
  return {
    asOf: options.asOf,
    since: options.since,
    level: options.hierarchy.levels[options.level],
    overall: withDrift(service, base),
    groups: Object.keys(byGroupService).sort().map((group) => ({ group, service: byGroupService[group], base: byGroupBase[group], drift: driftOf(byGroupService[group]) })),
    rule: DRIFT_RULE,
  };
}
