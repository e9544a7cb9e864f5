/**
 * Publishing a trained version of any kind: the next version number, the ONNX ensemble (members
 * plus the interval-scale model as columns of one output), the manifest and the held-out rows.
 */
import { toOnnxEnsemble } from '../onnx/registry';
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
