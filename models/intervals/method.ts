/**
 * The interval method's parameters: every way one kind's intervals differ from another's is a
 * field here, and each kind states its values in one place (`INTERVALS` in models/<kind>/train.ts). The
 * manifest's one-sentence description is generated from them (./describe.ts).
 */

/** Candidate poolings of σ(x), fixed before any result was seen: plain, halfway, fully normalised. */
export const SCALE_POOLING_POWERS = [0, 0.5, 1] as const;

export interface IntervalMethod<Row> {
  /** Share of valuations the interval should hold. */
  coverage: number;
  /** Which out-of-fold residuals calibrate, as the kind's cross-fit makes them. */
  residuals: {
    /** What a row is, in the plural ('listings', 'houses'). */
    rows: string;
    /** 'source': each row scored by a fit that never saw its source; a number: that many random folds. */
    heldOut: 'source' | number;
    /** The masked training copies whose residuals calibrate too ('core-fields-only copies'), or null. */
    copies: string | null;
    /** A source fitted on whose residuals do not calibrate, and why. */
    notCalibrating?: { source: string; why: string };
  };
  /**
   * The calibration group of a row. With `within`, keys are 'group/within' ('new/chilanzar') and a
   * pair with too few rows takes its group's quantile; `values` lists what a group can be.
   */
  groups: { of(row: Row): string; name: string; values?: string; within?: string };
  /** A group gets its own quantile with at least this many calibration rows. */
  minGroupRows: number;
  /** A calibration row counts half as much for every this many months it is older than the newest. */
  recencyHalfLifeMonths: number;
  pooling: FixedPooling | ChosenPooling;
  drift: DriftRule;
}

/** The pooling power set before any of the kind's results was seen. */
export interface FixedPooling {
  power: number;
  why: string;
}

/** The pooling power chosen among candidates, each source's rows calibrated on the other sources' (./by-source.ts). */
export interface ChosenPooling {
  candidates: readonly number[];
  view: SourceView;
}

/** How the leave-one-source-out view is calibrated. */
export interface SourceView {
  /** A group gets its own quantile there with at least this many rows. */
  minGroupRows: number;
  /** A source fitted on but never scored nor calibrating. */
  notScored?: string;
}

/**
 * How the allowance past the newest data is obtained. 'random walk': z · an index's volatility ·
 * √months, read off the index fitted with the members, so calibration scores are net of it.
 * 'linear': a rate per month measured on forward splits in time on top of the in-period interval.
 */
export type DriftRule = { rule: 'random walk'; index: string } | { rule: 'linear'; measuredOn: string };

export const isChosen = (pooling: IntervalMethod<never>['pooling']): pooling is ChosenPooling => 'candidates' in pooling;
