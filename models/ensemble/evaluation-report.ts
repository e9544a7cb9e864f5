/**
 * A held-out evaluation as a version's manifest keeps it: read by serving (the version summary, the
 * model cards) and written by training (./source-views.ts), so it lives apart from the cross-fit
 * code and loads nothing of training.
 */
import type { AccuracyClass } from './confidence';
import type { AccuracyMetrics } from './metrics';

/** A held-out evaluation as manifests keep it. */
export interface EvaluationReport {
  /** How the numbers were measured, in one sentence. */
  protocol: string;
  /** Ensemble weights of the pipeline evaluated here (learned on its own training rows), by member. */
  weights?: Record<string, number>;
  overall: AccuracyMetrics;
  districts: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }>;
  bySource?: Record<string, AccuracyMetrics>;
  /** By segment: the part of the calibration group before '/' (flats: new build, resale, unknown). */
  segments?: Record<string, AccuracyMetrics>;
  /** Leave-one-source-out: the source with the largest median APE. */
  worstSource?: string;
  /** Leave-one-source-out, each row valued from its masked training copy (flats: core fields only, from 2026.11.9). */
  coreFieldsOnly?: { overall: AccuracyMetrics; bySource: Record<string, AccuracyMetrics> };
}
