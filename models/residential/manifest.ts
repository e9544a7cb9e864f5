/**
 * The residential artifact contract: `models/artifacts/residential/<version>/manifest.json` plus one
 * `ensemble.onnx` holding every ensemble member and the interval-scale model as columns of one
 * output (so a batch is valued with one session call), and a `CURRENT` file naming the version in
 * service. Everything the runtime needs besides the .onnx file is in the manifest.
 */
import type { MarketMixtureModel } from './market-mixture';
import type { ObservationSourceReport } from '../ingest/observation-listings';
import type { CollectedSourceReport } from '../ingest/collected-homes';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import * as versions from '../ensemble/versions';
import type { IntervalCalibration } from '../intervals/serving';
import type { FeatureEncoding } from './features';
import type { MarketReference } from './market';
import type { MarketIndex } from './market-index';
import type { AccuracyClass, ConfidenceLevelAccuracy, ConfidenceWidths } from '../ensemble/confidence';
import { MIN_CLASS_ROWS } from '../ensemble/metrics';
import type { IngestReport } from '../ingest';
import type { AccuracyMetrics } from './valuation';
import type { EvaluationReport } from '../ensemble/evaluation-report';

export const RESIDENTIAL_DIR = join(ARTIFACTS_DIR, 'residential');
export { compareVersions, nextVersion } from '../ensemble/versions';

// The version store of models/ensemble/versions.ts, rooted at the residential artifacts by default.
export const versionDir = (version: string, root = RESIDENTIAL_DIR): string => versions.versionDir(version, root);
export const currentVersion = (root = RESIDENTIAL_DIR): string | null => versions.currentVersion(root);
export const setCurrentVersion = (version: string, root = RESIDENTIAL_DIR): void => versions.setCurrentVersion(version, root);
export const listVersions = (root = RESIDENTIAL_DIR): string[] => versions.listVersions(root);
export const ONNX_FILE = 'ensemble.onnx';
/** Column of the interval-scale model in the ensemble's output. */
export const SCALE_COLUMN = 'interval-scale';

export interface MemberManifest {
  /** Also the member's column name in the ONNX output. */
  name: string;
  algorithm: string;
  /** Weight in the consensus (weights sum to 1). */
  weight: number;
  hyperparameters: Record<string, unknown>;
}

export type { EvaluationReport } from '../ensemble/evaluation-report';

/** The gradient-boosting baseline on the same features and views (ours must beat it). */
export interface BaselineReport {
  algorithm: string;
  hyperparameters: Record<string, unknown>;
  forward: AccuracyMetrics;
  leaveOneSourceOut: AccuracyMetrics;
  /** Our ensemble's leave-one-source-out accuracy on the same rows, for the comparison. */
  oursLeaveOneSourceOutOnTheSameRows: AccuracyMetrics;
}

export interface ResidentialManifest {
  kind: 'residential';
  version: string;
  trainedAt: string;
  generatedBy: string;
  dataSnapshot: { id: string; files: { path: string; sha256: string; rows: number }[] };
  training: {
    rows: number; bySource: Record<string, number>; byDistrict: Record<string, number>; seconds: number; ingest: IngestReport;
    /** Weight of each row's core-fields-only training copy relative to the row (from 2026.11.9; absent = no copies). */
    maskedCopyWeight?: number;
    /** The organisation's observation export trained on as a source of its own (absent: none). */
    observations?: ObservationSourceReport;
    /** The collected homes export trained on as sources of their own (absent: none; ../ingest/collected-homes.ts). */
    collected?: CollectedSourceReport;
  };
  target: 'log_price_per_m2';
  features: { names: string[]; encoding: FeatureEncoding };
  /** The ONNX file and its output columns in order: the members, then the interval-scale model. */
  onnx: { file: string; input: string; output: string; columns: string[] };
  members: MemberManifest[];
  intervals: IntervalCalibration;
  market: MarketReference;
  /** The market index the members' targets were levelled with; serving reads the valuation date's level from it. */
  marketIndex: MarketIndex;
  /**
   * How a flat sent without its market is valued (from 2026.11.15; absent: as the members' own
   * "market unknown" rows, calibrated on the unlabelled sources): ./market-mixture.ts.
   */
  marketMixture?: MarketMixtureModel;
  evaluation: {
    /** Forward in time and across scrapes: the newest snapshot, valued by a model fitted on everything before it. */
    headline: EvaluationReport & { level?: LevelCheck };
    leaveOneSourceOut: EvaluationReport;
    /** The forward protocol one step earlier (uybor 2025 by everything before it), from 2026.11.16. */
    backtest?: { protocol: string; overall: AccuracyMetrics; level: LevelCheck; grossMisfits?: GrossMisfits };
    /** Every forward step pooled (from 2026.11.24): issue 32 judges bias and coverage here, not on one step. */
    pooledForward?: PooledForward;
    /** The headline flats with fields removed: overall, by each flat's own market (sent or not), and by the confidence level each would get at best (absent before 2026.11.20). */
    masked: { name: string; overall: AccuracyMetrics; segments?: Record<string, AccuracyMetrics>; byConfidence?: ConfidenceLevelAccuracy[] }[];
    baseline: BaselineReport;
    /** Random K-fold over every source mixed: the in-distribution view, which flatters (from 2026.11.12). */
    inDistribution?: { protocol: string; overall: AccuracyMetrics };
    featureImportance: { feature: string; importance: number }[];
  };
  /**
   * The confidence rule's width ends for this model (from 2026.11.14; older versions use the
   * defaults), how they were set, and the accuracy at each level leaving one source out.
   */
  confidence?: { widths: ConfidenceWidths; protocol: string; leaveOneSourceOut: ConfidenceLevelAccuracy[] };
  /** The district accuracy classes the confidence rule uses (from the headline evaluation). */
  districtAccuracy: Record<string, AccuracyClass>;
}

/** Listings whose asking price cannot be a valuation error (the rule says which), and the view's metrics without them. */
export interface GrossMisfits {
  rule: string;
  rows: number;
  overallWithout: AccuracyMetrics;
}

/**
 * The forward steps (each fitted only on the sources before its test) pooled row by row: the median
 * bias (median of estimate / price, as a ratio − 1) and the 90% coverage with its Wilson bounds,
 * overall and by segment.
 */
export interface PooledForward {
  protocol: string;
  steps: { source: string; n: number }[];
  overall: AccuracyMetrics & { medianBias: number };
  segments: Record<string, AccuracyMetrics & { medianBias: number }>;
}

/**
 * How much of a forward test's error is the market level (from 2026.11.16): the median error of the
 * estimates as a ratio (0.05 = 5% above the price), and the median APE and 90% coverage once that
 * one level error is taken out of every estimate and interval.
 */
export interface LevelCheck {
  medianLevelError: number;
  medianApeAtFoundLevel: number;
  coverageAtFoundLevel: number;
}

/**
 * The evaluation a district's accuracy class and reported metrics come from: the forward test where
 * the district has MIN_CLASS_ROWS listings there, else leave one source out.
 */
export function districtEvaluation(evaluation: Pick<ResidentialManifest['evaluation'], 'headline' | 'leaveOneSourceOut'>, district: string): EvaluationReport['districts'][string] | undefined {
  const forward = evaluation.headline.districts[district];
  return (forward?.n ?? 0) >= MIN_CLASS_ROWS ? forward : evaluation.leaveOneSourceOut.districts[district] ?? forward;
}

export function readManifest(version: string, root = RESIDENTIAL_DIR): ResidentialManifest {
  return versions.readManifest<ResidentialManifest>(version, root);
}

