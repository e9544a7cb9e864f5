/**
 * The vehicle artifact contract: `models/artifacts/vehicle/<version>/manifest.json` plus one
 * `ensemble.onnx` holding every member and the interval-scale model as columns of one output, and
 * a `CURRENT` file naming the version in service (the version store of models/ensemble/versions.ts).
 */
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import type { ForwardSplitDrift, IntervalCalibration, MeasuredDrift } from '../intervals/serving';
import type { AccuracyClass, ConfidenceLevelAccuracy, ConfidenceWidths } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import * as versions from '../ensemble/versions';
import type { DataSnapshot } from '../ingest';
import type { VehicleIngestReport, VehicleObservationReport } from './ingest';
import type { CollectedCarsReport } from './ingest/collected-cars';
import type { VehicleEncoding } from './features';
import type { VehicleMarketReference } from './market';
import type { VehicleMarketIndex } from './market-index';
import type { TypicalVehicles } from './valuation';

export const VEHICLE_DIR = join(ARTIFACTS_DIR, 'vehicle');
export const VEHICLE_ONNX_FILE = 'ensemble.onnx';
export const VEHICLE_SCALE_COLUMN = 'interval-scale';

export const versionDir = (version: string, root = VEHICLE_DIR): string => versions.versionDir(version, root);
export const currentVersion = (root = VEHICLE_DIR): string | null => versions.currentVersion(root);
export const setCurrentVersion = (version: string, root = VEHICLE_DIR): void => versions.setCurrentVersion(version, root);
export const listVersions = (root = VEHICLE_DIR): string[] => versions.listVersions(root);
export const readManifest = (version: string, root = VEHICLE_DIR): VehicleManifest => versions.readManifest<VehicleManifest>(version, root);

export interface VehicleEvaluationReport {
  protocol: string;
  weights: Record<string, number>;
  overall: AccuracyMetrics;
  /** Per make/model group (vehicleGroup), with counts. */
  groups: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }>;
  bySource: Record<string, AccuracyMetrics>;
}

/** The plain interval of a valuation on the make's or the segment's level (no σ(x): the scale model never saw such rows). */
export interface VehicleBasisCalibration {
  /** Conformal quantile of |log residual| of rows predicted without their group. */
  q: number;
  rows: number;
  protocol: string;
}

export interface VehicleManifest {
  kind: 'vehicle';
  version: string;
  trainedAt: string;
  generatedBy: string;
  dataSnapshot: DataSnapshot;
  training: {
    rows: number; bySource: Record<string, number>; byMake: Record<string, number>; seconds: number; ingest: VehicleIngestReport;
    /** The collected cars export trained on as a source of its own (`avtoelon_collected`): file, SHA-256, lines kept and dropped, months. Absent: none. */
    collected?: CollectedCarsReport;
  };
  /**
   * The organisation's observation export trained on as a source of its own (`npm run train --
   * --with-observations FILE`): file, SHA-256, lines kept and dropped by reason, price types, months.
   * Absent when the version was trained without one.
   */
  observations?: VehicleObservationReport;
  target: 'log_price';
  features: { names: string[]; encoding: VehicleEncoding };
  onnx: { file: string; input: string; output: string; columns: string[] };
  members: { name: string; algorithm: string; weight: number; hyperparameters: Record<string, unknown> }[];
  intervals: IntervalCalibration;
  /** The market index the training rows were levelled by (the `vehicleMarketIndex` query). */
  marketIndex: VehicleMarketIndex;
  /** How much the interval widens per month past the newest data. */
  drift: MeasuredDrift;
  /** Intervals of valuations on the make's level (model not held) and on the segment's (make too thin). */
  bases: { make: VehicleBasisCalibration; segment: VehicleBasisCalibration; minMakeListings: number };
  market: VehicleMarketReference;
  /** The typical car per make and model, per make and of the market, what a car's "what drives the estimate" compares it with (./attribution.ts); absent before 2026.11.3. */
  typical?: TypicalVehicles;
  /** Fewer training listings of a make and model than this → valued on the make's (or the segment's) level, not its own. */
  minListings: number;
  /** Fewer than this → valued, but flagged THIN_MODEL_DATA (the interval widens, confidence falls). */
  thinListings: number;
  /** Ends of the confidence rule's width term, from the oldest forward split's calibrated widths. */
  confidenceWidths: ConfidenceWidths;
  evaluation: {
    /** The newest forward split. */
    headline: VehicleEvaluationReport;
    /** Every forward split, oldest first, with its gap and the allowance it was scored with. */
    forward: (VehicleEvaluationReport & {
      drift: ForwardSplitDrift;
      /** The split scored with the other splits' allowance alone (null with one split): what an unseen period gets. */
      outOfSample: { allowancePerMonth: number; intervalCoverage: number; medianIntervalWidth: number } | null;
    })[];
    /** In-period k-fold: labelled so, not a headline. */
    kfold: VehicleEvaluationReport;
    unseenModel: VehicleEvaluationReport;
    unseenMake: VehicleEvaluationReport;
    /** The headline's rows at each confidence level the rule gives them (before flags). */
    byConfidence: ConfidenceLevelAccuracy[];
    featureImportance: { feature: string; importance: number }[];
  };
  /** Accuracy class per group used by the confidence rule (its forward accuracy, oldest split with 30+ rows first; else low). */
  groupAccuracy: Record<string, AccuracyClass>;
}
