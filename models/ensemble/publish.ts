/**
 * Publishing a trained version of any kind: the next version number, the ONNX ensemble (members
 * plus the interval-scale model as columns of one output), the manifest and the held-out rows.
 * And what every kind's runtime says about its version (the summary the *Model queries serve).
 */
import { toOnnxEnsemble } from '../onnx/registry';
import type { AccuracyMetrics } from './metrics';
import { listVersions, nextVersion, versionDir, writeVersion } from './versions';
import type { MemberSpec } from './weights';

interface PublishableManifest {
  version: string;
  trainedAt: string;
  training: { seconds: number };
  features: { names: string[] };
  onnx: { file: string };
  evaluation: { headline: { protocol: string } };
}

export interface TrainedEnsemble<M extends PublishableManifest> {
  manifest: Omit<M, 'version' | 'trainedAt'>;
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  scaleModel: ReturnType<MemberSpec['create']>;
  headlinePredictions: unknown[];
}

/** Writes `trained` as the next version under `root`; training seconds counted from `started` (ms). */
export function publishVersion<M extends PublishableManifest>(root: string, trained: TrainedEnsemble<M>, scaleColumn: string, started: number): { manifest: M; dir: string } {
  const version = nextVersion(listVersions(root));
  const manifest = {
    ...trained.manifest,
    version,
    trainedAt: new Date().toISOString(),
    training: { ...trained.manifest.training, seconds: Math.round((Date.now() - started) / 100) / 10 },
  } as M;
  const dir = versionDir(version, root);
  const columns = [...trained.fitted.map(({ spec, model }) => ({ name: spec.name, model })), { name: scaleColumn, model: trained.scaleModel }];
  writeVersion(dir, {
    onnxFile: manifest.onnx.file,
    onnx: toOnnxEnsemble(columns, { featureNames: manifest.features.names, metadata: { model_version: version } }),
    manifest,
    evaluation: { protocol: manifest.evaluation.headline.protocol, rows: trained.headlinePredictions },
  });
  return { manifest, dir };
}

interface SummarisableManifest {
  version: string;
  trainedAt: string;
  dataSnapshot: { id: string };
  members: { name: string; algorithm: string; weight: number }[];
  intervals: { coverage: number };
  evaluation: { headline: { protocol: string; overall: AccuracyMetrics }; featureImportance: { feature: string; importance: number }[] };
}

/** The part of a version's summary every kind shares; each adds its own groups (districts, make/model groups). */
export function versionSummary(manifest: SummarisableManifest) {
  const headline = manifest.evaluation.headline;
  return {
    version: manifest.version,
    trainedAt: manifest.trainedAt,
    dataSnapshot: manifest.dataSnapshot.id,
    evaluation: headline.protocol,
    metrics: headline.overall,
    featureImportance: manifest.evaluation.featureImportance,
    members: manifest.members.map((m) => ({ name: m.name, algorithm: m.algorithm, weight: m.weight })),
    intervalCoverage: manifest.intervals.coverage,
  };
}
