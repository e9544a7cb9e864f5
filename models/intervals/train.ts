/**
 * The training half of the interval method: from a cross-fit's out-of-fold residuals and the kind's
 * parameters (./method.ts) to the calibration a manifest stores. Every kind calls
 * `calibrateIntervals`; serving never loads this file (./serving.ts is its half).
 */
import { pooledScale, type IntervalCalibration, type ScalePooling, type ScalePoolingSelection } from './calibration';
import { calibrateGroups, conformityScore } from './conformal';
import { describeIntervalMethod } from './describe';
import { randomWalkAllowance, type RandomWalkDrift } from './drift';
import { choosePooling } from './by-source';
import { isChosen, type FixedPooling, type IntervalMethod } from './method';
import { poolingAt, type OutOfFoldResiduals } from './residuals';
import { SCALE_FLOOR } from './scale-model';

export type { OutOfFoldResiduals } from './residuals';

/** Intervals calibrated at one pooling power. */
export interface PooledCalibration {
  pooling: ScalePooling;
  calibration: IntervalCalibration;
  /** σ(x) → the pooled scale the calibration's q multiplies. */
  scale(sigma: Float64Array): Float64Array;
}

/**
 * The calibration at one pooling power: cheap, so several powers can be compared on one fit.
 * `allowance` (log, per row) is what serving would add for each row's monthsBeyond: scores net of
 * it, so the interval served is the one measured.
 */
export function calibrateAt(oof: OutOfFoldResiduals, power: number, method: Pick<IntervalMethod<never>, 'coverage' | 'minGroupRows'>, allowance?: ArrayLike<number>): PooledCalibration {
  const pooling = poolingAt(oof, power);
  const rows = oof.calibrating;
  const calibration = calibrateGroups(
    rows.map((i) => conformityScore(oof.abs[i], pooledScale(oof.sigma[i], pooling), allowance?.[i])), rows.map((i) => oof.group[i]),
    method.coverage, method.minGroupRows, rows.map((i) => oof.weight[i]),
  );
  return { pooling, calibration, scale: (sigma) => sigma.map((v) => pooledScale(v, pooling)) };
}

export interface CalibratedIntervals<Row> extends PooledCalibration {
  method: IntervalMethod<Row>;
  /** The allowance netted out of each row's score (random-walk drift), else null. */
  allowance: Float64Array | null;
  /** The record of the pooling choice, where the power was chosen. */
  selection: ScalePoolingSelection | null;
  /** The manifest's `intervals`: the calibration, its generated description, the scale column and pooling. */
  manifest: IntervalCalibration;
}

/**
 * The interval method of one kind on one cross-fit: the random-walk allowance netted out of the
 * scores (`index` is the level the fit was made with), the pooling power fixed or chosen leaving
 * one source out, and the calibration at that power.
 */
export function calibrateIntervals<Row>(method: IntervalMethod<Row>, oof: OutOfFoldResiduals, options: { scaleColumn: string; index?: RandomWalkDrift }): CalibratedIntervals<Row> {
  let allowance: Float64Array | null = null;
  if (method.drift.rule === 'random walk') {
    const index = options.index;
    if (!index) throw new Error(`the random-walk allowance of ${method.drift.index} needs the fit's index`);
    allowance = oof.monthsBeyond.map((months) => randomWalkAllowance(index, months));
  }
  const { pooling } = method;
  const selection = isChosen(pooling) ? choosePooling(oof, allowance ?? new Float64Array(oof.abs.length), pooling, method.coverage) : null;
  const power = selection ? selection.chosen : (pooling as FixedPooling).power;
  const served = calibrateAt(oof, power, method, allowance ?? undefined);
  const manifest: IntervalCalibration = {
    ...served.calibration,
    method: describeIntervalMethod(method, power),
    scale: { column: options.scaleColumn, floor: SCALE_FLOOR, pooling: served.pooling },
    ...(selection ? { selection } : {}),
  };
  return { ...served, method, allowance, selection, manifest };
}
