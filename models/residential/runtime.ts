/**
 * Serving: loads one artifact version (manifest + one ONNX file holding every member and the
 * interval-scale model) and values requests vectorised: one ONNX session call for the whole batch.
 * Imports the feature module and the ONNX runner, never a trainer.
 */
import { LoadedEnsemble, dataAgeFlags, statedConfidence, versionSummary, ensembleEstimate, round3, roundTo, statedMembers } from '../ensemble';
import { inputFlags, estimateFlags, OUT_OF_DISTRIBUTION_FLAGS } from './assessment';
import { randomWalkAllowance } from '../intervals/serving';
import { encodeFeatures, FEATURE_COUNT, FEATURE_NAMES, type FeatureSource } from './features';
import { districtEvaluation, readManifest, versionDir, RESIDENTIAL_DIR, type ResidentialManifest } from './manifest';
import { ModelSet, statedMarketLevel, type Clock } from '../ensemble/model-set';
import { indexBand, logLevelAt, monthsBeyondData, zoneOf } from './market-index';
import type { ApartmentRequest } from './request';
import { MIXTURE_MARKETS, mixedValuation, newBuildProbability } from './market-mixture';
import { nearestComparables, DEFAULT_COMPARABLES, type ComparableListing } from './comparables';
import { DISTRICT_NAMES, type DistrictId, type Market } from '../vocabulary/codes';
import type { HomeValue, MarketIndexSeries, MarketLevel, ResidentialModelSummary } from './valuation';

/** One flat model version (the service composes it with the house model: ./serving.ts). */
export class ResidentialModelSet extends ModelSet<ResidentialManifest> {
  static async load(version: string, root = RESIDENTIAL_DIR, clock: Clock = () => new Date()): Promise<ResidentialModelSet> {
    const manifest = readManifest(version, root);
    return new ResidentialModelSet(manifest, await LoadedEnsemble.load(versionDir(version, root), manifest, FEATURE_NAMES), clock);
  }

  async value(requests: readonly ApartmentRequest[]): Promise<HomeValue[]> {
    const n = requests.length;
    if (n === 0) return [];
    const today = this.clock().toISOString().slice(0, 10);
    // A flat without its market is valued as each market (./market-mixture.ts): its rows follow one another.
    const mixture = this.manifest.marketMixture;
    const rows: (ApartmentRequest & FeatureSource)[] = [];
    const valued = requests.map((r) => {
      const period = (r.valuationDate ?? today).slice(0, 7);
      return (mixture && r.market === null ? MIXTURE_MARKETS : [r.market]).map((market) => {
        // Object.assign (and no spread before fields below), not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
        const row = Object.assign({}, r, { market, period });
        rows.push(row);
        return row;
      });
    });
    const features = encodeFeatures(rows, this.manifest.features.encoding, new Float32Array(rows.length * FEATURE_COUNT));
    const outputs = await this.ensemble.run(features, rows.length);
    let next = 0;
    return requests.map((request, i) => {
      const valuationDate = request.valuationDate ?? today;
      // The input's flags do not depend on its market: read once, for every valuation of it.
      const before = inputFlags(request, this.manifest.market);
      const oodCount = before.filter((f) => OUT_OF_DISTRIBUTION_FLAGS.has(f)).length;
      const components = valued[i].map((asRow) => {
        const { memberLogs, sigma } = outputs[next++];
        return this.component(asRow, valuationDate, memberLogs, sigma, oodCount);
      });
      return this.assess(request, valuationDate, before, components);
    });
  }

  /**
   * The members predict log price per m² at the newest data's level; the market index moves it to the
   * valuation date, and past the newest data the interval widens by the index's volatility.
   */
  private marketLevel(request: ApartmentRequest, valuationDate: string): { reported: Omit<MarketLevel, 'intervalWidening'>; logLevel: number } {
    const index = this.manifest.marketIndex;
    const period = valuationDate.slice(0, 7);
    const logLevel = logLevelAt(index, request.district, request.market, period);
    return { reported: statedMarketLevel(valuationDate, index.newestPeriod, monthsBeyondData(index, period), logLevel), logLevel };
  }

