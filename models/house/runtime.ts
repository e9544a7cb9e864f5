/**
 * Serving of one house model version: the same ONNX ensemble runtime, market index and interval
 * arithmetic as flats, with the house's own features, calibration groups and anomaly data.
 * Imports the feature module and the ONNX runner, never a trainer.
 */
import { LoadedEnsemble, statedConfidence, consensusOf, dataAgeFlags, ensembleEstimate, round3, roundTo, statedMembers, versionSummary } from '../ensemble';
import { randomWalkAllowance } from '../intervals/serving';
import { ModelSet, statedMarketLevel, type Clock } from '../ensemble/model-set';
import { logLevelAt, monthsBeyondData } from '../residential/market-index';
import { estimateFlags } from '../residential/assessment';
import { DISTRICT_NAMES, type DistrictId } from '../vocabulary/codes';
import { encodeHouseFeatures, HOUSE_FEATURE_COUNT, HOUSE_FEATURE_NAMES, type HouseFeatureSource } from './features';
import { houseVersionDir, readHouseManifest, HOUSE_DIR, type HouseManifest } from './manifest';
import { InsufficientHouseDataError, type HouseModelSummary, type HouseRequest, type HouseRuntime, type HouseValue } from './valuation';

/**
 * The plot's share of the value is read off the ensemble as its elasticity to the plot area:
 * the log change of the estimate between the plot × and ÷ this factor, over the log change of the
 * plot. For price = land + building, that elasticity is exactly the land's share.
 */
export const LAND_STEP = 1.25;

/** The land share from the log estimates with the plot × and ÷ LAND_STEP, clamped to 0–1. */
export function landShareOf(logUp: number, logDown: number): number {
  return Math.min(1, Math.max(0, (logUp - logDown) / (2 * Math.log(LAND_STEP))));
}

/** Flags that describe a house unlike the training data: each widens the interval. */
const OUT_OF_DISTRIBUTION = new Set(['AREA_OUTSIDE_DISTRICT_RANGE', 'THIN_DISTRICT_DATA']);
/** Fewer training houses than this in the district: valued, with a flag (below minListings: refused). */
const THIN_DISTRICT_HOUSES = 40;

/**
 * The interval's calibration group: with or without the plot (a house valued without its plot
 * errs more), within the district where it has enough calibration rows.
 */
export function houseCalibrationGroup(row: Pick<HouseFeatureSource, 'district' | 'landAreaSotka'>): string {
  return `${row.landAreaSotka === null ? 'without plot' : 'with plot'}/${row.district}`;
}

export class HouseModelSet extends ModelSet<HouseManifest> implements HouseRuntime {
  static async load(version: string, root = HOUSE_DIR, clock: Clock = () => new Date()): Promise<HouseModelSet> {
    const manifest = readHouseManifest(version, root);
    return new HouseModelSet(manifest, await LoadedEnsemble.load(houseVersionDir(version, root), manifest, HOUSE_FEATURE_NAMES), clock);
  }

  async value(requests: readonly HouseRequest[]): Promise<(HouseValue | InsufficientHouseDataError)[]> {
    const today = this.clock().toISOString().slice(0, 10);
    const results: (HouseValue | InsufficientHouseDataError)[] = new Array(requests.length);
    const valued: number[] = [];
    requests.forEach((r, i) => {
      const listings = this.manifest.market[r.district]?.n ?? 0;
      if (listings < this.manifest.minListings) results[i] = new InsufficientHouseDataError(DISTRICT_NAMES[r.district], listings, this.manifest.minListings);
      else valued.push(i);
    });
    if (valued.length === 0) return results;
    // One session call: every house, then the plot × and ÷ LAND_STEP for those with a plot.
    const base: HouseFeatureSource[] = valued.map((i) => ({ ...requests[i], period: (requests[i].valuationDate ?? today).slice(0, 7) }));
    const withPlot = base.flatMap((row, k) => (row.landAreaSotka === null ? [] : [k]));
    const rows = [
      ...base,
      ...withPlot.map((k) => ({ ...base[k], landAreaSotka: base[k].landAreaSotka! * LAND_STEP })),
      ...withPlot.map((k) => ({ ...base[k], landAreaSotka: base[k].landAreaSotka! / LAND_STEP })),
    ];
    const features = encodeHouseFeatures(rows, this.manifest.features.encoding, new Float32Array(rows.length * HOUSE_FEATURE_COUNT));
    const outputs = await this.ensemble.run(features, rows.length);
    const consensus = (row: number) => consensusOf(outputs[row].memberLogs, this.ensemble.weights);
    const landShare = new Map(withPlot.map((k, m) => [k, landShareOf(consensus(base.length + m), consensus(base.length + withPlot.length + m))]));
    valued.forEach((i, k) => {
      results[i] = this.assess(requests[i], requests[i].valuationDate ?? today, outputs[k].memberLogs, outputs[k].sigma, landShare.get(k) ?? null);
    });
    return results;
  }

