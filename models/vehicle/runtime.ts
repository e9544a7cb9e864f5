/**
 * Vehicle serving: loads one artifact version and values requests vectorised (one ONNX session
 * call for the whole batch).
 *
 * A request is valued on its make and model's own market data; a model the data does not hold, on
 * its make's level; a make with too little data, on the market segment's level for the body, engine
 * and year given; each basis with its own calibrated interval. Without even a body type there is no
 * segment to stand on: INSUFFICIENT_MARKET_DATA. The market index moves the estimate to the
 * valuation date within the data; past the newest data the level is held and the interval widens
 * by the measured drift allowance per month.
 */
import { confidence, statedConfidence, STALE_DATA_FLAG, STALE_DATA_MONTHS, type AccuracyClass, LoadedEnsemble, indexBand, versionSummary, ensembleEstimate, round3, roundTo, statedMembers } from '../ensemble';
import { periodIndex } from '../ensemble/encoding';
import { ModelSet, statedMarketLevel, type Clock } from '../ensemble/model-set';
import { linearAllowance, withDriftAllowance, type IntervalCalibration } from '../intervals/serving';
import { encodeVehicles, vehicleGroup, VEHICLE_FEATURE_COUNT, VEHICLE_FEATURE_NAMES, type VehicleFeatureSource } from './features';
import { readManifest, versionDir, VEHICLE_DIR, type VehicleManifest } from './manifest';
import { monthsPastIndex, vehicleLevelAt, VEHICLE_SEGMENTS } from './market-index';
import {
  InsufficientMarketDataError, type VehicleBasis, type VehicleCatalogEntry, type VehicleMarketIndexSeries, type VehicleModelSummary,
  type VehicleRequest, type VehicleRuntime, type VehicleValue,
} from './valuation';
import { badgeFamily, MAKES, modelsOf } from './vocabulary';
import type { TypicalVehicles } from './valuation';

/** Flags that describe an input unlike the training data: each widens the interval. */
export const VEHICLE_OUT_OF_DISTRIBUTION_FLAGS = new Set(['THIN_MODEL_DATA', 'YEAR_OUTSIDE_MODEL_DATA', 'UNUSUAL_MILEAGE']);
/** The market data is older than STALE_DATA_MONTHS at the valuation date: flagged, and the confidence is never 'high'. */
const STALE_FLAG = STALE_DATA_FLAG;
/** What each basis flags: a valuation not on the model's own data says so. */
const BASIS_FLAGS: Readonly<Record<VehicleBasis, string | null>> = { model: null, make: 'MODEL_NOT_IN_MARKET_DATA', segment: 'MAKE_NOT_IN_MARKET_DATA' };

export class VehicleModelSet extends ModelSet<VehicleManifest> implements VehicleRuntime {
  /** The plain interval of each basis that is not the model's own, as a calibration the shared estimate reads. */
  private readonly basisCalibration: Record<'make' | 'segment', IntervalCalibration>;

  /** The clock says when valuations are made: the default valuation date, and what the market data's age is measured against. */
  private constructor(manifest: VehicleManifest, ensemble: LoadedEnsemble, clock: Clock) {
    super(manifest, ensemble, clock);
    const plain = (basis: 'make' | 'segment'): IntervalCalibration => {
      const { q, rows } = manifest.bases[basis];
      return { ...manifest.intervals, scale: null, global: q, district: { [basis]: { q, n: rows, own: true } } };
    };
    this.basisCalibration = { make: plain('make'), segment: plain('segment') };
  }

  static async load(version: string, root = VEHICLE_DIR, clock: Clock = () => new Date()): Promise<VehicleModelSet> {
    const manifest = readManifest(version, root);
    return new VehicleModelSet(manifest, await LoadedEnsemble.load(versionDir(version, root), manifest, VEHICLE_FEATURE_NAMES), clock);
  }

