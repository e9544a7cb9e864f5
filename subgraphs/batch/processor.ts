/**
 * The batch chunk processor: a chunk of `{ address, home? }` items is valued at once, through the
 * graph. Every address is placed with ONE `geocodes` call to the location subgraph, the points not
 * scored before with ONE `locationIndexes` call, and the items with home parameters valued with ONE
 * `homeValuations` call to the residential subgraph, with the district and mahalla of the geocode.
 * An item that cannot be placed, scored or valued gets its own error; only a failure of a call as a
 * whole (a subgraph unreachable) throws, so that the engine retries the chunk.
 */
import { LRUCache } from 'lru-cache';
import { parseYesNo } from '../../models/vocabulary';
import { ApiError, isErrorCode, type ErrorCode } from '../../schema/errors';
import { checkInputFields, enumValue, NOT_RECOGNISED, YES_NO_ACCEPTED } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import { EXCHANGE_RATE_SELECTION, MARKET_ADJUSTMENT_SELECTION, MARKET_MIXTURE_SELECTION } from '../../schema/home-rest';
import { MAX_ADDRESS_LENGTH } from '../../schema/location-contract';
import type { GraphCaller, GraphClient } from '../../platform/graph-client';
import type { ChunkProcessor, ItemResult } from '../../platform/batch-engine';

/** One item of a batch, as submitted. */
export interface BatchItem {
  address: string;
  /** HomeValuationInput fields (GraphQL names) without district and mahalla. */
  home?: Record<string, unknown> | null;
}

/** One answer of `homeValuations`: a valuation or an error, in input order. */
export interface HomeValuationAnswer {
  valuation: Record<string, unknown> | null;
  error: { code: string; message: string; field?: string | null } | null;
}

/** What the batch result carries of a valuation. */
const HOME_VALUATION_SELECTION = `propertyType estimate currency ${EXCHANGE_RATE_SELECTION} pricePerM2 landPricePerSotka interval { low high coverage } fsd confidence { level score drivers } anomaly { flags deviationFromDistrictMedian } marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening } ${MARKET_ADJUSTMENT_SELECTION} ${MARKET_MIXTURE_SELECTION} valuationId modelVersion valuedAt warnings`;
export const HOME_VALUATIONS_QUERY = `query BatchHomeValuations($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { ${HOME_VALUATION_SELECTION} } error { code message field } } }`;
export const GEOCODES_QUERY = 'query BatchGeocodes($addresses: [String!]!) { geocodes(addresses: $addresses) { result { lat lon precision matched { district { name } mahalla { name } } } error { code message } } }';
export const LOCATION_INDEXES_QUERY = 'query BatchLocationIndexes($points: [PointInput!]!) { locationIndexes(points: $points) { result { district { name } composite { score complete renormalised } subindexes { id score } } error { code message field } } }';

interface GeocodesAnswer {
  geocodes: { result: { lat: number; lon: number; precision: string; matched: { district: { name: string }; mahalla: { name: string } | null } } | null; error: { code: string; message: string } | null }[];
}
interface LocationIndexesAnswer {
  locationIndexes: {
    result: { district: { name: string }; composite: { score: number | null; complete: boolean; renormalised: boolean }; subindexes: { id: string; score: number | null }[] } | null;
    error: { code: string; message: string; field: string | null } | null;
  }[];
}

/** Home fields a batch item may carry: district and mahalla come from the geocoded address. */
const ITEM_HOME_FIELDS = HOME_FIELDS.filter((f) => f.graphql !== 'district' && f.graphql !== 'mahalla');
const ITEM_HOME_NAMES = new Set(ITEM_HOME_FIELDS.map((f) => f.graphql));
const YES_NO_FIELDS = ITEM_HOME_FIELDS.filter((f) => f.kind === 'yesno');
const ENUM_FIELDS = ITEM_HOME_FIELDS.filter((f) => f.kind === 'enum');

export interface ChunkProcessorOptions {
  /** The location subgraph (`geocodes`, `locationIndexes`). */
  location: GraphClient;
  /** The residential subgraph (`homeValuations`). */
  residential: GraphClient;
  /** Points whose location index the processor keeps between chunks. @default 8192 */
  scoreCacheSize?: number;
}

