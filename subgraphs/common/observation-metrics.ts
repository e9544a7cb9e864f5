/**
 * Prometheus view of each organisation's live accuracy (issue 18): what GraphQL `liveAccuracy`
 * reports overall, over the last METRICS_WINDOW_DAYS days of observations, per organisation and kind
 * (home, vehicle), for the service's valuations and the model's alone (`valuation` = service | base):
 *
 * - observations_live_median_ape, observations_live_bias (the recency-weighted mean log(price /
 *   valuation) the drift rule judges), observations_live_within_10, observations_live_interval_coverage:
 *   fractions, as models/observations/accuracy.ts gives them;
 * - observations_live_count: the observations in the window;
 * - observations_drift: 1 when the drift rule flags the organisation's valuations overall, else 0;
 *   observations_drift_groups: how many groups at the hierarchy's second level (district, make) it flags;
 * - observations_recorded_total: observations stored, counted on each record call.
 *
 * Overall figures only, never per district or make: organisations × kinds × a few series keeps label
 * cardinality bounded, and the groups are in GraphQL. The figures are the book's refresh
 * (./observation-book.ts), on its fitter, at most once per OBSERVATION_METRICS_REFRESH_MS (a minute) per organisation, never a
 * valuation's work. Metrics are per process and shared by every book in it (get-or-create by name).
 */
import { Counter, Gauge, register } from 'prom-client';
import { HALF_LIFE_DAYS, type LiveAccuracy } from '../../models/observations';
import type { LiveAccuracyReport } from './live-accuracy';
import type { ObservationKind } from './observation-store';

/** The window the figures are over: the observation model's half-life (90 days), the span its factors mostly rest on. */
export const METRICS_WINDOW_DAYS = HALF_LIFE_DAYS;

export interface ObservationMetrics {
  /** `count` observations of the organisation were stored. */
  recorded(org: string, count: number): void;
  /** The organisation's live accuracy over the window (with groups at the hierarchy's second level). */
  report(org: string, report: LiveAccuracyReport): void;
}

type Labels = 'organisation' | 'kind';
type ValuationLabels = Labels | 'valuation';

function metric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return metric(name, () => new Gauge<L>({ name, help, labelNames }));
}

const WINDOW = `over the last ${METRICS_WINDOW_DAYS} days of observations`;

/** Each accuracy gauge and how it reads a LiveAccuracy. */
const ACCURACY: readonly [name: string, help: string, read: (a: LiveAccuracy) => number][] = [
  ['observations_live_median_ape', `Median |valuation − price| / price ${WINDOW}`, (a) => a.medianApe],
  ['observations_live_bias', `Recency-weighted mean log(price / valuation) ${WINDOW} (positive: valuations low)`, (a) => a.bias.weightedMeanLogResidual],
  ['observations_live_within_10', `Share of valuations within ±10% of the price ${WINDOW}`, (a) => a.within10],
  ['observations_live_interval_coverage', `Share of prices inside the valuation's interval ${WINDOW}`, (a) => a.coverage.share],
];

export function observationMetrics(kind: ObservationKind): ObservationMetrics {
  const recorded = metric('observations_recorded_total', () => new Counter<Labels>({
    name: 'observations_recorded_total', help: 'Observed prices stored, by organisation and kind', labelNames: ['organisation', 'kind'],
  }));
  const accuracy = ACCURACY.map(([name, help, read]) => ({ gauge: gauge<ValuationLabels>(name, help, ['organisation', 'kind', 'valuation']), read }));
  const count = gauge<Labels>('observations_live_count', `Observations ${WINDOW}`, ['organisation', 'kind']);
  const drift = gauge<Labels>('observations_drift', `1 when the drift rule flags the organisation's valuations ${WINDOW}, else 0`, ['organisation', 'kind']);
  const driftGroups = gauge<Labels>('observations_drift_groups', `Groups (district, make) the drift rule flags ${WINDOW}`, ['organisation', 'kind']);
  return {
    recorded(org, n) {
      if (n > 0) recorded.inc({ organisation: org, kind }, n);
    },
    report(org, report) {
      const labels = { organisation: org, kind };
      const { overall } = report;
      for (const { gauge: g, read } of accuracy) {
        for (const valuation of ['service', 'base'] as const) {
          // No observation in the window: no figure, rather than a NaN.
          if (overall) g.set({ ...labels, valuation }, read(overall[valuation]));
          else g.remove({ ...labels, valuation });
        }
      }
      count.set(labels, overall?.service.n ?? 0);
      drift.set(labels, overall?.drift.flagged ? 1 : 0);
      driftGroups.set(labels, report.groups.filter((g) => g.drift.flagged).length);
    },
  };
}