  async value(requests: readonly VehicleRequest[]): Promise<(VehicleValue | InsufficientMarketDataError)[]> {
    const bases = requests.map((r) => this.basisOf(r));
    const valued = requests.map((_, i) => i).filter((i) => bases[i] !== null);
    // Trees cannot extrapolate in time: features are read at the newest period, the index sets the level.
    const period = this.manifest.features.encoding.newestPeriod;
    const rows: VehicleFeatureSource[] = valued.map((i) => ({ ...requests[i], period }));
    const outputs = rows.length ? await this.ensemble.run(encodeVehicles(rows, this.manifest.features.encoding, new Float32Array(rows.length * VEHICLE_FEATURE_COUNT)), rows.length) : [];
    const values = new Map(valued.map((i, k) => [i, this.assess(requests[i], bases[i]!, outputs[k].memberLogs, outputs[k].sigma)]));
    // An error (and its stack trace) only for the requests refused, not for every one valued.
    return requests.map((r, i) => values.get(i) ?? new InsufficientMarketDataError(r.make, r.model, this.listingsOf(r)));
  }

  /** What the estimate can stand on, or null when nothing can (no model data, no make data, no body). */
  private basisOf(request: VehicleRequest): VehicleBasis | null {
    const { manifest } = this;
    if (request.model !== null && this.listingsOf(request) >= manifest.minListings) return 'model';
    if ((manifest.market.make[badgeFamily(request.make)] ?? 0) >= manifest.bases.minMakeListings) return 'make';
    return request.body !== null ? 'segment' : null;
  }

  private listingsOf(request: Pick<VehicleRequest, 'make' | 'model'>): number {
    return request.model === null ? 0 : this.manifest.market.group[vehicleGroup(request)]?.listings ?? 0;
  }

  private assess(request: VehicleRequest, basis: VehicleBasis, memberLogs: number[], sigma: number): VehicleValue {
    const { manifest } = this;
    const group = vehicleGroup(request);
    const market = basis === 'model' ? manifest.market.group[group] : undefined;
    const valuationDate = (request.valuationDate ?? this.clock().toISOString()).slice(0, 10);
    const period = valuationDate.slice(0, 7);
    const index = manifest.marketIndex;
    const logLevel = vehicleLevelAt(index, request.make, period);
    const dataAgeMonths = monthsPastIndex(index, period);

    const before = this.inputFlags(request, basis, valuationDate, dataAgeMonths);
    const oodCount = before.filter((f) => VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(f)).length;
    const [calibration, calibrationGroup, scale] = basis === 'model' ? [manifest.intervals, group, sigma] : [this.basisCalibration[basis], basis, 1];
    const { estimate: rawEstimate, memberEstimates, modelSpread, calibratedHalfWidth } = ensembleEstimate(
      memberLogs.map((v) => v + logLevel), this.ensemble.weights, 1, calibration, calibrationGroup, oodCount, scale,
    );
    const median = market?.medianPriceByYear[String(request.year)]?.median ?? null;
    const deviation = median ? rawEstimate / median - 1 : null;
    const flags = [...before];
    if (deviation !== null && Math.abs(deviation) > 0.5) flags.push('FAR_FROM_GROUP_MEDIAN');
    if (modelSpread > 0.2) flags.push('MODELS_DISAGREE');
    // The drift allowance is calibrated per tier of the trained rule on the in-period width (as training
    // measured it); the confidence the client is told is the FSD of the interval served (models/ensemble/fsd.ts).
    const groupClass: AccuracyClass = basis === 'model' ? manifest.groupAccuracy[group] ?? 'low' : 'low';
    const tier = confidence(2 * Math.sinh(calibratedHalfWidth), modelSpread, groupClass, flags.filter((f) => f !== STALE_FLAG).length, manifest.confidenceWidths);
    const { halfWidth, widening } = withDriftAllowance(calibratedHalfWidth, linearAllowance(manifest.drift, dataAgeMonths, tier.level));
    const interval = { low: roundTo(rawEstimate * Math.exp(-halfWidth), 100), high: roundTo(rawEstimate * Math.exp(halfWidth), 100), coverage: manifest.intervals.coverage };
    if (request.askingPrice !== null && request.askingPrice < interval.low) flags.push('ASKING_PRICE_BELOW_INTERVAL');
    if (request.askingPrice !== null && request.askingPrice > interval.high) flags.push('ASKING_PRICE_ABOVE_INTERVAL');
    return {
      estimate: roundTo(rawEstimate, 100),
      currency: 'USD',
      interval,
      ...statedConfidence(roundTo(rawEstimate, 100), interval, { dataAgeMonths, widening, group, groupClass, modelSpread, flags }),
      models: statedMembers(manifest.members, memberEstimates),
      anomaly: {
        groupMedianPrice: median,
        deviationFromGroupMedian: deviation === null ? null : round3(deviation),
        marketListings: this.listingsOf(request),
        modelSpread: round3(modelSpread),
        flags,
      },
      basis,
      marketLevel: { ...statedMarketLevel(valuationDate, index.newestPeriod, dataAgeMonths, logLevel), intervalWidening: widening },
      modelVersion: manifest.version,
    };
  }

