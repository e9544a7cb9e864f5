/**
 * Address → point. Reads the address (./address-read.ts), finds every element it names in the
 * gazetteer, settles the district, and answers with the most precise element consistent with it:
 * street > quarter > mahalla > district. Anything that cannot be placed in Tashkent throws
 * UnresolvableAddressError; a point is never guessed.
 *
 * A batch names the same streets and districts over and over: a geocoder keeps its answers by the
 * reading of the address (house and flat numbers left out), and the lookups of each place mention,
 * in caches of bounded size. Answers are frozen, since callers share them.
 */
import { LRUCache } from 'lru-cache';
import { DISTRICT_NAMES, matchMahalla, type DistrictId, type MahallaMatch } from '../../vocabulary';
import { districtAt, type DistrictShape } from '../districts';
import { readAddressKeyed, type AddressReading, type PlaceSegment } from './address-read';
import { confidenceOf, type MatchKind } from './confidence';
import { dominantOf } from './dominance';
import { UnresolvableAddressError } from './errors';
import { createGazetteerIndex, type PlaceHit } from './gazetteer-index';
import type { PlaceMention } from './place-parse';
import { PRECISIONS, type GazetteerFile, type GazetteerPlace, type GeocodeCandidate, type GeocodeResult, type Precision } from './types';

/**
 * Spread floors (see ./confidence.ts): a stretch of street, half a quarter, a mahalla's radius,
 * and about the median distance of a district's listings to its centroid. A mahalla placed by
 * co-named streets is only as good as their agreement with geocoded listings (evaluate-cli: 838 m).
 */
const SPREAD_FLOOR_M: Readonly<Record<Precision, number>> = { street: 400, quarter: 300, mahalla: 500, district: 2500 };
const CO_NAMED_MAHALLA_FLOOR_M = 800;
/** Matches weaker than an exact or alias mahalla name: a bare name that is a mahalla's is that mahalla. */
const WEAK_MATCHES: ReadonlySet<MatchKind> = new Set(['shortened', 'typo']);
const MAX_SUGGESTIONS = 3;
/** Places fewer listings name are not offered as suggestions: one listing's typing is no evidence of a place. */
const MIN_SUGGESTED_LISTINGS = 3;
const MAX_CANDIDATES = 5;

/** One thing the address names, placed. */
type Element = GeocodeCandidate;

/** What one place segment of the address resolves to: places it surely names, places it may name, or a mahalla. */
interface SegmentHits {
  sure: readonly PlaceHit[];
  possible: readonly PlaceHit[];
  mahalla: MahallaMatch | null;
}

export interface Geocoder {
  geocode(address: string): GeocodeResult;
}

const rank = (precision: Precision) => PRECISIONS.indexOf(precision);
const label = (name: string, district: DistrictId) => `${name} (${DISTRICT_NAMES[district]})`;
const fromVocabulary = (via: MahallaMatch['via']): MatchKind => (via === 'fuzzy' ? 'typo' : via);
const suggest = (places: readonly GazetteerPlace[]) =>
  [...new Set(places.filter((p) => p.listings >= MIN_SUGGESTED_LISTINGS).map((p) => label(p.name, p.district)))].slice(0, MAX_SUGGESTIONS);