/** What a batch result carries of a geocode. */
type GeocodeRecord = Readonly<{ lat: number; lon: number; precision: string; district: string; mahalla: string | null }>;

/** An item as checked: its home's fields left out, with why. */
type CheckedItem = BatchItem & { warnings: string[] };

interface Placed {
  position: number;
  item: CheckedItem;
  geocode: GeocodeRecord;
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
const pointKey = ({ lat, lon }: { lat: number; lon: number }): string => `${lat},${lon}`;

export function createChunkProcessor(options: ChunkProcessorOptions): ChunkProcessor {
  const pointScores = new LRUCache<string, LocationIndexRecord | ApiError>({ max: options.scoreCacheSize ?? SCORE_CACHE_SIZE });
  return async (items, context) => {
    const caller: GraphCaller = { organisation: context.organisation, requestId: `batch-${context.jobId}-${context.chunkIndex}` };
    const results: ItemResult[] = new Array(items.length);
    const fail = (position: number, error: unknown) => {
      results[position] = { index: context.firstIndex + position, ok: false, error: itemError(error) };
    };

    // 1. Check every item, and place the addresses of those that pass in one call.
    const checked: { position: number; item: CheckedItem }[] = [];
    items.forEach((raw, position) => {
      try {
        checked.push({ position, item: checkedItem(raw) });
      } catch (error) {
        fail(position, error);
      }
    });
    const placed: Placed[] = [];
    if (checked.length > 0) {
      const { geocodes } = await options.location.request<GeocodesAnswer>(GEOCODES_QUERY, { addresses: checked.map((c) => c.item.address) }, caller);
      if (geocodes.length !== checked.length) throw new Error(`geocodes answered ${geocodes.length} results for ${checked.length} addresses`);
      geocodes.forEach(({ result, error }, i) => {
        const { position, item } = checked[i];
        if (!result) return fail(position, answerError(error));
        const geocode: GeocodeRecord = { lat: result.lat, lon: result.lon, precision: result.precision, district: result.matched.district.name, mahalla: result.matched.mahalla?.name ?? null };
        placed.push({ position, item, geocode });
      });
    }

    // 2. Score the placed points: those not scored before, all at once.
    const keys = placed.map((p) => pointKey(p.geocode));
    const known = keys.map((key) => pointScores.get(key));
    const unscored = new Map<string, { lat: number; lon: number }>();
    known.forEach((record, i) => {
      if (record === undefined && !unscored.has(keys[i])) unscored.set(keys[i], { lat: placed[i].geocode.lat, lon: placed[i].geocode.lon });
    });
    const fresh = new Map<string, LocationIndexRecord | ApiError>();
    if (unscored.size > 0) {
      const { locationIndexes } = await options.location.request<LocationIndexesAnswer>(LOCATION_INDEXES_QUERY, { points: [...unscored.values()] }, caller);
      if (locationIndexes.length !== unscored.size) throw new Error(`locationIndexes answered ${locationIndexes.length} results for ${unscored.size} points`);
      [...unscored.keys()].forEach((key, i) => {
        const record = locationIndexOf(locationIndexes[i]);
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
    const inputs = withHome.map(({ placed: { item, geocode } }) => ({ ...pointOf(geocode, item.home!), ...item.home, district: geocode.district, ...(geocode.mahalla !== null && { mahalla: geocode.mahalla }) }));
    const valuations = inputs.length ? (await options.residential.request<{ homeValuations: HomeValuationAnswer[] }>(HOME_VALUATIONS_QUERY, { inputs }, caller)).homeValuations : [];
    if (valuations.length !== withHome.length) throw new Error(`homeValuations answered ${valuations.length} results for ${withHome.length} homes`);
    const homeOf = new Map(withHome.map((s, i) => [s, valuations[i]]));

    for (const s of scored) {
      const { position, item, geocode } = s.placed;
      const home = homeOf.get(s);
      if (home && !home.valuation) {
        fail(position, new ApiError(isErrorCode(home.error?.code) ? home.error.code : 'INTERNAL', home.error?.message, home.error?.field ? `home.${home.error.field}` : 'home'));
        continue;
      }
      results[position] = {
        index: context.firstIndex + position,
        ok: true,
        result: { address: item.address, geocode, locationIndex: s.locationIndex, ...(home && { home: resultValuation(home.valuation!, item.warnings) }) },
      };
    }
    return results;
  };
}

/**
 * A valuation as a result carries it: one in USD without exchangeRate (null), as results were before
 * a currency could be asked for; the item's own warnings (fields left out of its home) first.
 */
function resultValuation({ exchangeRate, ...valuation }: Record<string, unknown>, itemWarnings: readonly string[]): Record<string, unknown> {
  const warnings = itemWarnings.length ? { warnings: [...itemWarnings, ...((valuation.warnings as string[] | undefined) ?? [])] } : {};
  return exchangeRate === null || exchangeRate === undefined ? { ...valuation, ...warnings } : { ...valuation, ...warnings, exchangeRate };
}

/** The record of a point's location index, or the ApiError saying why the point has none. */
function locationIndexOf({ result, error }: LocationIndexesAnswer['locationIndexes'][number]): LocationIndexRecord | ApiError {
  if (!result) return answerError(error);
  const subindexes = Object.freeze(Object.fromEntries(result.subindexes.map((s) => [s.id, s.score])));
  const { score: composite, complete, renormalised } = result.composite;
  return Object.freeze({ composite, complete, renormalised, district: result.district.name, subindexes });
}

/** A subgraph's per-item error as the ApiError it stands for. */
function answerError(error: { code: string; message: string; field?: string | null } | null): ApiError {
  return new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', error?.message ?? 'Internal error', error?.field ?? undefined);
}

/**
 * The item's address and home fields, checked so that one bad item cannot fail the chunk's GraphQL
 * call. Submission checked them already (schema/batch-contract.ts, on every door); this still fails
 * an item that passes it but the valuation cannot take (a home without its area), one stored before
 * those checks, and turns a yes/no word kept as text into its warning.
 */
function checkedItem(raw: unknown): CheckedItem {
  const item = (raw ?? {}) as Partial<BatchItem>;
  if (typeof item.address !== 'string' || item.address.trim() === '') throw new ApiError('MISSING_PARAMETER', 'address is required', 'address');
  if (item.address.length > MAX_ADDRESS_LENGTH) throw new ApiError('INVALID_PARAMETER', `address must be at most ${MAX_ADDRESS_LENGTH} characters`, 'address');
  if (item.home === undefined || item.home === null) return { address: item.address, warnings: [] };
  if (typeof item.home !== 'object' || Array.isArray(item.home)) throw new ApiError('INVALID_PARAMETER', 'home must be an object of HomeValuationInput fields', 'home');
  const home: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item.home)) {
    if (name === 'district' || name === 'mahalla') throw new ApiError('INVALID_PARAMETER', `home.${name} comes from the geocoded address: leave it out`, `home.${name}`);
    if (!ITEM_HOME_NAMES.has(name)) throw new ApiError('INVALID_PARAMETER', `home.${name} is not a HomeValuationInput field (${[...ITEM_HOME_NAMES].join(', ')})`, `home.${name}`);
    home[name] = value;
  }
  // GraphQL's yes/no fields (furniture, gas, water, sewerage) are Booleans; the batch takes the REST
  // spellings too, and one that reads as neither is left out with a warning, as REST leaves it out.
  const warnings: string[] = [];
  for (const { graphql: name } of YES_NO_FIELDS) {
    if (typeof home[name] !== 'string') continue;
    const parsed = parseYesNo(home[name] as string);
    if (parsed === null) warnings.push(`home.${name} "${(home[name] as string).slice(0, 40)}" ${NOT_RECOGNISED}; accepted: ${YES_NO_ACCEPTED}`);
    if (parsed === null) delete home[name];
    else home[name] = parsed;
  }
  // GraphQL's enums (currency) are spelled in upper case; the batch takes any case, as REST does.
  for (const f of ENUM_FIELDS) if (home[f.graphql] !== undefined) home[f.graphql] = enumValue(f, home[f.graphql]);
  try {
    checkInputFields(ITEM_HOME_FIELDS, home);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.code, `home: ${error.message}`, `home.${error.field ?? ''}`);
    throw error;
  }
  return { address: item.address, home, warnings };
}

function itemError(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: 'Internal error' };
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