  /** One valuation of the request (or of the request as one market) from the members' log price per m² predictions. */
  private component(request: ApartmentRequest, valuationDate: string, memberLogPpm2: number[], sigma: number, oodCount: number) {
    // The level and the allowance past the newest data only: the level as stated is the request's own (assess), not each market's.
    const index = this.manifest.marketIndex;
    const period = valuationDate.slice(0, 7);
    const logLevel = logLevelAt(index, request.district, request.market, period);
    const allowance = randomWalkAllowance(index, monthsBeyondData(index, period));
    return ensembleEstimate(memberLogPpm2.map((v) => v + logLevel), this.ensemble.weights, request.area, this.manifest.intervals, calibrationGroup(request), oodCount, sigma, allowance);
  }

  /** The full answer from the request's valuation, or from its new-build and resale valuations mixed. */
  private assess(request: ApartmentRequest, valuationDate: string, before: string[], components: ReturnType<ResidentialModelSet['component']>[]): HomeValue {
    const { manifest } = this;
    // The request's own level (a flat without its market: the market's mix), reported and applied to the medians.
    const { reported: marketLevel, logLevel } = this.marketLevel(request, valuationDate);
    const { value: { estimate: rawEstimate, memberEstimates, modelSpread, low, high, widening }, mixture } = components.length === 1
      ? { value: components[0], mixture: null }
      : mixedValuation(newBuildProbability(manifest.marketMixture!, request), components[0], components[1], manifest.intervals.coverage, this.ensemble.weights);
    const estimate = roundTo(rawEstimate, 100);
    const interval = { low: roundTo(low, 100), high: roundTo(high, 100), coverage: manifest.intervals.coverage };

    // The medians are at the newest month's level (older versions: as listed); compared, and stated, at the valuation date's.
    const toValuationDate = manifest.market.levelledTo ? Math.exp(logLevel) : 1;
    const districtMarket = manifest.market.district[request.district];
    const districtMedian = districtMarket ? districtMarket.medianPricePerM2 * toValuationDate : null;
    const pricePerM2 = rawEstimate / request.area;
    const deviation = districtMedian ? pricePerM2 / districtMedian - 1 : 0;
    const mahallaMarket = request.mahallaId ? manifest.market.mahalla[request.mahallaId] : undefined;
    const mahallaMedian = mahallaMarket ? mahallaMarket.medianPricePerM2 * toValuationDate : null;
    const flags = [...before, ...estimateFlags(request, interval, deviation, modelSpread), ...dataAgeFlags(marketLevel.dataAgeMonths)];
    const districtClass = manifest.districtAccuracy[request.district] ?? 'low';
    const { fsd, confidence } = statedConfidence(estimate, interval, { dataAgeMonths: marketLevel.dataAgeMonths, widening, group: DISTRICT_NAMES[request.district] ?? request.district, groupClass: districtClass, modelSpread, flags });
    return {
      propertyType: 'apartment',
      estimate,
      currency: 'USD',
      pricePerM2: Math.round(pricePerM2),
      landPricePerSotka: null,
      interval,
      fsd,
      confidence,
      models: statedMembers(manifest.members, memberEstimates),
      anomaly: {
        districtMedianPricePerM2: districtMedian === null ? 0 : Math.round(districtMedian),
        deviationFromDistrictMedian: round3(deviation),
        mahallaMedianPricePerM2: mahallaMedian === null ? null : Math.round(mahallaMedian),
        deviationFromMahallaMedian: mahallaMedian === null ? null : round3(pricePerM2 / mahallaMedian - 1),
        districtMedianPricePerSotka: null,
        deviationFromDistrictMedianPerSotka: null,
        landShare: null,
        modelSpread: round3(modelSpread),
        flags,
      },
      marketLevel: Object.assign({}, marketLevel, { intervalWidening: widening }),
      marketMixture: mixture,
      modelVersion: manifest.version,
    };
  }

