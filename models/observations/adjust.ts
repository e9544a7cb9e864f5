/**
 * One valuation through an organisation's observation model: the base estimate times its group's
 * market factor, and its interval recalibrated on the organisation's residuals, with what backs
 * each. The numbers are not rounded here; the service rounds as it does its own.
 */
import { boundedLogFactor } from './factor-bound';
import type { ObservationModel } from './model';
import { logHalfWidth, MIN_WIDTH_RATIO, recalibrationFor, withinDataLogHalfWidth } from './recalibration';
import { factorFor, type GroupFactor } from './shrinkage';
import type { BaseValuation } from './types';

export { MAX_MARKET_FACTOR } from './factor-bound';

export interface AdjustmentExplanation {
  /** The multiplicative market factor applied, exp(logFactor): within [1/MAX_MARKET_FACTOR, MAX_MARKET_FACTOR]. */
  factor: number;
  logFactor: number;
  /** The factor the observations gave, when it lay past the bound and was cut to it (else undefined). */
  unboundedFactor?: number;
  /** The group whose factor applies (the valuation's own, or its nearest ancestor with observations) and its level's name. */
  group: string;
  level: string;
  observations: number;
  effectiveN: number;
  /** The share of the group's own mean in the factor; the rest comes from the level above. */
  shrinkageWeight: number;
  /** The group's own weighted mean log residual, before shrinkage. */
  groupMeanLogResidual: number;
}

export interface IntervalExplanation {
  /** 'recalibrated': conformal on the organisation's residuals; 'model': the model's own interval, moved by the factor. */
  method: 'recalibrated' | 'model';
  coverage: number;
  group: string | null;
  level: string | null;
  observations: number;
  effectiveN: number;
  /** The half-width in units of the model's own (1 = as wide). */
  widthRatio: number;
}

export interface AdjustedValuation extends BaseValuation {
  base: BaseValuation;
  /** null: no observation on the valuation's path, the estimate is the base's. */
  adjustment: AdjustmentExplanation | null;
  interval: IntervalExplanation;
}

export function adjustValuation(base: BaseValuation, groups: readonly string[], model: ObservationModel): AdjustedValuation {
  const found = factorFor(model.adjustments, groups);
  const logFactor = boundedLogFactor(found?.factor ?? 0);
  const estimate = base.estimate * Math.exp(logFactor);
  const recalibrated = recalibrationFor(model.recalibration, groups);
  const levelName = (level: number) => model.hierarchy.levels[level] ?? String(level);
  let interval: IntervalExplanation;
  let low: number;
  let high: number;
  if (recalibrated && base.high > base.low && base.low > 0) {
    const served = logHalfWidth(base);
    const h = Math.max(recalibrated.q * served, MIN_WIDTH_RATIO * withinDataLogHalfWidth(base));
    [low, high] = [estimate * Math.exp(-h), estimate * Math.exp(h)];
    interval = { method: 'recalibrated', coverage: model.recalibration.coverage, group: recalibrated.key, level: levelName(recalibrated.level), observations: recalibrated.observations, effectiveN: recalibrated.effectiveN, widthRatio: h / served };
  } else {
    [low, high] = [base.low * Math.exp(logFactor), base.high * Math.exp(logFactor)];
    interval = { method: 'model', coverage: base.coverage, group: null, level: null, observations: 0, effectiveN: 0, widthRatio: 1 };
  }
  return { estimate, low, high, coverage: interval.coverage, base, adjustment: found && explain(found, logFactor, levelName(found.level)), interval };
}

function explain(group: GroupFactor, logFactor: number, level: string): AdjustmentExplanation {
  return {
    factor: Math.exp(logFactor), logFactor, ...(logFactor !== group.factor && { unboundedFactor: Math.exp(group.factor) }), group: group.key, level,
    observations: group.observations, effectiveN: group.effectiveN, shrinkageWeight: group.shrinkageWeight, groupMeanLogResidual: group.mean,
  };
}
