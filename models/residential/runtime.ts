/**
 * Serving: loads one artifact version (manifest + one ONNX file holding every member and the
 * interval-scale model) and values requests vectorised: one ONNX session call for the whole batch.
 * Imports the feature module and the ONNX runner, never a trainer.
 */
import { LoadedEnsemble } from '../ensemble/artifact';
import { confidence } from '../ensemble/confidence';
import { inputFlags, estimateFlags, OUT_OF_DISTRIBUTION_FLAGS } from './assessment';
import { versionSummary } from '../ensemble/publish';
import { ensembleEstimate, round3, roundTo } from '../ensemble/estimate';
import { encodeFeatures, FEATURE_COUNT, FEATURE_NAMES, type FeatureSource } from './features';
import { readManifest, versionDir, RESIDENTIAL_DIR, type ResidentialManifest } from './manifest';
import type { HomeRequest } from './request';
import { DISTRICT_NAMES, type DistrictId } from '../vocabulary/codes';
import type { HomeValue, ResidentialModelSummary, ResidentialRuntime } from './valuation';

export class ResidentialModelSet implements ResidentialRuntime {
  private constructor(
    readonly manifest: ResidentialManifest,
    private readonly ensemble: LoadedEnsemble,
  ) {}

  static async load(version: string, root = RESIDENTIAL_DIR): Promise<ResidentialModelSet> {
    const manifest = readManifest(version, root);
    return new ResidentialModelSet(manifest, await LoadedEnsemble.load(versionDir(version, root), manifest, FEATURE_NAMES));
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
    const outputs = await this.ensemble.run(features, n);
    return requests.map((request, i) => this.assess(request, outputs[i].memberLogs, outputs[i].sigma));
  }

  /** From the members' log price per m² predictions for one request to the full answer. */
  private assess(request: HomeRequest, memberLogPpm2: number[], sigma: number): HomeValue {
    const { manifest } = this;
    const before = inputFlags(request, manifest.market);
    const oodCount = before.filter((f) => OUT_OF_DISTRIBUTION_FLAGS.has(f)).length;
    const { estimate: rawEstimate, memberEstimates, modelSpread, low, high } = ensembleEstimate(memberLogPpm2, this.ensemble.weights, request.area, manifest.intervals, request.district, oodCount, sigma);
    const estimate = roundTo(rawEstimate, 100);
    const interval = { low: roundTo(low, 100), high: roundTo(high, 100), coverage: manifest.intervals.coverage };

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
      models: manifest.members.map((m, j) => ({ name: m.name, estimate: roundTo(memberEstimates[j], 100) })),
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
      ...versionSummary(manifest),
      districts: Object.entries(headline.districts).map(([id, m]) => {
        const { accuracyClass, ...metrics } = m;
        return { district: DISTRICT_NAMES[id as DistrictId] ?? id, metrics, accuracyClass };
      }),
      market: manifest.market,
    };
  }

  async close(): Promise<void> {
    await this.ensemble.release();
  }
}