  /** Flags known before the price is estimated. */
  private inputFlags(request: VehicleRequest, basis: VehicleBasis, valuationDate: string, dataAgeMonths: number): string[] {
    const { manifest } = this;
    const market = manifest.market.group[vehicleGroup(request)];
    const flags: string[] = [];
    const basisFlag = BASIS_FLAGS[basis];
    if (basisFlag) flags.push(basisFlag);
    if (basis === 'model' && market.listings < manifest.thinListings) flags.push('THIN_MODEL_DATA');
    if (basis === 'model' && (request.year < market.years.from - 1 || request.year > market.years.to + 1)) flags.push('YEAR_OUTSIDE_MODEL_DATA');
    // Age at the valuation date, counted from mid model year.
    const age = Math.max(0.5, periodIndex(valuationDate.slice(0, 7)) / 12 + 2020 - (request.year + 0.5));
    if (request.mileageKm !== null && request.mileageKm / age > 60_000) flags.push('UNUSUAL_MILEAGE');
    if (dataAgeMonths > STALE_DATA_MONTHS) flags.push(STALE_FLAG);
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

  /** The makes and models the data holds, and the catalogue's makes it does not, with how each is valued. */
  catalog(): VehicleCatalogEntry[] {
    const { manifest } = this;
    const otherModels = (make: string): VehicleBasis => ((manifest.market.make[badgeFamily(make)] ?? 0) >= manifest.bases.minMakeListings ? 'make' : 'segment');
    const listed = manifest.market.catalog.map((row) => ({
      make: row.make,
      listings: row.listings,
      otherModels: otherModels(row.make),
      models: row.models.map((m) => ({
        ...m,
        basis: m.listings >= manifest.minListings ? ('model' as const) : otherModels(row.make),
        accuracyClass: manifest.groupAccuracy[vehicleGroup({ make: row.make, model: m.model })] ?? ('low' as const),
      })),
    }));
    const seen = new Set(listed.map((e) => e.make));
    const unlisted = MAKES.filter((m) => !seen.has(m.name)).map((m) => ({
      make: m.name,
      listings: 0,
      otherModels: otherModels(m.name),
      models: modelsOf(m.name).map((model) => ({ model, listings: 0, years: null, basis: otherModels(m.name), accuracyClass: 'low' as const })),
    }));
    return [...listed, ...unlisted];
  }

  typicalVehicles(): TypicalVehicles | null {
    return this.manifest.typical ?? null;
  }

  marketIndex(): VehicleMarketIndexSeries[] {
    const index = this.manifest.marketIndex;
    return VEHICLE_SEGMENTS.map((segment) => {
      const { makes, points, steps } = index.segments[segment];
      return {
        segment,
        makes,
        points: points.map((p) => {
          const { index: ratio, low, high } = indexBand(p.logLevel, p.se);
          return { period: p.period, index: round3(ratio), low: round3(low), high: round3(high), listings: p.listings };
        }),
        movesPerYear: steps.map((s) => ({ from: s.from, to: s.to, change: round3((s.change * 12) / Math.max(1, periodIndex(s.to) - periodIndex(s.from))) })),
      };
    });
  }
}
