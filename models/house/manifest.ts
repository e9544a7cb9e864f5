/**
 * The house artifact contract: `models/artifacts/house/<version>/manifest.json` plus `ensemble.onnx`
 * (every member and the interval-scale model as columns of one output) and a `CURRENT` file, in the
 * same version store and hot swap as the flat model.
 */
import type { ObservationSourceReport } from '../ingest/observation-listings';
import type { CollectedSourceReport } from '../ingest/collected-homes';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import * as versions from '../ensemble/versions';
import type { IntervalCalibration } from '../intervals/serving';
import type { AccuracyClass, ConfidenceWidths } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { DistrictMarket } from '../residential/market';
import type { MarketIndex } from '../residential/market-index';
import type { MemberManifest, EvaluationReport } from '../residential/manifest';
import type { TypicalHouse } from './attribution';
import type { HouseEncoding } from './features';

export const HOUSE_DIR = join(ARTIFACTS_DIR, 'house');
export const HOUSE_ONNX_FILE = 'ensemble.onnx';
export const HOUSE_SCALE_COLUMN = 'interval-scale';

export const houseVersionDir = (version: string, root = HOUSE_DIR): string => versions.versionDir(version, root);
export const currentHouseVersion = (root = HOUSE_DIR): string | null => versions.currentVersion(root);
export const setCurrentHouseVersion = (version: string, root = HOUSE_DIR): void => versions.setCurrentVersion(version, root);

/** The district figures the anomaly data quotes: the flats' reference figures over the training houses, plus the plot. */
export interface HouseDistrictMarket extends DistrictMarket {
  /** Median asking price per sotka of plot (houses with a known plot); null with fewer than 5 such. */
  medianPricePerSotka: number | null;
  /** The district's typical house, what a house's "what drives the estimate" compares it with; absent before 2026.11.7. */
  typical?: TypicalHouse;
}

export interface HouseManifest {
  kind: 'house';
  version: string;
  trainedAt: string;
  generatedBy: string;
  dataSnapshot: { id: string; files: { path: string; sha256: string; rows: number }[] };
  training: {
    rows: number; bySource: Record<string, number>; byDistrict: Record<string, number>; seconds: number; maskedCopyWeight: number;
    /** The organisation's observation export trained on as a source of its own (absent: none). */
    observations?: ObservationSourceReport;
    /** The collected homes export trained on as sources of their own (absent: none). */
    collected?: CollectedSourceReport;
  };
  target: 'log_price_per_m2';
  features: { names: string[]; encoding: HouseEncoding };
  onnx: { file: string; input: string; output: string; columns: string[] };
  members: MemberManifest[];
  intervals: IntervalCalibration & { method: string };
  /** The flats' market index the targets were levelled with (refitted on the flat listings of this training run). */
  marketIndex: MarketIndex;
  market: Record<string, HouseDistrictMarket>;
  /** 'YYYY-MM': the month whose price level `market`'s medians are at, by marketIndex (from house 2026.11.4; absent: prices as listed). */
  marketLevelledTo?: string;
  /** A district with fewer training houses than this is refused (INSUFFICIENT_MARKET_DATA). */
  minListings: number;
  evaluation: {
    /** Forward in time and across scrapes: uybor's July 2026 houses, valued by a model fitted on everything before. */
    headline: EvaluationReport;
    leaveOneSourceOut: EvaluationReport;
    /** The same views with the plot left out (as the forward test's houses come). */
    withoutPlot: { name: string; overall: AccuracyMetrics }[];
    /** What the plot is worth in the valuations: the land share's distribution over the training houses. */
    landShare: { median: number; p10: number; p90: number; method: string };
    featureImportance: { feature: string; importance: number }[];
  };
  districtAccuracy: Record<string, AccuracyClass>;
  /** The confidence rule's width ends and why. */
  confidence: { widths: ConfidenceWidths; protocol: string };
}

export function readHouseManifest(version: string, root = HOUSE_DIR): HouseManifest {
  return versions.readManifest<HouseManifest>(version, root);
}
