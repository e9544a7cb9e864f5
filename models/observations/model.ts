/**
 * An organisation's observation model: the market factors of its groups (./shrinkage.ts) and the
 * recalibration of its intervals (./recalibration.ts), fitted on its scored observations as of a
 * date. Pure: the caller keeps the observations and the fitted model (a plain JSON object).
 *
 * 1. Each observation's log residual log(price) − log(base estimate), weighted by recency
 *    (./weights.ts); the factors are fitted on all of them, robustly (./robust.ts).
 * 2. Cross-fitting for the scores: the observations are dealt into CROSS_FIT_FOLDS folds in their
 *    order (i mod K); each fold's adjusted estimates use factors fitted on the other folds, so every
 *    score is out of sample. The scores, normalised by the model's own half-width, calibrate each
 *    group's interval quantile.
 */
import type { GroupHierarchy } from './groups';
import { fitRecalibration, logHalfWidth, MIN_RECALIBRATION_N, normalisedScore, type Recalibration } from './recalibration';
import { fitRobustShrinkage, type RobustOptions } from './robust';
import { boundedLogFactor } from './factor-bound';
import { factorFor, type ShrinkageItem, type ShrinkageTable } from './shrinkage';
import { isScorable, logResidual, type PriceType, type ScoredObservation } from './types';
import { HALF_LIFE_DAYS, recencyWeights } from './weights';

/** Folds of the cross-fitting that makes the recalibration scores out of sample. */
export const CROSS_FIT_FOLDS = 10;

export interface ObservationModelOptions {
  hierarchy: GroupHierarchy;
  /** The date the model is for (ISO): ages are counted to it. */
  asOf: string;
  halfLifeDays?: number;
  /** The price types the model learns from. @default every type */
  priceTypes?: readonly PriceType[];
  /** The recalibrated intervals' coverage. @default the observations' base coverage (the model's) */
  coverage?: number;
  minRecalibrationN?: number;
  folds?: number;
  /** The Huber constant, iterations and shrinkage options (./robust.ts, ./shrinkage.ts). */
  robust?: RobustOptions;
}

export interface ObservationModel {
  hierarchy: GroupHierarchy;
  asOf: string;
  halfLifeDays: number;
  /** Observations the model learnt from (scorable, of the chosen price types). */
  observations: number;
  adjustments: ShrinkageTable;
  recalibration: Recalibration;
}

export function fitObservationModel(observations: readonly ScoredObservation[], options: ObservationModelOptions): ObservationModel {
  const { hierarchy, asOf } = options;
  const halfLifeDays = options.halfLifeDays ?? HALF_LIFE_DAYS;
  const used = observations.filter((o) => isScorable(o) && (options.priceTypes?.includes(o.priceType) ?? true));
  for (const o of used) {
    if (o.kind !== hierarchy.kind || o.groups.length !== hierarchy.levels.length) throw new Error(`an observation of kind ${o.kind} at depth ${o.groups.length} in the ${hierarchy.kind} hierarchy`);
  }
  const coverage = options.coverage ?? used[0]?.base.coverage ?? 0.9;
  const weights = recencyWeights(used, asOf, halfLifeDays);
  const items: ShrinkageItem[] = used.map((o, i) => ({ groups: o.groups, value: logResidual(o), weight: weights[i] }));
  const adjustments = fitRobustShrinkage(items, options.robust);

  const folds = Math.min(options.folds ?? CROSS_FIT_FOLDS, used.length);
  const scores = new Float64Array(used.length);
  for (let k = 0; k < folds; k++) {
    const table = fitRobustShrinkage(items.filter((_, i) => i % folds !== k), options.robust);
    for (let i = k; i < used.length; i += folds) {
      const o = used[i];
      // Scored against the estimate valuations are given: the factor bounded as ./adjust applies it.
      const adjusted = o.base.estimate * Math.exp(boundedLogFactor(factorFor(table, o.groups)?.factor ?? 0));
      scores[i] = normalisedScore(o.priceUsd, adjusted, logHalfWidth(o.base));
    }
  }
  const recalibration = fitRecalibration(used.map((o, i) => ({ groups: o.groups, score: scores[i], weight: weights[i] })), coverage, options.minRecalibrationN ?? MIN_RECALIBRATION_N);
  return { hierarchy, asOf, halfLifeDays, observations: used.length, adjustments, recalibration };
}
