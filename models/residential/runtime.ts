/**
 * Serving: loads one artifact version (manifest + one ONNX file holding every member and the
 * interval-scale model) and values requests vectorised: one ONNX session call for the whole batch.
 * Imports the feature module and the ONNX runner, never a trainer.
 */
import { join } from 'node:path';
import { OnnxModel } from '../runtime/onnx-model';
import { confidence } from '../ensemble/confidence';
import { inputFlags, estimateFlags, OUT_OF_DISTRIBUTION_FLAGS } from './assessment';
import { intervalHalfWidth, pooledScale } from '../ensemble/conformal';
import { encodeFeatures, FEATURE_COUNT, FEATURE_NAMES, type FeatureSource } from './features';
import { readManifest, versionDir, RESIDENTIAL_DIR, type ResidentialManifest } from './manifest';
import type { HomeRequest } from './request';
import { DISTRICT_NAMES, type DistrictId } from '../vocabulary/codes';
import type { HomeValue, ResidentialModelSummary, ResidentialRuntime } from './valuation';

interface Member {
  name: string;
  weight: number;
  /** Its column in the ONNX output. */
  column: number;
}

export class ResidentialModelSet implements ResidentialRuntime {
  private constructor(
    readonly manifest: ResidentialManifest,
    private readonly model: OnnxModel,
    private readonly members: readonly Member[],
    /** Column of σ(x) of the normalised conformal interval; null when the version uses plain split conformal. */
    private readonly scaleColumn: number | null,
  ) {}

  static async load(version: string, root = RESIDENTIAL_DIR): Promise<ResidentialModelSet> {
    const manifest = readManifest(version, root);
    if (manifest.features.names.join() !== FEATURE_NAMES.join()) {
      throw new Error(`model ${version} was trained on features [${manifest.features.names}] but this code builds [${FEATURE_NAMES}]`);
    }
    const model = await OnnxModel.load(join(versionDir(version, root), manifest.onnx.file));
    if (model.outputNames.join() !== manifest.onnx.columns.join()) {
      throw new Error(`model ${version}: ONNX columns [${model.outputNames}] differ from the manifest's [${manifest.onnx.columns}]`);
    }
    const column = (name: string) => manifest.onnx.columns.indexOf(name);
    const members = manifest.members.map((m) => ({ name: m.name, weight: m.weight, column: column(m.name) }));
    return new ResidentialModelSet(manifest, model, members, manifest.intervals.scale ? column(manifest.intervals.scale.column) : null);
  }

  get version(): string {
    return this.manifest.version;
  }

  async value(requests: readonly HomeRequest[]): Promise<HomeValue[]> {
    const n = requests.length;
    if (n === 0) return [];
    const period = this.manifest.features.encoding.newestPeriod;
    const rows: FeatureSource[] = requests.map((r) => ({ ...r, period }));
    const features = encodeFeatures(rows, this.manifest.features.encoding, new Float32Array(n * FEATURE_COUNT));
    const columns = await this.model.runColumns(features, n);
    const scale = this.scaleColumn === null ? null : columns[this.scaleColumn];
    return requests.map((request, i) => this.assess(request, this.members.map((m) => columns[m.column][i]), scale ? pooledScale(Math.exp(scale[i]), this.manifest.intervals.scale?.pooling) : 1));
  }

  /** From the members' log price per m² predictions for one request to the full answer. */
  private assess(request: HomeRequest, memberLogPpm2: number[], sigma: number): HomeValue {
    const { manifest } = this;
    let consensus = 0;
    this.members.forEach((m, j) => (consensus += m.weight * memberLogPpm2[j]));
    const memberEstimates = memberLogPpm2.map((lp) => Math.exp(lp) * request.area);
    const rawEstimate = Math.exp(consensus) * request.area;
    // Disagreement among the members that carry weight: a zero-weight member is reported, not trusted.
    const weighted = memberEstimates.filter((_, j) => this.members[j].weight > 0);
    const modelSpread = weighted.length > 1 ? (Math.max(...weighted) - Math.min(...weighted)) / rawEstimate : 0;

    const before = inputFlags(request, manifest.market);
    const oodCount = before.filter((f) => OUT_OF_DISTRIBUTION_FLAGS.has(f)).length;
    const q = intervalHalfWidth(manifest.intervals, request.district, oodCount) * sigma;
    const estimate = roundTo(rawEstimate, 100);
    const interval = { low: roundTo(rawEstimate * Math.exp(-q), 100), high: roundTo(rawEstimate * Math.exp(q), 100), coverage: manifest.intervals.coverage };

    const districtMarket = manifest.market.district[request.district];
    const pricePerM2 = rawEstimate / request.area;
    const deviation = districtMarket ? pricePerM2 / districtMarket.medianPricePerM2 - 1 : 0;
    const mahallaMarket = request.mahallaId ? manifest.market.mahalla[request.mahallaId] : undefined;
    const flags = [...before, ...estimateFlags(request, interval, deviation, modelSpread)];
    const districtClass = manifest.districtAccuracy[request.district] ?? 'low';
    return {
      estimate,
      currency: 'USD',
      pricePerM2: Math.round(pricePerM2),
      interval,
      confidence: confidence((interval.high - interval.low) / rawEstimate, modelSpread, districtClass, flags.length),
      models: this.members.map((m, j) => ({ name: m.name, estimate: roundTo(memberEstimates[j], 100) })),
      anomaly: {
        districtMedianPricePerM2: districtMarket?.medianPricePerM2 ?? 0,
        deviationFromDistrictMedian: round3(deviation),
        mahallaMedianPricePerM2: mahallaMarket?.medianPricePerM2 ?? null,
        deviationFromMahallaMedian: mahallaMarket ? round3(pricePerM2 / mahallaMarket.medianPricePerM2 - 1) : null,
        modelSpread: round3(modelSpread),
        flags,
      },
      modelVersion: manifest.version,
    };
  }

  summary(): ResidentialModelSummary {
    const { manifest } = this;
    const headline = manifest.evaluation.headline;
    return {
      version: manifest.version,
      trainedAt: manifest.trainedAt,
      dataSnapshot: manifest.dataSnapshot.id,
      evaluation: headline.protocol,
      metrics: headline.overall,
      districts: Object.entries(headline.districts).map(([id, m]) => {
        const { accuracyClass, ...metrics } = m;
        return { district: DISTRICT_NAMES[id as DistrictId] ?? id, metrics, accuracyClass };
      }),
      featureImportance: manifest.evaluation.featureImportance,
      members: manifest.members.map((m) => ({ name: m.name, algorithm: m.algorithm, weight: m.weight })),
      intervalCoverage: manifest.intervals.coverage,
      market: manifest.market,
    };
  }

  async close(): Promise<void> {
    await this.model.release();
  }
}

function roundTo(x: number, step: number): number {
  return Math.round(x / step) * step;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
