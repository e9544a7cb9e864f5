/**
 * Vehicle serving: loads one artifact version and values requests vectorised (one ONNX session
 * call for the whole batch). A make and model with too little market data gets no number at all;
 * a thin one, a model year outside what the data covers, or a market older than a year widen the
 * interval and lower the confidence.
 */
import { confidence } from '../ensemble/confidence';
import { LoadedEnsemble } from '../ensemble/artifact';
import { periodIndex } from '../ensemble/encoding';
import { versionSummary } from '../ensemble/publish';
import { ensembleEstimate, round3, roundTo } from '../ensemble/estimate';
import { encodeVehicles, vehicleGroup, VEHICLE_FEATURE_COUNT, VEHICLE_FEATURE_NAMES, type VehicleFeatureSource } from './features';
import { readManifest, versionDir, VEHICLE_DIR, type VehicleManifest } from './manifest';
import { InsufficientMarketDataError, type VehicleCatalogEntry, type VehicleMarketIndexSeries, type VehicleModelSummary, type VehicleRequest, type VehicleRuntime, type VehicleValue } from './valuation';

/** Flags that describe an input unlike the training data, or a market that has moved since: each widens the interval. */
export const VEHICLE_OUT_OF_DISTRIBUTION_FLAGS = new Set(['THIN_MODEL_DATA', 'YEAR_OUTSIDE_MODEL_DATA', 'UNUSUAL_MILEAGE', 'MARKET_DATA_OLDER_THAN_12_MONTHS']);

export class VehicleModelSet implements VehicleRuntime {
  private constructor(
    readonly manifest: VehicleManifest,
    private readonly ensemble: LoadedEnsemble,
    /** When valuations are made: the market data's age is measured against it. */
    private readonly now: () => Date,
  ) {}

  static async load(version: string, root = VEHICLE_DIR, now: () => Date = () => new Date()): Promise<VehicleModelSet> {
    const manifest = readManifest(version, root);
    return new VehicleModelSet(manifest, await LoadedEnsemble.load(versionDir(version, root), manifest, VEHICLE_FEATURE_NAMES), now);
  }

  get version(): string {
    return this.manifest.version;
  }

  async value(requests: readonly VehicleRequest[]): Promise<(VehicleValue | InsufficientMarketDataError)[]> {
    const { manifest } = this;
    const listings = requests.map((r) => manifest.market.group[vehicleGroup(r)]?.listings ?? 0);
    const valued = requests.map((_, i) => i).filter((i) => listings[i] >= manifest.minListings);
    const period = manifest.features.encoding.newestPeriod;
    const rows: VehicleFeatureSource[] = valued.map((i) => ({ ...requests[i], period }));
    const outputs = rows.length ? await this.ensemble.run(encodeVehicles(rows, manifest.features.encoding, new Float32Array(rows.length * VEHICLE_FEATURE_COUNT)), rows.length) : [];
    const results: (VehicleValue | InsufficientMarketDataError)[] = requests.map((r, i) => new InsufficientMarketDataError(r.make, r.model, listings[i]));
    valued.forEach((i, k) => (results[i] = this.assess(requests[i], outputs[k].memberLogs, outputs[k].sigma)));
    return results;
  }

  private assess(request: VehicleRequest, memberLogs: number[], sigma: number): VehicleValue {
    const { manifest } = this;
    const group = vehicleGroup(request);
    const market = manifest.market.group[group];
    const before = this.inputFlags(request);
    const oodCount = before.filter((f) => VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(f)).length;
    const { estimate: rawEstimate, memberEstimates, modelSpread, low, high } = ensembleEstimate(memberLogs, this.ensemble.weights, 1, manifest.intervals, group, oodCount, sigma);
    const interval = { low: roundTo(low, 100), high: roundTo(high, 100), coverage: manifest.intervals.coverage };
    const median = market?.medianPriceByYear[String(request.year)]?.median ?? null;
    const deviation = median ? rawEstimate / median - 1 : null;
    const flags = [...before];
    if (deviation !== null && Math.abs(deviation) > 0.5) flags.push('FAR_FROM_GROUP_MEDIAN');
    if (modelSpread > 0.2) flags.push('MODELS_DISAGREE');
    if (request.askingPrice !== null && request.askingPrice < interval.low) flags.push('ASKING_PRICE_BELOW_INTERVAL');
    if (request.askingPrice !== null && request.askingPrice > interval.high) flags.push('ASKING_PRICE_ABOVE_INTERVAL');
    return {
      estimate: roundTo(rawEstimate, 100),
      currency: 'USD',
      interval,
      confidence: confidence((high - low) / rawEstimate, modelSpread, manifest.groupAccuracy[group] ?? 'low', flags.length),
      models: manifest.members.map((m, j) => ({ name: m.name, estimate: roundTo(memberEstimates[j], 100) })),
      anomaly: {
        groupMedianPrice: median,
        deviationFromGroupMedian: deviation === null ? null : round3(deviation),
        marketListings: market?.listings ?? 0,
        modelSpread: round3(modelSpread),
        flags,
      },
      basis: 'model',
      marketLevel: { valuationDate: (request.valuationDate ?? this.now().toISOString()).slice(0, 10), newestDataPeriod: manifest.features.encoding.newestPeriod, dataAgeMonths: 0, indexRatio: 1, intervalWidening: 0 },
      modelVersion: manifest.version,
    };
  }

  /** Flags known before the price is estimated. */
  private inputFlags(request: VehicleRequest): string[] {
    const { manifest } = this;
    const market = manifest.market.group[vehicleGroup(request)];
    const flags: string[] = [];
    if (!market || market.listings < manifest.thinListings) flags.push('THIN_MODEL_DATA');
    if (market && (request.year < market.years.from - 1 || request.year > market.years.to + 1)) flags.push('YEAR_OUTSIDE_MODEL_DATA');
    const newest = periodIndex(manifest.features.encoding.newestPeriod);
    const at = this.now();
    const monthsOld = (at.getUTCFullYear() - 2020) * 12 + at.getUTCMonth() - newest;
    const age = Math.max(0.5, 2020 + newest / 12 - request.year);
    if (request.mileageKm !== null && request.mileageKm / age > 60_000) flags.push('UNUSUAL_MILEAGE');
    if (monthsOld > 12) flags.push('MARKET_DATA_OLDER_THAN_12_MONTHS');
    return flags;
  }

  summary(): VehicleModelSummary {
    const { manifest } = this;
    const headline = manifest.evaluation.headline;
    return {
      ...versionSummary(manifest),
      groups: Object.entries(headline.groups).map(([group, m]) => {
        const { accuracyClass, ...metrics } = m;
        return { group, metrics, accuracyClass };
      }),
    };
  }

  catalog(): VehicleCatalogEntry[] {
    return this.manifest.market.catalog;
  }

  marketIndex(): VehicleMarketIndexSeries[] {
    return [];
  }

  async close(): Promise<void> {
    await this.ensemble.release();
  }
}
