/**
 * The location index and the places of Tashkent, the same on every door: POST /api/location/index
 * (gateway/rest/location.ts) and MCP's location_index run `locationIndexOf` on a checked body; MCP's
 * geocode_address and list_districts (and its districts resource) run the geocode and district
 * operations. Every operation here is owned by the location subgraph.
 */
import { chooseLocationRequest } from '../../schema/location-contract';
import type { GraphExecutor } from '../graph/executor';

const LOCATION_INDEX_REPLY = /* GraphQL */ `
  fragment LocationIndexReply on LocationIndexResult {
    lat lon
    district { id name }
    composite { score complete renormalised missing }
    subindexes { id name score weight coverage complete components { feature required used coverage layers { layer } } }
    dataUsed { layer features coverage completeIn licence note }
  }`;

/** Persisted operations of the location index; every field is owned by the location subgraph (test/gateway/persisted-operations). */
export const LOCATION_INDEX_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query RestLocationIndex($lat: Float!, $lon: Float!) {
    locationIndex(lat: $lat, lon: $lon) { ...LocationIndexReply }
  }${LOCATION_INDEX_REPLY}` };

export const LOCATION_INDEX_BY_ADDRESS_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query RestLocationIndexByAddress($address: String!) {
    geocode(address: $address) {
      address lat lon precision confidence
      matched { district { name } quarter street mahalla { id name } }
      locationIndex { ...LocationIndexReply }
    }
  }${LOCATION_INDEX_REPLY}` };

/** The fields LOCATION_INDEX_REPLY selects. */
export interface LocationIndexData {
  lat: number;
  lon: number;
  district: { id: string; name: string };
  composite: { score: number | null; complete: boolean; renormalised: boolean; missing: string[] };
  subindexes: {
    id: string; name: string; score: number | null; weight: number; coverage: string; complete: boolean;
    components: { feature: string; required: boolean; used: boolean; coverage: string; layers: { layer: string }[] }[];
  }[];
  dataUsed: { layer: string; features: number; coverage: string; completeIn: string[] | null; licence: string | null; note: string }[];
}

/** What the by-address operation selects: the geocode with its location index. */
export interface GeocodeData {
  address: string;
  lat: number;
  lon: number;
  precision: string;
  confidence: number;
  matched: { district: { name: string }; quarter: string | null; street: string | null; mahalla: { id: string; name: string } | null };
  locationIndex: LocationIndexData;
}

/** What a geocode matched, as the REST bodies (and MCP's geocode_address) write it. */
export function toMatchedResponse(matched: GeocodeData['matched']) {
  return { district: matched.district.name, quarter: matched.quarter, street: matched.street, mahalla: matched.mahalla?.name ?? null, mahalla_id: matched.mahalla?.id ?? null };
}

/** POST /api/location/index's body, and MCP location_index's reply. */
export function toLocationRestResponse(index: LocationIndexData, geocoded: GeocodeData | null, warnings: readonly string[]) {
  return {
    lat: index.lat,
    lon: index.lon,
    district: index.district,
    composite: index.composite,
    subindexes: Object.fromEntries(index.subindexes.map((s) => [s.id, {
      name: s.name,
      score: s.score,
      weight: s.weight,
      coverage: s.coverage,
      complete: s.complete,
      components: s.components.map((c) => ({ feature: c.feature, required: c.required, used: c.used, coverage: c.coverage, layers: c.layers.map((l) => l.layer) })),
    }])),
    data_used: index.dataUsed.map((d) => ({ layer: d.layer, features: d.features, coverage: d.coverage, complete_in: d.completeIn, licence: d.licence, note: d.note })),
    ...(geocoded && {
      geocoded: {
        address: geocoded.address,
        lat: geocoded.lat,
        lon: geocoded.lon,
        precision: geocoded.precision,
        confidence: geocoded.confidence,
        matched: toMatchedResponse(geocoded.matched),
      },
    }),
    warnings,
  };
}


/**
 * A checked body, `{ lat, lon }` or `{ address }` → the location index through `executor`: one
 * operation, `locationIndex(lat, lon)`, or `geocode(address)` with the index at the geocoded point.
 */
export async function locationIndexOf(executor: GraphExecutor, body: Readonly<Record<string, unknown>>, warnings: readonly string[]) {
  const wanted = chooseLocationRequest(body);
  if (wanted.kind === 'point') {
    const data = await executor.execute<{ locationIndex: LocationIndexData }>(LOCATION_INDEX_OPERATION, { lat: wanted.lat, lon: wanted.lon });
    return toLocationRestResponse(data.locationIndex, null, warnings);
  }
  const data = await executor.execute<{ geocode: GeocodeData }>(LOCATION_INDEX_BY_ADDRESS_OPERATION, { address: wanted.address });
  return toLocationRestResponse(data.geocode.locationIndex, data.geocode, warnings);
}
export type LocationReply = ReturnType<typeof toLocationRestResponse>;

/** An address placed, with its less precise candidates, for geocode_address. */
export const GEOCODE_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpGeocode($address: String!) {
    geocode(address: $address) {
      address lat lon precision confidence
      matched { district { name } quarter street mahalla { id name } }
      candidates { name precision district { name } lat lon confidence }
    }
  }` };

/** What GEOCODE_OPERATION selects. */
export interface GeocodeCandidatesData {
  geocode: Omit<GeocodeData, 'locationIndex'> & {
    candidates: { name: string; precision: string; district: { name: string }; lat: number; lon: number; confidence: number }[];
  };
}

/** A district's fields; the mahallas' details only when asked for (their ids always, to count them). */
const DISTRICT_FIELDS = /* GraphQL */ `
  fragment McpDistrict on District {
    name id
    names { english uzbekLatin russian }
    centroid { lat lon }
    mahallas { id ... @include(if: $withMahallas) { name cyrillic centre { lat lon } } }
  }`;

/** Every district, for list_districts and the districts resource. */
export const DISTRICTS_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpDistricts($withMahallas: Boolean!) {
    districts { ...McpDistrict }
  }${DISTRICT_FIELDS}` };

/** One district by any spelling of its name (null when unknown), for list_districts. */
export const DISTRICT_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpDistrict($name: String!, $withMahallas: Boolean!) {
    district(name: $name) { ...McpDistrict }
  }${DISTRICT_FIELDS}` };

/** A district as DISTRICT_FIELDS selects it. */
export interface DistrictData {
  name: string;
  id: string;
  names: { english: string; uzbekLatin: string; russian: string };
  centroid: { lat: number; lon: number };
  /** Details only with $withMahallas. */
  mahallas: { id: string; name?: string; cyrillic?: string; centre?: { lat: number; lon: number } | null }[];
}