  private assess(request: HouseRequest, valuationDate: string, memberLogPpm2: number[], sigma: number, landShare: number | null): HouseValue {
    const { manifest } = this;
    const index = manifest.marketIndex;
    const period = valuationDate.slice(0, 7);
    const logLevel = logLevelAt(index, request.district, null, period);
    const dataAgeMonths = monthsBeyondData(index, period);
    const allowance = randomWalkAllowance(index, dataAgeMonths);
    const district = manifest.market[request.district];
    const before: string[] = [];
    if (district.n < THIN_DISTRICT_HOUSES) before.push('THIN_DISTRICT_DATA');
    if (request.area < district.areaP01 || request.area > district.areaP99) before.push('AREA_OUTSIDE_DISTRICT_RANGE');
    if (request.landAreaSotka === null) before.push('PLOT_NOT_GIVEN');
    const oodCount = before.filter((f) => OUT_OF_DISTRIBUTION.has(f)).length;
    const { estimate: rawEstimate, memberEstimates, modelSpread, low, high, widening } = ensembleEstimate(
      memberLogPpm2.map((v) => v + logLevel), this.ensemble.weights, request.area, manifest.intervals, houseCalibrationGroup(request), oodCount, sigma, allowance,
    );
    const estimate = roundTo(rawEstimate, 100);
    const interval = { low: roundTo(low, 100), high: roundTo(high, 100), coverage: manifest.intervals.coverage };
    // The medians are at the newest month's level (older versions: as listed); compared, and stated, at the valuation date's.
    const toValuationDate = manifest.marketLevelledTo ? Math.exp(logLevel) : 1;
    const medianPricePerM2 = district.medianPricePerM2 * toValuationDate;
    const pricePerM2 = rawEstimate / request.area;
    const deviation = pricePerM2 / medianPricePerM2 - 1;
    const flags = [...before, ...estimateFlags(request, interval, deviation, modelSpread), ...dataAgeFlags(dataAgeMonths)];
    const districtClass = manifest.districtAccuracy[request.district] ?? 'low';
    return {
      propertyType: 'house',
      estimate,
      currency: 'USD',
      pricePerM2: Math.round(pricePerM2),
      landPricePerSotka: landShare === null || request.landAreaSotka === null ? null : roundTo((rawEstimate * landShare) / request.landAreaSotka, 10),
      interval,
      ...statedConfidence(estimate, interval, { dataAgeMonths, widening, group: DISTRICT_NAMES[request.district] ?? request.district, groupClass: districtClass, modelSpread, flags }),
      models: statedMembers(manifest.members, memberEstimates),
      anomaly: {
        districtMedianPricePerM2: Math.round(medianPricePerM2),
        deviationFromDistrictMedian: round3(deviation),
        mahallaMedianPricePerM2: null,
        deviationFromMahallaMedian: null,
        districtMedianPricePerSotka: district.medianPricePerSotka === null ? null : roundTo(district.medianPricePerSotka * toValuationDate, 10),
        deviationFromDistrictMedianPerSotka: district.medianPricePerSotka === null || request.landAreaSotka === null ? null : round3(rawEstimate / request.landAreaSotka / (district.medianPricePerSotka * toValuationDate) - 1),
        landShare: landShare === null ? null : round3(landShare),
        modelSpread: round3(modelSpread),
        flags,
      },
      marketLevel: { ...statedMarketLevel(valuationDate, index.newestPeriod, dataAgeMonths, logLevel), intervalWidening: widening },
      // The house model does not split houses by market.
      marketMixture: null,
      modelVersion: manifest.version,
    };
  }

  summary(): HouseModelSummary {
    const { manifest } = this;
    const { headline, leaveOneSourceOut } = manifest.evaluation;
    const common = versionSummary(manifest);
    return {
      version: common.version,
      trainedAt: common.trainedAt,
      dataSnapshot: common.dataSnapshot,
      evaluation: headline.protocol,
      metrics: headline.overall,
      leaveOneSourceOut: leaveOneSourceOut.overall,
      districts: Object.entries(manifest.market).map(([id, m]) => {
        const { accuracyClass: _, ...metrics } = leaveOneSourceOut.districts[id] ?? { accuracyClass: null };
        return { district: DISTRICT_NAMES[id as DistrictId] ?? id, listings: m.n, metrics: 'n' in metrics ? metrics : null, accuracyClass: manifest.districtAccuracy[id] ?? 'low' };
      }),
      members: manifest.members.map(({ name, algorithm, weight }) => ({ name, algorithm, weight })),
      intervalCoverage: manifest.intervals.coverage,
      minListings: manifest.minListings,
    };
  }
}
