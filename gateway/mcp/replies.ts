/**
 * GraphQL data → the tools' structured replies. Where a REST route exists the reply is that
 * route's body, field for field (test/mcp compares them), made by the same function of
 * gateway/operations/ (the valuations, the location index and a valuation record come from there
 * whole), so an agent and a bank's system read one contract, with `warnings` added where the route
 * has none; the other replies are the GraphQL data with snake_case keys.
 */
import type { BacktestComparison, BacktestMeasures } from '../../models/observations';
import { restResultItem } from '../../schema/batch-contract';
import { snakeCaseKeys } from '../../schema/snake-case';
import { toAcceptedBacktestResponse, type AcceptedBacktest, type BacktestData } from '../operations/backtest';
import { toAcceptedJobResponse, toJobResponse, type AcceptedJob, type BatchJobData, type BatchResultsData } from '../operations/batch';
import { toMatchedResponse, type DistrictData, type GeocodeCandidatesData } from '../operations/location';
import type { ResidentialModelData, VehicleModelData } from '../operations/model-accuracy';
import type { LiveAccuracyData } from '../operations/observations';
import type { toRecordRest } from '../operations/valuations';

export function geocodeReply({ geocode: g }: GeocodeCandidatesData, warnings: readonly string[]) {
  return {
    address: g.address,
    lat: g.lat,
    lon: g.lon,
    precision: g.precision,
    confidence: g.confidence,
    matched: toMatchedResponse(g.matched),
    candidates: g.candidates.map((c) => ({ name: c.name, precision: c.precision, district: c.district.name, lat: c.lat, lon: c.lon, confidence: c.confidence })),
    warnings,
  };
}
export type GeocodeReply = ReturnType<typeof geocodeReply>;

export function districtsReply(districts: readonly DistrictData[], withMahallas: boolean, warnings: readonly string[]) {
  return {
    districts: districts.map((d) => ({
      name: d.name,
      id: d.id,
      names: { english: d.names.english, uzbek_latin: d.names.uzbekLatin, russian: d.names.russian },
      centroid: d.centroid,
      mahalla_count: d.mahallas.length,
      ...(withMahallas && { mahallas: d.mahallas.map((m) => ({ id: m.id, name: m.name!, cyrillic: m.cyrillic!, centre: m.centre ?? null })) }),
    })),
    warnings,
  };
}
export type DistrictsReply = ReturnType<typeof districtsReply>;

/** POST /api/batch's 202 body: the contract says queued (get_batch_status has the live status). */
export function batchAcceptedReply(job: AcceptedJob, warnings: readonly string[]) {
  return { ...toAcceptedJobResponse(job), warnings };
}
export type BatchAcceptedReply = ReturnType<typeof batchAcceptedReply>;

/** GET /api/batch/{id}'s body, and a page of GET /api/batch/{id}/results' lines when asked for. */
export function batchStatusReply(job: BatchJobData, results: BatchResultsData | null, warnings: readonly string[]) {
  return {
    ...toJobResponse(job),
    ...(results && {
      results: { items: results.items.map(restResultItem), next_offset: results.nextOffset },
    }),
    warnings,
  };
}
export type BatchStatusReply = ReturnType<typeof batchStatusReply>;

export function modelAccuracyReply(
  models: { residential?: ResidentialModelData['residentialModel']; vehicle?: VehicleModelData['vehicleModel'] | null },
  live: { home?: LiveAccuracyData; vehicle?: LiveAccuracyData },
  warnings: readonly string[],
) {
  return {
    ...(models.residential !== undefined && { residential: snakeCaseKeys(models.residential) }),
    ...(models.vehicle !== undefined && { vehicle: models.vehicle && snakeCaseKeys(models.vehicle) }),
    live_accuracy: snakeCaseKeys(live),
    warnings,
  };
}
export type ModelAccuracyReply = ReturnType<typeof modelAccuracyReply>;

/** get_valuation's reply: the record as GET /api/valuations/{id} gives it, with the tool's warnings. */
export type ValuationRecordReply = ReturnType<typeof toRecordRest> & { warnings: string[] };

/** POST /api/backtest's 202 body. */
export function backtestAcceptedReply(accepted: AcceptedBacktest, warnings: readonly string[]) {
  return { ...toAcceptedBacktestResponse(accepted), warnings };
}
export type BacktestAcceptedReply = ReturnType<typeof backtestAcceptedReply>;

/** Shares to four places: the reply is read by a model, and more digits say nothing. */
const share = (value: number) => (Number.isFinite(value) ? Number(value.toFixed(4)) : null);

function backtestMeasures(m: BacktestMeasures) {
  return {
    n: m.n,
    median_ape: share(m.medianApe),
    within_10: share(m.within10),
    median_bias: share(m.bias.median),
    bias_ci95: m.bias.ci95 && { low: share(m.bias.ci95.low), high: share(m.bias.ci95.high) },
    coverage: share(m.coverage.share),
    median_width: share(m.medianWidth),
  };
}

export type BacktestMeasuresReply = ReturnType<typeof backtestMeasures>;

const comparison = (c: BacktestComparison) => ({ model_alone: backtestMeasures(c.modelAlone), reanchored: backtestMeasures(c.reanchored) });

/**
 * get_backtest's reply: the job's progress and, once completed, the report summarised (overall and
 * by month, model alone beside re-anchored) with where its files are; the by-group tables and the
 * rows stay in GET /api/backtest/{id}, which an agent need not read.
 */
export function backtestReply(backtest: BacktestData, warnings: readonly string[]) {
  const { job, report } = backtest;
  const path = `/api/backtest/${encodeURIComponent(backtest.id)}`;
  return {
    id: backtest.id,
    kind: backtest.kind.toLowerCase(),
    status: job.status,
    total: job.total,
    processed: job.processed,
    refused: job.failed,
    error: job.error,
    report: report
      ? {
          observations: report.observations,
          from: report.from,
          to: report.to,
          model_versions: report.modelVersions ?? [],
          overall: comparison(report.overall),
          by_month: report.byMonth.map((m) => ({ month: m.month, ...comparison(m) })),
          files: { json: path, csv: `${path}?format=csv`, summary_csv: `${path}?format=summary-csv`, pdf: `${path}?format=pdf` },
        }
      : null,
    warnings,
  };
}
export type BacktestReply = ReturnType<typeof backtestReply>;

/** retract_observations: what was retracted, and the ids no observation of the organisation has. */
export interface RetractedObservationsReply {
  retracted: number;
  retracted_ids: string[];
  not_found: string[];
  warnings?: string[];
}
