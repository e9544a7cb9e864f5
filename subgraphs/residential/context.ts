/**
 * The residential subgraph's per-request context: the model runtime, and what the model in
 * service knows of the places, read from the runtime once per request (a hot swap between two
 * requests is seen by the next one; one request never mixes two versions). Entity references
 * (`_entities`) go through DataLoaders made fresh for each request.
 */
import type { IncomingHttpHeaders } from 'node:http';
import DataLoader from 'dataloader';
import type { ResidentialRuntime } from '../../models/residential';
import type { ObservationBook } from '../common/observation-book';
import { districtRef, mahallaRef, ModelPlaces, type DistrictRef, type MahallaRef } from './places';

export interface ResidentialLoaders {
  /** By the District key (English name); null for a name that is no district. */
  districtByName: DataLoader<string, DistrictRef | null>;
  /** By Mahalla id; null for an unknown id. */
  mahallaById: DataLoader<string, MahallaRef | null>;
}

export interface ResidentialContext {
  runtime: ResidentialRuntime;
  /** The caller's organisation (x-organisation, set by the gateway or a peer); null for none. */
  organisation: string | null;
  /** Observed home prices by organisation: they adjust that organisation's valuations. */
  observations: ObservationBook;
  loaders: ResidentialLoaders;
  /** The model version in service as this request sees it (read on first use). */
  places(): ModelPlaces;
}

export function createResidentialContext(runtime: ResidentialRuntime, observations: ObservationBook, headers: IncomingHttpHeaders): ResidentialContext {
  let places: ModelPlaces | undefined;
  const organisation = headers['x-organisation'];
  return {
    runtime,
    organisation: typeof organisation === 'string' && organisation !== '' ? organisation : null,
    observations,
    loaders: {
      districtByName: new DataLoader(async (names) => names.map(districtRef)),
      mahallaById: new DataLoader(async (ids) => ids.map(mahallaRef)),
    },
    places: () => (places ??= new ModelPlaces(runtime.summary())),
  };
}
