/**
 * The batch chunk processor of the location subgraph: a chunk of `{ address, home? }` items is
 * valued at once. Every address is geocoded with the subgraph's own geocoder, every placed point
 * scored with one scoreMany call, and the items with home parameters valued with ONE
 * `homeValuations` GraphQL call to the residential subgraph (subgraphs talk to each other only in
 * GraphQL), with the district and mahalla of the geocode. An item that cannot be placed, scored
 * or valued gets its own error; only a failure of the whole chunk (the residential subgraph
 * unreachable) throws, so that the engine retries the chunk.
 */
import { parseYesNo } from '../../../models/vocabulary';
import { ApiError, isErrorCode, type ErrorCode } from '../../../schema/errors';
import { checkInputFields } from '../../../schema/field-table';
import { HOME_FIELDS } from '../../../schema/home-contract';
import { MAX_ADDRESS_LENGTH } from '../../../schema/location-contract';
import { INTERNAL_TOKEN_HEADER } from '../../common/serve';
import { toApiError } from '../errors';
import { LRUCache } from 'lru-cache';
import type { Point } from '../places';
import { scorePoints, type PointScore } from '../scoring';
import type { GeocodeResult } from '../../../models/location/geocode';
import type { LocationServices } from '../services';
import type { ChunkContext, ChunkProcessor, ItemResult } from './engine';

/** One item of a batch, as submitted. */
export interface BatchItem {
  address: string;
  /** HomeValuationInput fields (GraphQL names) without district and mahalla. */
  home?: Record<string, unknown> | null;
}

/** A home valuation input as the residential subgraph takes it. */
export type HomeValuationInput = Record<string, unknown> & { district: string; mahalla?: string };

/** One answer of `homeValuations`: a valuation or an error, in input order. */
export interface HomeValuationAnswer {
  valuation: Record<string, unknown> | null;
  error: { code: string; message: string; field?: string | null } | null;
}

/** Values homes in one call; rejects when the call as a whole fails (the chunk is then retried). */
export type HomeValuer = (inputs: readonly HomeValuationInput[], context: ChunkContext) => Promise<readonly HomeValuationAnswer[]>;

/** What the batch result carries of a valuation. */
const HOME_VALUATION_SELECTION = 'propertyType estimate currency pricePerM2 landPricePerSotka interval { low high coverage } confidence { level score } marketLevel { valuationDate newestDataPeriod dataAgeMonths indexRatio intervalWidening } modelVersion valuedAt warnings';
export const HOME_VALUATIONS_QUERY = `query BatchHomeValuations($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { ${HOME_VALUATION_SELECTION} } error { code message field } } }`;

/** Home fields a batch item may carry: district and mahalla come from the geocoded address. */
const ITEM_HOME_FIELDS = HOME_FIELDS.filter((f) => f.graphql !== 'district' && f.graphql !== 'mahalla');
const ITEM_HOME_NAMES = new Set(ITEM_HOME_FIELDS.map((f) => f.graphql));
const YES_NO_FIELDS = ITEM_HOME_FIELDS.filter((f) => f.kind === 'yesno');

export interface LocationChunkProcessorOptions {
  services: LocationServices;
  homeValuations: HomeValuer;
  /** Points whose location index the processor keeps between chunks. @default 8192 */
  scoreCacheSize?: number;
}

/** What a batch result carries of a geocode. Frozen: results with the same answer share it. */
type GeocodeRecord = Readonly<{ lat: number; lon: number; precision: string; district: string; mahalla: string | null }>;

/** A geocoder answer as results carry it, with the key of its point. */
interface PlacedAnswer {
  geocode: GeocodeRecord;
  pointKey: string;
}

interface Placed {
  position: number;
  item: BatchItem;
  answer: PlacedAnswer;
}

/** What a batch result carries of a point's location index. Frozen: results of one point share it. */
type LocationIndexRecord = Readonly<{
  composite: number | null;
  complete: boolean;
  renormalised: boolean;
  district: string;
  subindexes: Readonly<Record<string, number | null>>;
}>;

/**
 * Points whose scores a processor keeps. The geocoder answers with its gazetteer's points (the
 * centre of a street, quarter, mahalla or district: about 1,100), so a job's addresses share a
 * few hundred points; the bound keeps a worker's memory flat whatever it is given.
 */
const SCORE_CACHE_SIZE = 8_192;

