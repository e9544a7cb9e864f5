/**
 * The residential artifact contract: `models/artifacts/residential/<version>/manifest.json` plus one
 * `ensemble.onnx` holding every ensemble member and the interval-scale model as columns of one
 * output (so a batch is valued with one session call), and a `CURRENT` file naming the version in
 * service. Everything the runtime needs besides the .onnx file is in the manifest.
 */
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import type { IntervalCalibration } from './conformal';
import type { FeatureEncoding } from './features';
import type { MarketReference } from './market';
import type { AccuracyClass } from './assessment';
import type { IngestReport } from '../ingest';
import type { AccuracyMetrics } from './valuation';

export const RESIDENTIAL_DIR = join(ARTIFACTS_DIR, 'residential');
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

export interface EvaluationReport {
  /** How the headline numbers were measured, in one sentence. */
  protocol: string;
  /** Ensemble weights of the pipeline evaluated here (learned on its own training rows), by member. */
  weights?: Record<string, number>;
  overall: AccuracyMetrics;
  districts: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }>;
  bySource?: Record<string, AccuracyMetrics>;
}

export interface ResidentialManifest {
  kind: 'residential';
  version: string;
  trainedAt: string;
  generatedBy: string;
  dataSnapshot: { id: string; files: { path: string; sha256: string; rows: number }[] };
  training: { rows: number; bySource: Record<string, number>; byDistrict: Record<string, number>; seconds: number; ingest: IngestReport };
  target: 'log_price_per_m2';
  features: { names: string[]; encoding: FeatureEncoding };
  /** The ONNX file and its output columns in order: the members, then the interval-scale model. */
  onnx: { file: string; input: string; output: string; columns: string[] };
  members: MemberManifest[];
  intervals: IntervalCalibration;
  market: MarketReference;
  evaluation: { headline: EvaluationReport; kfold: EvaluationReport; featureImportance: { feature: string; importance: number }[] };
  /** The district accuracy classes the confidence rule uses (from the headline evaluation). */
  districtAccuracy: Record<string, AccuracyClass>;
}

export function versionDir(version: string, root = RESIDENTIAL_DIR): string {
  return join(root, version);
}

export function readManifest(version: string, root = RESIDENTIAL_DIR): ResidentialManifest {
  return JSON.parse(readFileSync(join(versionDir(version, root), 'manifest.json'), 'utf8')) as ResidentialManifest;
}

/** The promoted version, or null before the first training. */
export function currentVersion(root = RESIDENTIAL_DIR): string | null {
  const file = join(root, 'CURRENT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

/** Promotion is one atomic rename, so a running service never reads a half-written pointer. */
export function setCurrentVersion(version: string, root = RESIDENTIAL_DIR): void {
  const tmp = join(root, `.CURRENT.${process.pid}`);
  writeFileSync(tmp, `${version}\n`);
  renameSync(tmp, join(root, 'CURRENT'));
}

export function listVersions(root = RESIDENTIAL_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, e.name, 'manifest.json')))
    .map((e) => e.name)
    .sort(compareVersions);
}

/** Versions are YYYY.MM.N. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export function nextVersion(existing: readonly string[], now = new Date()): string {
  const prefix = `${now.getUTCFullYear()}.${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const taken = existing.filter((v) => v.startsWith(`${prefix}.`)).map((v) => Number(v.split('.')[2]));
  return `${prefix}.${taken.length ? Math.max(...taken) + 1 : 0}`;
}
