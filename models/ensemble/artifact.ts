/**
 * One loaded ensemble artifact: the ONNX file holding every member and the interval-scale model as
 * columns of one output, checked against its manifest, run as one session call per batch.
 */
import { join } from 'node:path';
import { OnnxModel } from '../runtime/onnx-model';
import type { IntervalCalibration } from '../intervals/serving';

/** The parts of any kind's manifest the ensemble needs. */
export interface EnsembleManifest {
  version: string;
  features: { names: string[] };
  onnx: { file: string; columns: string[] };
  members: { name: string; weight: number }[];
  intervals: IntervalCalibration;
}

export class LoadedEnsemble {
  private constructor(
    private readonly model: OnnxModel,
    readonly weights: readonly number[],
    private readonly memberColumns: readonly number[],
    /** Column of σ(x) of the normalised conformal interval; null when the version uses plain split conformal. */
    private readonly scaleColumn: number | null,
  ) {}

  /** Loads `<dir>/<manifest.onnx.file>`; refuses a version whose features or columns differ from what this code builds. */
  static async load(dir: string, manifest: EnsembleManifest, featureNames: readonly string[]): Promise<LoadedEnsemble> {
    if (manifest.features.names.join() !== featureNames.join()) {
      throw new Error(`model ${manifest.version} was trained on features [${manifest.features.names}] but this code builds [${featureNames}]`);
    }
    const model = await OnnxModel.load(join(dir, manifest.onnx.file));
    if (model.outputNames.join() !== manifest.onnx.columns.join()) {
      throw new Error(`model ${manifest.version}: ONNX columns [${model.outputNames}] differ from the manifest's [${manifest.onnx.columns}]`);
    }
    const column = (name: string) => manifest.onnx.columns.indexOf(name);
    return new LoadedEnsemble(model, manifest.members.map((m) => m.weight), manifest.members.map((m) => column(m.name)), manifest.intervals.scale ? column(manifest.intervals.scale.column) : null);
  }

  /** One session call for n rows of features: per row, each member's log prediction and σ(x). */
  async run(features: Float32Array, n: number): Promise<{ memberLogs: number[]; sigma: number }[]> {
    const columns = await this.model.runColumns(features, n);
    const scale = this.scaleColumn === null ? null : columns[this.scaleColumn];
    return Array.from({ length: n }, (_, i) => ({ memberLogs: this.memberColumns.map((c) => columns[c][i]), sigma: scale ? Math.exp(scale[i]) : 1 }));
  }

  release(): Promise<void> {
    return this.model.release();
  }
}