/** The point, exactly: a score is a function of its coordinates alone. */
const pointKey = ({ lat, lon }: Point): string => `${lat},${lon}`;

export function createLocationChunkProcessor(options: LocationChunkProcessorOptions): ChunkProcessor {
  const { services } = options;
  /** The record of a score, or the ApiError saying why the point has none. */
  const locationIndexOf = (score: PointScore): LocationIndexRecord | ApiError => {
    if (score instanceof ApiError) return score;
    const subindexes = Object.freeze(Object.fromEntries(Object.entries(score.subindexes).map(([id, s]) => [id, s.score])));
    const { score: composite, complete, renormalised } = score.composite;
    return Object.freeze({ composite, complete, renormalised, district: services.places.district(score.district).name, subindexes });
  };
  const pointScores = new LRUCache<string, LocationIndexRecord | ApiError>({ max: options.scoreCacheSize ?? SCORE_CACHE_SIZE });
  // The geocoder keeps its answers (frozen, one object per reading of an address); what a result
  // carries of each is worked out once and dies with the answer.
  const placedAnswers = new WeakMap<GeocodeResult, PlacedAnswer>();
  const placedAnswer = (answer: GeocodeResult): PlacedAnswer => {
    let placed = placedAnswers.get(answer);
    if (placed === undefined) {
      const mahalla = answer.matched.mahalla === undefined ? null : services.places.mahallaNamed(answer.matched.mahalla, answer.matched.district);
      const geocode: GeocodeRecord = Object.freeze({
        lat: answer.lat,
        lon: answer.lon,
        precision: answer.precision,
        district: services.places.district(answer.matched.district).name,
        mahalla: mahalla?.name ?? null,
      });
      placed = { geocode, pointKey: pointKey(geocode) };
      placedAnswers.set(answer, placed);
    }
    return placed;
  };
  return async (items, context) => {
    const results: ItemResult[] = new Array(items.length);
    const fail = (position: number, error: unknown) => {
      results[position] = { index: context.firstIndex + position, ok: false, error: itemError(error) };
    };

    // 1. Geocode every address (and check the home fields, which need no geocode).
    const placed: Placed[] = [];
    items.forEach((raw, position) => {
      try {
        const item = checkedItem(raw);
        placed.push({ position, item, answer: placedAnswer(services.geocode(item.address)) });
      } catch (error) {
        fail(position, error);
      }
    });

    // 2. Score the placed points: those not scored before, all at once.
    const keys = placed.map((p) => p.answer.pointKey);
    const known = keys.map((key) => pointScores.get(key));
    const unscored = new Map<string, Point>();
    known.forEach((record, i) => {
      if (record === undefined && !unscored.has(keys[i])) unscored.set(keys[i], placed[i].answer.geocode);
    });
    const fresh = new Map<string, LocationIndexRecord | ApiError>();
    if (unscored.size > 0) {
      const scores = scorePoints(services.index, [...unscored.values()]);
      [...unscored.keys()].forEach((key, i) => {
        const record = locationIndexOf(scores[i]);
        pointScores.set(key, record);
        fresh.set(key, record);
      });
    }
    const scored: { placed: Placed; locationIndex: LocationIndexRecord }[] = [];
    placed.forEach((p, i) => {
      const locationIndex = known[i] ?? fresh.get(keys[i])!;
      if (locationIndex instanceof ApiError) return fail(p.position, locationIndex);
      scored.push({ placed: p, locationIndex });
    });

    // 3. Value the homes in one call.
    const withHome = scored.filter((s) => s.placed.item.home);
    const valuations = withHome.length
      ? await options.homeValuations(
          withHome.map(({ placed: { item, answer: { geocode } } }) => ({ ...pointOf(geocode, item.home!), ...item.home, district: geocode.district, ...(geocode.mahalla !== null && { mahalla: geocode.mahalla }) })),
          context,
        )
      : [];
    if (valuations.length !== withHome.length) throw new Error(`homeValuations answered ${valuations.length} results for ${withHome.length} homes`);
    const homeOf = new Map(withHome.map((s, i) => [s, valuations[i]]));

    for (const s of scored) {
      const { position, item, answer: { geocode } } = s.placed;
      const home = homeOf.get(s);
      if (home && !home.valuation) {
        fail(position, new ApiError(isErrorCode(home.error?.code) ? home.error.code : 'INTERNAL', home.error?.message, home.error?.field ? `home.${home.error.field}` : 'home'));
        continue;
      }
      results[position] = {
        index: context.firstIndex + position,
        ok: true,
        result: { address: item.address, geocode, locationIndex: s.locationIndex, ...(home && { home: home.valuation }) },
      };
    }
    return results;
  };
}

