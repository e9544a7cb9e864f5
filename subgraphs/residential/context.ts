/**
 * The residential subgraph's per-request context: the model runtime, and what the model in
 * service knows of the places, read from the runtime once per request (a hot swap between two
 * requests is seen by the next one; one request never mixes two versions). Entity references
 * (`_entities`) go through DataLoaders made fresh for each request.
 */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import DataLoader from 'dataloader';
import type { ResidentialRuntime } from '../../models/residential';
import type { ObservationBook } from '../common/observation-book';
import { recordCallerOf, ValuationRecorder, type RecordCaller } from '../common/valuation-recorder';
import { MemoryRecordStore } from '../common/valuation-records';
import type { CollectedWeeklyIndex } from '../../platform/collect/collected-exports';
import { districtRef, mahallaRef, ModelPlaces, type DistrictRef, type MahallaRef } from './places';

export interface ResidentialLoaders {
  /** By the District key (English name); null for a name that is no district. */
  districtByName: DataLoader<string, DistrictRef | null>;
  /** By Mahalla id; null for an unknown id. */
  mahallaById: DataLoader<string, MahallaRef | null>;
}

export interface ResidentialContext {
  runtime: ResidentialRuntime;
  /** The caller's organisation (named by the gateway or a peer); null for none. */
  organisation: string | null;
  /** Observed home prices by organisation: they adjust that organisation's valuations. */
  observations: ObservationBook;
  /** Every home valuation given, kept for its organisation (issue 19). */
  records: ValuationRecorder;
  /** Who the valuations are for, as the records keep them. */
  caller: RecordCaller;
  loaders: ResidentialLoaders;
  /** The model version in service as this request sees it (read on first use). */
  places(): ModelPlaces;
  /** The collector's newest weekly index (platform/collect/collected-exports.ts); null without a collect folder. */
  collected: CollectedWeeklyIndex | null;
}

export function createResidentialContext(
  runtime: ResidentialRuntime,
  observations: ObservationBook,
  caller: SubgraphCaller,
  records: ValuationRecorder = new ValuationRecorder('home', new MemoryRecordStore()),
  collected: CollectedWeeklyIndex | null = null,
): ResidentialContext {
  let places: ModelPlaces | undefined;
  const recordCaller = recordCallerOf(caller);
  return {
    runtime,
    organisation: recordCaller.organisation,
    observations,
    records,
    caller: recordCaller,
    loaders: {
      districtByName: new DataLoader(async (names) => names.map(districtRef)),
      mahallaById: new DataLoader(async (ids) => ids.map(mahallaRef)),
    },
    places: () => (places ??= new ModelPlaces(runtime.summary())),
    collected,
  };
}

