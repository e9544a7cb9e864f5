/**
 * What a point-layer feature is, for scoring: OpenStreetMap tags, or the category column of a point
 * CSV (landmarks_mixed.csv's Category, transit_stops_osm.csv's type), → one category. Pure data: the
 * matching lives in ./classify.ts.
 *
 * Categories are finer than the nine subindexes because a metro station and a bus stop, or a
 * hospital and a pharmacy, need different walking distances (see ./parameters.ts, which says
 * which categories feed which subindex; one category may feed two, e.g. hospitals → safety too).
 */

export const CATEGORIES = [
  'metro_station', 'surface_stop',
  'school', 'kindergarten', 'higher_education',
  'hospital', 'clinic', 'pharmacy',
  'grocery', 'marketplace', 'shopping_centre',
  'park', 'playground',
  'cultural_venue', 'heritage', 'cafe', 'restaurant',
  'fire_station', 'police',
  'business_centre',
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * A feature matches when, for every key, its tag has one of the listed values ('*': any value).
 * Rules are tried in order and the first match wins, so where a feature carries two meanings the
 * earlier rule decides: a museum that is also a tourist attraction is a cultural venue; a cafe
 * with a playground is a cafe. A layer restricted to some categories (the catalogue's `keep`)
 * takes the first rule that matches among those.
 */
export interface TagRule {
  when: Readonly<Record<string, readonly string[]>>;
  category: Category;
}

export const OSM_TAG_RULES: readonly TagRule[] = [
  // Transport. Station entrances and stop positions are left out: they would count one stop several times.
  { when: { railway: ['station'], station: ['subway'] }, category: 'metro_station' },
  { when: { public_transport: ['station'], subway: ['yes'] }, category: 'metro_station' },
  { when: { highway: ['bus_stop'] }, category: 'surface_stop' },
  { when: { railway: ['tram_stop'] }, category: 'surface_stop' },
  { when: { amenity: ['bus_station'] }, category: 'surface_stop' },
  // Education.
  { when: { amenity: ['school'] }, category: 'school' },
  { when: { amenity: ['kindergarten'] }, category: 'kindergarten' },
  { when: { amenity: ['university', 'college'] }, category: 'higher_education' },
  // Healthcare.
  { when: { amenity: ['hospital'] }, category: 'hospital' },
  { when: { amenity: ['clinic', 'doctors'] }, category: 'clinic' },
  { when: { amenity: ['pharmacy'] }, category: 'pharmacy' },
  // Daily needs.
  { when: { shop: ['supermarket', 'convenience', 'greengrocer'] }, category: 'grocery' },
  { when: { amenity: ['marketplace'] }, category: 'marketplace' },
  { when: { shop: ['mall', 'department_store'] }, category: 'shopping_centre' },
  // Culture and leisure, venues before sights, food before the playground some cafes have.
  { when: { tourism: ['museum', 'gallery'] }, category: 'cultural_venue' },
  { when: { amenity: ['theatre', 'cinema', 'library', 'arts_centre'] }, category: 'cultural_venue' },
  { when: { amenity: ['cafe'] }, category: 'cafe' },
  { when: { amenity: ['restaurant', 'fast_food', 'food_court'] }, category: 'restaurant' },
  // Green space before sights: a park that is also an attraction is a park.
  { when: { leisure: ['park', 'garden'] }, category: 'park' },
  { when: { leisure: ['playground'] }, category: 'playground' },
  { when: { tourism: ['attraction', 'artwork'] }, category: 'heritage' },
  { when: { historic: ['memorial', 'monument', 'archaeological_site', 'tomb', 'church', 'mosque', 'castle', 'ruins'] }, category: 'heritage' },
  { when: { amenity: ['place_of_worship'] }, category: 'heritage' },
  // Safety and emergency services.
  { when: { amenity: ['fire_station'] }, category: 'fire_station' },
  { when: { amenity: ['police'] }, category: 'police' },
  // Business hubs: office premises (office=*) and office buildings.
  { when: { office: ['*'] }, category: 'business_centre' },
  { when: { building: ['office'] }, category: 'business_centre' },
];

/**
 * The Category column of landmarks_mixed.csv. null: recognised and deliberately not scored.
 * A value missing from this table is not scored either, and is counted as skipped.
 */
export const LANDMARK_CATEGORIES: Readonly<Record<string, Category | null>> = {
  // Universities, institutes, academic lyceums and one college: no schools or kindergartens.
  'Educational institutions': 'higher_education',
  // Hospitals and specialised medical centres.
  'Medical institutions': 'hospital',
  // Malls and Makro hypermarkets: destination shopping, not the corner shop.
  'Shopping center': 'shopping_centre',
  'Markets': 'marketplace',
  'Parks': 'park',
  'Business centers': 'business_centre',
  // The two railway stations and the intercity bus station: trips out of town, not daily transport.
  'Stations': null,
  // Access and aircraft noise pull a home's value in opposite directions.
  'Airport': null,
};

/**
 * The type column of data/geo/poi/transit_stops_osm.csv, an Overpass pull of nodes: `bus` rows are
 * highway=bus_stop (as the tag table classifies them), `metro` rows the stations
 * (public_transport=station, station=subway). A value missing from this table is not scored.
 */
export const TRANSIT_STOP_TYPES: Readonly<Record<string, Category | null>> = {
  bus: 'surface_stop',
  metro: 'metro_station',
};

/** The columns that say a point CSV's categories, each with its table of values; the first the file has is read. */
export const CSV_CATEGORY_COLUMNS: readonly { column: string; values: Readonly<Record<string, Category | null>> }[] = [
  { column: 'category', values: LANDMARK_CATEGORIES },
  { column: 'type', values: TRANSIT_STOP_TYPES },
];