  summary(): Omit<ResidentialModelSummary, 'houses'> {
    const { manifest } = this;
    const { headline, leaveOneSourceOut } = manifest.evaluation;
    const ids = [...new Set([...Object.keys(headline.districts), ...Object.keys(leaveOneSourceOut.districts)])];
    return {
      ...versionSummary(manifest),
      // Each district's metrics from the view its accuracy class comes from.
      districts: ids.map((id) => {
        const { accuracyClass, ...metrics } = districtEvaluation(manifest.evaluation, id)!;
        return { district: DISTRICT_NAMES[id as DistrictId] ?? id, metrics, accuracyClass: manifest.districtAccuracy[id] ?? accuracyClass };
      }),
      market: manifest.market,
    };
  }

  /**
   * The `n` training flats of the request's district nearest to it (./comparables.ts), best first,
   * their prices brought to the request's valuation date (else today) by this version's market
   * index; a flat without its own point is placed at its mahalla's centre as the features place it.
   */
  comparables(request: ApartmentRequest, n = DEFAULT_COMPARABLES): ComparableListing[] {
    const valuationDate = request.valuationDate ?? this.clock().toISOString().slice(0, 10);
    return nearestComparables(request, valuationDate, this.manifest.marketIndex, n, { mahallaCentres: this.manifest.features.encoding.mahallaCentres });
  }

  marketIndex(district: DistrictId, market: Market | null): MarketIndexSeries {
    const index = this.manifest.marketIndex;
    const zone = zoneOf(district);
    const rows = new Map(index.periods.map((p) => [p.period, p.rows]));
    const points = index.zones[zone].map((point, i) => {
      const segment = market ? index.segments[market][i] : null;
      const log = point.logLevel + (segment?.logLevel ?? 0);
      const se = Math.hypot(point.se, segment?.se ?? 0);
      return { period: point.period, ...roundedBand(indexBand(log, se)), rows: rows.get(point.period) ?? 0 };
    });
    const offsets = index.scrapeOffsets;
    const ratio = (log: number, se: number) => {
      const band = indexBand(log, se);
      return { offset: round3(band.index - 1), low: round3(band.low - 1), high: round3(band.high - 1) };
    };
    return {
      district: DISTRICT_NAMES[district], zone, market, method: index.method, newestPeriod: index.newestPeriod, driftPerMonth: index.driftPerMonth, volatilityPerMonth: index.volatilityPerMonth, points,
      scrapeOffsets: offsets?.points.map((p) => ({ period: p.period, ...ratio(p.offset, p.se) })) ?? [],
      sourceOffsets: offsets?.sources.map((s) => ({ source: s.source, offset: round3(Math.exp(s.offset) - 1) })) ?? [],
      newestReading: offsets ? { ...roundedBand(indexBand(offsets.newestReading.logLevel, offsets.newestReading.se)), applied: offsets.applied, method: offsets.method } : null,
    };
  }
}

/**
 * The interval's calibration group: the segment (new, resale, unknown) within the district, and
 * apart for a flat described by its basic fields only (no renovation, building type, mahalla or point),
 * whose errors are larger. Conformal calibration conditional on which fields are missing, on
 * residuals of listings and of their masked training copies, is what keeps the 90% interval at 90%
 * for such requests (Zaffran et al., "Conformal prediction with missing values", ICML 2023).
 */
export function calibrationGroup(row: Pick<FeatureSource, 'district' | 'market' | 'renovation' | 'buildingType' | 'mahallaId' | 'lat'>): string {
  const basic = row.renovation === null && row.buildingType === null && row.mahallaId === null && row.lat === null;
  return `${row.market ?? 'unknown'}${basic ? BASIC_FIELDS_SUFFIX : ''}/${row.district}`;
}
/** Marks the calibration segment of a flat described by its basic fields only. */
export const BASIC_FIELDS_SUFFIX = ', basic fields';

function roundedBand(band: { index: number; low: number; high: number }): { index: number; low: number; high: number } {
  return { index: round3(band.index), low: round3(band.low), high: round3(band.high) };
}
