/**
 * GraphQL types of the location subgraph (type-graphql classes). District and Mahalla are
 * entities (@key) that other subgraphs extend; their relations (mahallas, district, locationIndex)
 * are field resolvers in ./place-resolvers.ts.
 */
import { ArgsType, Directive, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MAX_ADDRESS_LENGTH } from '../../schema/location-contract';

export enum LocationCoverage {
  full = 'full',
  partial = 'partial',
  none = 'none',
}
registerEnumType(LocationCoverage, {
  name: 'LocationCoverage',
  description: 'How well the data covers a score at a place: full (every layer it needs covers the place), partial (some layers are samples or missing: the score is a lower bound), none (no data: score null)',
});

export enum LayerCoverage {
  city = 'city',
  partial = 'partial',
}
registerEnumType(LayerCoverage, { name: 'LayerCoverage', description: 'city: the layer has every such feature in the city; partial: a sample (possibly complete in some districts)' });

export enum GeocodePrecision {
  street = 'street',
  quarter = 'quarter',
  mahalla = 'mahalla',
  district = 'district',
}
registerEnumType(GeocodePrecision, { name: 'GeocodePrecision', description: 'What a geocoded point stands for, most precise first: a street (or square, residential complex), a massif quarter, a mahalla centre, a district centre' });

export enum MahallaCentreSource {
  geocoded = 'geocoded',
  co_named = 'co_named',
}
registerEnumType(MahallaCentreSource, { name: 'MahallaCentreSource', description: 'geocoded: the median of listings naming the mahalla; co_named: of the streets and quarters addresses name with it (less precise)' });

@ObjectType({ description: 'A point (WGS 84 degrees)' })
export class GeoPoint {
  @Field(() => Float) lat!: number;
  @Field(() => Float) lon!: number;
}

@ObjectType({ description: 'A district name in the languages of the city' })
export class DistrictNames {
  @Field({ description: 'English, as DISTRICT_NAMES spells it: Chilanzar' }) english!: string;
  @Field({ description: 'Uzbek (Latin): Chilonzor tumani' }) uzbekLatin!: string;
  @Field({ description: 'Russian (Cyrillic): Чиланзарский район' }) russian!: string;
}

@Directive('@key(fields: "name")')
@ObjectType({ description: 'One of the 12 districts of Tashkent' })
export class District {
  @Field({ description: 'English name (the key): Chilanzar, Mirzo-Ulugbek, …' }) name!: string;
  @Field({ description: 'District code: chilanzar, mirzo_ulugbek, …' }) id!: string;
  @Field(() => DistrictNames) names!: DistrictNames;
  @Field(() => GeoPoint, { description: 'Area-weighted centroid of the polygon (moved inside when it falls outside)' }) centroid!: GeoPoint;
  // mahallas, locationIndex: field resolvers (./place-resolvers.ts).
}

@Directive('@key(fields: "id")')
@ObjectType({ description: 'A mahalla (neighbourhood community) of a district' })
export class Mahalla {
  @Field({ description: 'Stable id: <district code>/<latin slug>, e.g. chilanzar/katartal' }) id!: string;
  @Field({ description: 'Uzbek Latin name' }) name!: string;
  @Field({ description: 'Cyrillic name, as the listings spell it most' }) cyrillic!: string;
  @Field(() => GeoPoint, { nullable: true, description: 'Centre from geocoded listings or co-named streets; null when neither exists' }) centre!: GeoPoint | null;
  @Field(() => MahallaCentreSource, { nullable: true }) centreSource!: MahallaCentreSource | null;
  // district, locationIndex: field resolvers (./place-resolvers.ts).
}

@ArgsType()
export class PointArgs {
  @Field(() => Float, { description: 'Latitude, -90 to 90 (Tashkent: about 41.2 to 41.4)' }) lat!: number;
  @Field(() => Float, { description: 'Longitude, -180 to 180 (Tashkent: about 69.1 to 69.4)' }) lon!: number;
}

@InputType({ description: 'A coordinate to score (WGS 84 degrees)' })
export class PointInput {
  @Field(() => Float, { description: 'Latitude, -90 to 90 (Tashkent: about 41.2 to 41.4)' }) lat!: number;
  @Field(() => Float, { description: 'Longitude, -180 to 180 (Tashkent: about 69.1 to 69.4)' }) lon!: number;
}

@ObjectType({ description: 'A data layer feeding one component of a subindex' })
export class ComponentLayer {
  @Field({ description: 'Layer id, e.g. metro_stations' }) layer!: string;
  @Field(() => Int, { description: "Features of the component's category in the layer" }) features!: number;
  @Field(() => LayerCoverage) coverage!: LayerCoverage;
  @Field(() => [String], { nullable: true, description: 'District codes where a partial layer is nevertheless complete' }) completeIn!: string[] | null;
  @Field() note!: string;
}

@ObjectType({ description: 'One thing a subindex measures (e.g. the nearest metro stations) and the data behind it' })
export class SubindexComponent {
  @Field({ description: 'metro_station, school, park, city_centre, listings, …' }) feature!: string;
  @Field({ description: 'The subindex is not complete without a layer for it' }) required!: boolean;
  @Field({ description: 'false: an optional component no layer covers, left out of the score' }) used!: boolean;
  @Field(() => LocationCoverage) coverage!: LocationCoverage;
  @Field(() => [ComponentLayer]) layers!: ComponentLayer[];
}