/** The item's address and home fields, checked so that one bad item cannot fail the chunk's GraphQL call. */
function checkedItem(raw: unknown): BatchItem {
  const item = (raw ?? {}) as Partial<BatchItem>;
  if (typeof item.address !== 'string' || item.address.trim() === '') throw new ApiError('MISSING_PARAMETER', 'address is required', 'address');
  if (item.address.length > MAX_ADDRESS_LENGTH) throw new ApiError('INVALID_PARAMETER', `address must be at most ${MAX_ADDRESS_LENGTH} characters`, 'address');
  if (item.home === undefined || item.home === null) return { address: item.address };
  if (typeof item.home !== 'object' || Array.isArray(item.home)) throw new ApiError('INVALID_PARAMETER', 'home must be an object of HomeValuationInput fields', 'home');
  const home: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item.home)) {
    if (name === 'district' || name === 'mahalla') throw new ApiError('INVALID_PARAMETER', `home.${name} comes from the geocoded address: leave it out`, `home.${name}`);
    if (!ITEM_HOME_NAMES.has(name)) throw new ApiError('INVALID_PARAMETER', `home.${name} is not a HomeValuationInput field (${[...ITEM_HOME_NAMES].join(', ')})`, `home.${name}`);
    home[name] = value;
  }
  // GraphQL's yes/no fields (furniture, gas, water, sewerage) are Booleans; the batch takes the REST spellings too.
  for (const { graphql: name } of YES_NO_FIELDS) {
    if (typeof home[name] !== 'string') continue;
    const parsed = parseYesNo(home[name] as string);
    if (parsed === null) throw new ApiError('INVALID_PARAMETER', `home.${name} must be yes/no (ha/yo'q, да/нет, true/false)`, `home.${name}`);
    home[name] = parsed;
  }
  try {
    checkInputFields(ITEM_HOME_FIELDS, home);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.code, `home: ${error.message}`, `home.${error.field ?? ''}`);
    throw error;
  }
  return { address: item.address, home };
}

function itemError(error: unknown): { code: ErrorCode; message: string } {
  const api = toApiError(error);
  if (api instanceof ApiError) return { code: api.code, message: api.message };
  return { code: 'INTERNAL', message: 'Internal error' };
}

export interface GraphQLHomeValuerOptions {
  /** The residential subgraph's /graphql (with the internal token), or the gateway's. */
  url: string;
  internalToken?: string;
  /** @default 60_000 */
  timeoutMs?: number;
}

/**
 * The geocoded point for the valuation when it is finer than a mahalla (a street or a quarter) and
 * the item gives no point of its own: it places the flat better than the mahalla's centre would.
 */
function pointOf(geocode: GeocodeRecord, home: Record<string, unknown>): { lat?: number; lon?: number } {
  if (home.lat !== undefined || home.lon !== undefined || !FINER_THAN_MAHALLA.has(geocode.precision)) return {};
  return { lat: geocode.lat, lon: geocode.lon };
}
const FINER_THAN_MAHALLA = new Set(['street', 'quarter']);

/** A HomeValuer posting one `homeValuations` operation per call, as the job's organisation. */
export function graphqlHomeValuer(options: GraphQLHomeValuerOptions): HomeValuer {
  return async (inputs, context) => {
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-organisation': context.organisation,
        'x-request-id': `batch-${context.jobId}-${context.chunkIndex}`,
        ...(options.internalToken && { [INTERNAL_TOKEN_HEADER]: options.internalToken }),
      },
      body: JSON.stringify({ query: HOME_VALUATIONS_QUERY, variables: { inputs } }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    if (!response.ok) throw new Error(`homeValuations answered HTTP ${response.status}`);
    const body = (await response.json()) as { data?: { homeValuations?: HomeValuationAnswer[] } | null; errors?: { message: string }[] };
    const answers = body.data?.homeValuations;
    if (!answers) throw new Error(`homeValuations failed: ${body.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
    return answers;
  };
}