/** Elements with the same name and point once, in order. */
function distinct(elements: readonly Element[]): Element[] {
  const seen = new Set<string>();
  return elements.filter((e) => {
    const id = `${e.name}|${e.lat}|${e.lon}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Mahalla names looked up per district and kept: the mahallas addresses name are a few hundred. */
const MAHALLA_CACHE_SIZE = 4_000;
/** Answers kept, by reading: the distinct street, quarter and district combinations of a portfolio. */
const ANSWER_CACHE_SIZE = 8_192;
const NO_MAHALLA = 0;
// A string with something other than whitespace and punctuation in it.
const NOT_ONLY_PUNCTUATION = /[^\s\p{P}]/u;

export function createGeocoder(gazetteer: GazetteerFile, polygons: readonly DistrictShape[]): Geocoder {
  const index = createGazetteerIndex(gazetteer);

  // Lookups of a mention, kept with it: readAddress reads each distinct address part once and keeps
  // its mentions in a bounded cache, so these go when the mention does. Frozen: answers share them.
  const placesOf = new WeakMap<PlaceMention, readonly PlaceHit[]>();
  const nearOf = new WeakMap<PlaceMention, readonly GazetteerPlace[]>();
  const placesFor = (mention: PlaceMention): readonly PlaceHit[] => {
    let hits = placesOf.get(mention);
    if (hits === undefined) placesOf.set(mention, (hits = Object.freeze(index.placesFor(mention).map((hit) => Object.freeze(hit)))));
    return hits;
  };
  const placesNear = (mention: PlaceMention): readonly GazetteerPlace[] => {
    let near = nearOf.get(mention);
    if (near === undefined) nearOf.set(mention, (near = Object.freeze(index.placesNear(mention))));
    return near;
  };
  // Answers by reading key (./address-read.ts): "Chilonzor tumani, Qatortol, 12-uy" and "…, 14-uy" are one answer.
  const answers = new LRUCache<string, GeocodeResult>({ max: ANSWER_CACHE_SIZE });
  const mahallaMatches = new LRUCache<string, MahallaMatch | typeof NO_MAHALLA, { text: string; district: DistrictId | undefined }>({
    max: MAHALLA_CACHE_SIZE,
    memoMethod: (_key, _stale, { context: { text, district } }) => {
      const found = matchMahalla(text, district);
      return found === null ? NO_MAHALLA : Object.freeze(found);
    },
  });
  const mahallaMatch = (text: string, district: DistrictId | undefined): MahallaMatch | null => {
    const match = mahallaMatches.memo(`${district ?? ''}|${text}`, { context: { text, district } });
    return match === NO_MAHALLA ? null : match;
  };

  /** The named district the place belongs to: its own, or the one its centre lies in (Чиланзар-13 is listed under both). */
  function districtFor(place: GazetteerPlace, named: readonly DistrictId[]): DistrictId | null {
    if (named.length === 0 || named.includes(place.district)) return place.district;
    const at = districtAt(polygons, place.lat, place.lon);
    return at !== null && named.includes(at) ? at : null;
  }

  function resolveSegment({ mention, text }: PlaceSegment, named: readonly DistrictId[]): SegmentHits {
    if (mention.key === '') {
      // "6-й квартал" in Yunusabad district: quarter 6 of the massif the district's listings name far more often than the others.
      const quarters = named.flatMap((d) => index.quartersNumbered(d, mention.number));
      const leader = dominantOf(quarters.map((place) => ({ place, lat: place.lat, lon: place.lon, listings: index.massifListings(place) })))?.place;
      const hit = (place: GazetteerPlace): PlaceHit => ({ place, match: 'inferred' });
      return { sure: leader === undefined ? [] : [hit(leader)], possible: quarters.filter((q) => q !== leader).map(hit), mahalla: null };
    }
    const hits = placesFor(mention);
    if (mention.kind === 'named' && hits.every((h) => WEAK_MATCHES.has(h.match))) {
      const mahalla = mahallaMatch(text, named[0]);
      if (mahalla !== null && mahalla.via !== 'fuzzy') return { sure: [], possible: hits, mahalla };
    }
    return { sure: hits, possible: [], mahalla: null };
  }

  /**
   * The district of an address that names none: the one most of its elements agree on; between
   * several, the most listed place's, when the others are the same place or negligible.
   */
  function settleDistrict(address: string, segments: readonly SegmentHits[], mahallas: readonly MahallaMatch[]): DistrictId {
    const support = new Map<DistrictId, number>();
    const districtSets = [...segments.map((s) => new Set(s.sure.map((h) => h.place.district))), ...mahallas.map((m) => new Set([m.district]))];
    for (const districts of districtSets) for (const d of districts) support.set(d, (support.get(d) ?? 0) + 1);
    const most = Math.max(...support.values());
    const top = [...support].filter(([, n]) => n === most).map(([d]) => d);
    if (top.length === 1) return top[0];
    const rivals = segments.flatMap((s) => s.sure.map((h) => h.place)).filter((p) => top.includes(p.district));
    const streets = rivals.filter((p) => p.kind === 'street');
    const mostPrecise = streets.length > 0 ? streets : rivals;
    const leader = dominantOf(mostPrecise);
    if (leader !== null) return leader.district;
    const places = suggest(mostPrecise);
    const suggestions = places.length > 0 ? places : top.map((d) => DISTRICT_NAMES[d]);
    throw new UnresolvableAddressError('ambiguous', `"${address}" names a place several districts have; add the district`, suggestions);
  }

  function placeElement({ place, match }: PlaceHit, district: DistrictId): Element {
    const confidence = confidenceOf(place.listings, place.spreadM, SPREAD_FLOOR_M[place.kind], match);
    return { precision: place.kind, name: place.name, district, lat: place.lat, lon: place.lon, confidence };
  }

  function mahallaElement(mahalla: MahallaMatch): Element | null {
    const centre = index.mahalla(mahalla.id);
    if (centre?.lat == null || centre.lon == null || centre.spreadM == null) return null; // no listing places it
    const floor = centre.source === 'co-named' ? CO_NAMED_MAHALLA_FLOOR_M : SPREAD_FLOOR_M.mahalla;
    const confidence = confidenceOf(centre.listings, centre.spreadM, floor, fromVocabulary(mahalla.via));
    return { precision: 'mahalla', name: mahalla.name, district: mahalla.district, lat: centre.lat, lon: centre.lon, confidence };
  }

  function districtElement(id: DistrictId): Element {
    const district = index.district(id);
    const confidence = confidenceOf(district.listings, district.spreadM, SPREAD_FLOOR_M.district, 'exact');
    return { precision: 'district', name: DISTRICT_NAMES[id], district: id, lat: district.lat, lon: district.lon, confidence };
  }

  /** Throws for an address that names nothing placeable in Tashkent. */
  function rejectUnplaceable(address: string, reading: AddressReading, segments: readonly SegmentHits[], mahallas: readonly MahallaMatch[]): void {
    if (reading.elsewhere !== null) {
      // A town's name is also a Tashkent street's ("Нукус", "Паркент"): offer the street.
      const sameName = reading.places.filter((s) => s.text === reading.elsewhere).flatMap((s) => placesFor(s.mention).map((h) => h.place));
      throw new UnresolvableAddressError('outside_tashkent', `"${reading.elsewhere}" is outside Tashkent city; only Tashkent addresses can be placed`, suggest(sameName));
    }
    if (reading.districts.length === 0 && segments.every((s) => s.sure.length === 0) && mahallas.length === 0) {
      const near = reading.places.flatMap(({ mention }) => placesNear(mention));
      const what = reading.tashkent ? 'names Tashkent but no district or known place in it' : 'names no Tashkent district or known place';
      throw new UnresolvableAddressError('not_found', `"${address}" ${what}`, suggest(near));
    }
  }

  function geocode(address: string): GeocodeResult {
    if (!NOT_ONLY_PUNCTUATION.test(address)) throw new UnresolvableAddressError('empty', 'the address is empty');
    // Everything after the reading depends on the reading alone (the address only goes into refusals' messages).
    const { reading, key } = readAddressKeyed(address);
    const answered = answers.get(key);
    if (answered !== undefined) return answered;
    const answer = answerFor(address, reading);
    if (key !== '') answers.set(key, answer);
    return answer;
  }

  /** The answer to the reading of an address, frozen (answers are shared); throws UnresolvableAddressError. */
  function answerFor(address: string, reading: AddressReading): GeocodeResult {
    const named = reading.districts;
    const segments = reading.places.map((segment) => resolveSegment(segment, named));
    const mahallas = [...reading.mahallas.map((text) => mahallaMatch(text, named[0])), ...segments.map((s) => s.mahalla)]
      .filter((m): m is MahallaMatch => m !== null);
    rejectUnplaceable(address, reading, segments, mahallas);
    const scope = named.length > 0 ? named : [settleDistrict(address, segments, mahallas)];

    // Per segment, its best place in the district; the others it may name are candidates.
    const elements: Element[] = [];
    const alternatives: Element[] = [];
    for (const { sure, possible } of segments) {
      const placed = sure.map((hit) => placeElement(hit, districtFor(hit.place, scope) ?? hit.place.district))
        .sort((a, b) => Number(scope.includes(b.district)) - Number(scope.includes(a.district)) || b.confidence - a.confidence);
      if (placed.length > 0 && scope.includes(placed[0].district)) elements.push(placed.shift()!);
      alternatives.push(...placed, ...possible.map((hit) => placeElement(hit, hit.place.district)));
    }
    const mahallasInScope = mahallas.filter((m) => scope.includes(m.district));
    for (const mahalla of mahallasInScope) {
      const element = mahallaElement(mahalla);
      if (element !== null) elements.push(element);
    }
    elements.push(districtElement(scope[0]));
    elements.sort((a, b) => rank(a.precision) - rank(b.precision) || b.confidence - a.confidence);

    const [answer, ...lessPrecise] = elements;
    const nameAt = (precision: Precision) => elements.find((e) => e.precision === precision)?.name;
    const [street, quarter, mahalla] = [nameAt('street'), nameAt('quarter'), mahallasInScope[0]?.name];
    const candidates = distinct([answer, ...lessPrecise.filter((e) => e.precision !== 'district'), ...alternatives]).slice(1, MAX_CANDIDATES + 1);
    return Object.freeze({
      lat: answer.lat,
      lon: answer.lon,
      precision: answer.precision,
      confidence: answer.confidence,
      matched: Object.freeze({
        district: answer.district,
        ...(quarter !== undefined && { quarter }),
        ...(street !== undefined && { street }),
        ...(mahalla !== undefined && { mahalla }),
      }),
      ...(candidates.length > 0 && { candidates: Object.freeze(candidates.map((c) => Object.freeze(c))) as GeocodeCandidate[] }),
    });
  }

  return { geocode };
}