@ObjectType({ description: 'One of the nine subindexes, 0–100 on an absolute scale (docs/LOCATION_INDEX.md)' })
export class Subindex {
  @Field({ description: 'transport, education, healthcare, daily_needs, green, culture, safety, centrality, market_liquidity' }) id!: string;
  @Field({ description: 'English name, e.g. Daily needs' }) name!: string;
  @Field(() => Float, { nullable: true, description: '0–100; null when no data backs this subindex here' }) score!: number | null;
  @Field(() => Float, { description: 'Weight in the composite here (renormalised when a subindex has no data; 0 for one without)' }) weight!: number;
  @Field(() => LocationCoverage) coverage!: LocationCoverage;
  @Field({ description: 'coverage is full: every layer behind the score is complete here' }) complete!: boolean;
  @Field(() => [SubindexComponent]) components!: SubindexComponent[];
}

@ObjectType({ description: 'The weighted mean of the subindexes' })
export class LocationComposite {
  @Field(() => Float, { nullable: true, description: '0–100; null if no subindex has data' }) score!: number | null;
  @Field({ description: 'true only when all nine subindexes are complete' }) complete!: boolean;
  @Field({ description: 'true when some subindex had no data and the weights were renormalised over the rest' }) renormalised!: boolean;
  @Field(() => [String], { description: 'Subindexes without data here' }) missing!: string[];
}

@ObjectType({ description: 'A data layer behind the scores: where it comes from and how complete it is' })
export class LocationDataLayer {
  @Field() layer!: string;
  @Field(() => Int, { description: 'Features in the whole layer' }) features!: number;
  @Field(() => LayerCoverage) coverage!: LayerCoverage;
  @Field(() => [String], { nullable: true, description: 'District codes where a partial layer is nevertheless complete' }) completeIn!: string[] | null;
  @Field(() => String, { nullable: true, description: 'Source file, relative to the project' }) file!: string | null;
  @Field(() => String, { nullable: true }) licence!: string | null;
  @Field() note!: string;
}

@ObjectType({ description: 'How good a location is for collateral: nine subindexes, a composite, and the data behind them' })
export class LocationIndexResult {
  @Field(() => Float) lat!: number;
  @Field(() => Float) lon!: number;
  @Field(() => District, { description: 'The district whose polygon holds the point' }) district!: District;
  @Field(() => LocationComposite) composite!: LocationComposite;
  @Field(() => [Subindex], { description: 'The nine subindexes, in a fixed order' }) subindexes!: Subindex[];
  @Field(() => [LocationDataLayer], { description: 'Every data layer behind the scores at this point, once' }) dataUsed!: LocationDataLayer[];
}

@ObjectType({ description: 'A point the bulk query could not score' })
export class LocationIndexError {
  @Field({ description: 'Error code from the public catalogue: OUTSIDE_TASHKENT, INVALID_PARAMETER' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true }) field!: string | null;
}

@ObjectType({ description: 'One point of a bulk query: its result or its error, in input order' })
export class LocationIndexItem {
  @Field(() => Int) index!: number;
  @Field(() => LocationIndexResult, { nullable: true }) result!: LocationIndexResult | null;
  @Field(() => LocationIndexError, { nullable: true }) error!: LocationIndexError | null;
}

@ObjectType({ description: 'The elements of the address the point was found by' })
export class GeocodeMatch {
  @Field(() => District, { description: 'The district the address names (near a boundary the point may lie in the neighbour: see locationIndex.district)' }) district!: District;
  @Field(() => String, { nullable: true, description: 'Massif quarter, e.g. Юнусабад 8-й квартал' }) quarter!: string | null;
  @Field(() => String, { nullable: true, description: 'Street, square or residential complex' }) street!: string | null;
  @Field(() => Mahalla, { nullable: true }) mahalla!: Mahalla | null;
}

@ObjectType({ description: 'Another place the address names or may mean, less precise than the answer' })
export class GeocodeCandidate {
  @Field(() => GeocodePrecision) precision!: GeocodePrecision;
  @Field() name!: string;
  @Field(() => District) district!: District;
  @Field(() => Float) lat!: number;
  @Field(() => Float) lon!: number;
  @Field(() => Float) confidence!: number;
}

@ObjectType({ description: `A Tashkent address placed on the map (at most ${MAX_ADDRESS_LENGTH} characters; docs/GEOCODING.md)` })
export class GeocodeResult {
  @Field({ description: 'The address as given' }) address!: string;
  @Field(() => Float) lat!: number;
  @Field(() => Float) lon!: number;
  @Field(() => GeocodePrecision) precision!: GeocodePrecision;
  @Field(() => Float, { description: '0–1: how often answers like this land near the truth; orders answers, not a calibrated probability' }) confidence!: number;
  @Field(() => GeocodeMatch) matched!: GeocodeMatch;
  @Field(() => [GeocodeCandidate]) candidates!: GeocodeCandidate[];
  // locationIndex: field resolver (./resolvers.ts), scored only when asked for.
}

@ObjectType({ description: 'An address the bulk geocode could not place' })
export class GeocodeError {
  @Field({ description: 'Error code from the public catalogue: UNRESOLVABLE_ADDRESS, INVALID_PARAMETER' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true }) field!: string | null;
  @Field(() => [String], { nullable: true, description: 'Places the address may have meant' }) suggestions!: string[] | null;
}

@ObjectType({ description: 'One address of a bulk geocode: its answer or its error, in input order' })
export class GeocodeItem {
  @Field(() => Int) index!: number;
  @Field(() => GeocodeResult, { nullable: true }) result!: GeocodeResult | null;
  @Field(() => GeocodeError, { nullable: true }) error!: GeocodeError | null;
}
