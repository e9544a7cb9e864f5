/**
 * The manifest's `intervals.method`: one sentence generated from the kind's parameters, so the
 * description cannot drift from what training did.
 */
import { THIN_GROUP_FACTOR } from './calibration';
import { isChosen, type IntervalMethod } from './method';
import { SCALE_MODEL_NAME } from './scale-model';

/** @param power the pooling power the calibration used (the chosen one, where it was chosen) */
export function describeIntervalMethod(method: IntervalMethod<never>, power: number): string {
  const { residuals: r, groups, pooling, drift } = method;
  const notCalibrating = r.notCalibrating ? `; ${r.notCalibrating.source} fitted on but not calibrating, ${r.notCalibrating.why}` : '';
  const residuals = r.heldOut === 'source'
    ? `leave-one-source-out residuals (each from a fit that never saw its source${notCalibrating})`
    : `out-of-fold residuals (${r.heldOut} random folds${notCalibrating})`;
  const rows = r.copies ? `, of the ${r.rows} as listed and of their ${r.copies}` : '';
  const why = isChosen(pooling) ? `chosen among ${list(pooling.candidates.map(String))} leaving one source out` : `set in advance: ${pooling.why}`;
  const values = groups.values ? ` (${groups.values})` : '';
  const perGroup = groups.within ? `per ${groups.name}${values} and per ${groups.name} and ${groups.within}` : `per ${groups.name}${values}`;
  const fallback = groups.within ? `its ${groups.name}'s quantile, or without enough rows there the overall one ×${THIN_GROUP_FACTOR}` : `the overall quantile ×${THIN_GROUP_FACTOR}`;
  const past = drift.rule === 'random walk'
    ? `z·(volatility of ${drift.index})·√months, calibration rows scored net of the allowance for their own fit's gap`
    : `an allowance linear in the months, per confidence level: the largest rate per month ${drift.measuredOn} needed`;
  return `normalised split conformal on ${residuals}${rows}: |log residual| divided by a cross-fitted residual-scale model (${SCALE_MODEL_NAME}) pooled toward its median with power ${power} (${why}); recency-weighted quantile (half-life ${method.recencyHalfLifeMonths} months) ${perGroup} with at least ${method.minGroupRows} calibration rows, a thinner one taking ${fallback} (never narrower than its own); past the newest data, widened in quadrature by ${past}`;
}

function list(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');
}
