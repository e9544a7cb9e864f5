/** GraphQL types of the residential subgraph (type-graphql classes). */
import { ACCURACY_CLASS_DESCRIPTION, METRIC_DESCRIPTIONS, MODEL_SPREAD_DESCRIPTION } from '../../schema/ensemble-contract';
import { ArgsType, Directive, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { graphqlDescription } from '../../schema/field-table';
import { HOME_FIELDS, MARKET_LEVEL_DESCRIPTION, MARKET_MIXTURE_DESCRIPTION, MARKET_MIXTURE_DESCRIPTIONS, MARKET_MIXTURE_VALUE_DESCRIPTION, MARKET_MIXTURE_VALUE_DESCRIPTIONS } from '../../schema/home-contract';
import { Rounded } from '../common/rounded';
import { AccuracyMetricsFields, ConfidenceFields, CoverageBoundsFields, CONFIDENCE_DESCRIPTION, FSD_DESCRIPTION, MarketLevelFields, ModelEstimateFields } from '../common/valuation-types';
import { MarketAdjustment } from '../common/observation-recording';
import { CurrencyEnum, ExchangeRate } from '../common/currency';
import { CURRENCY_DESCRIPTION, CURRENCY_FIELD, EXCHANGE_RATE_DESCRIPTION, EXCHANGE_RATE_FIELD } from '../../schema/currency-contract';

export enum PropertyTypeEnum {
  apartment = 'apartment',
  house = 'house',
}
registerEnumType(PropertyTypeEnum, { name: 'PropertyType', description: 'What was valued: a flat (apartment) or a private house with its plot (house)' });

/** The field table's description of a GraphQL input field (HOME_FIELDS, as REST reads it), with its range: one wording on every surface. */
const describe = (graphql: string): string => graphqlDescription(HOME_FIELDS, graphql);

@InputType({ description: 'A flat or house in Tashkent. Names (property type, district, mahalla, renovation, building type, bathroom) accept English, Uzbek Latin or Cyrillic and Russian spellings. No personal data.' })
export class HomeValuationInput {
  // Declared, not defined: type-graphql makes each input from `new HomeValuationInput()` and deletes
  // the fields the client left out, which turns an instance with defined fields into a slow
  // dictionary object that normalising then reads field by field.
  @Field(() => String, { nullable: true, description: describe('propertyType') })
  declare propertyType?: string | null;
  @Field(() => String, { description: describe('district') })
  declare district: string;
  @Field(() => String, { nullable: true, description: describe('mahalla') })
  declare mahalla?: string | null;
  @Field(() => Float, { nullable: true, description: describe('lat') })
  declare lat?: number | null;
  @Field(() => Float, { nullable: true, description: describe('lon') })
  declare lon?: number | null;
  @Field(() => Float, { description: describe('area') })
  declare area: number;
  @Field(() => Int, { description: describe('rooms') })
  declare rooms: number;
  @Field(() => Int, { nullable: true, description: describe('floor') })
  declare floor?: number | null;
  @Field(() => Int, { nullable: true, description: describe('totalFloors') })
  declare totalFloors?: number | null;
  @Field(() => Float, { nullable: true, description: describe('landArea') })
  declare landArea?: number | null;
  @Field(() => Float, { nullable: true, description: describe('landAreaM2') })
  declare landAreaM2?: number | null;
  @Field(() => Boolean, { nullable: true, description: describe('gas') })
  declare gas?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: describe('water') })
  declare water?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: describe('sewerage') })
  declare sewerage?: boolean | null;
  @Field(() => String, { nullable: true, description: describe('renovation') })
  declare renovation?: string | null;
  @Field(() => String, { nullable: true, description: describe('buildingType') })
  declare buildingType?: string | null;
  @Field(() => Boolean, { nullable: true, description: describe('furniture') })
  declare furniture?: boolean | null;
  @Field(() => String, { nullable: true, description: describe('bathroom') })
  declare bathroom?: string | null;
  @Field(() => String, { nullable: true, description: describe('market') })
  declare market?: string | null;
  @Field(() => String, { nullable: true, description: describe('sellerType') })
  declare sellerType?: string | null;
  @Field(() => String, { nullable: true, description: describe('valuationDate') })
  declare valuationDate?: string | null;
  @Field(() => Float, { nullable: true, description: describe('askingPrice') })
  declare askingPrice?: number | null;
  @Field(() => CurrencyEnum, { nullable: true, description: CURRENCY_FIELD.description })
  declare currency?: CurrencyEnum | null;
  @Field(() => Float, { nullable: true, description: EXCHANGE_RATE_FIELD.description })
  declare exchangeRate?: number | null;
}

@ObjectType({ description: 'A calibrated prediction interval' })
export class PredictionInterval {
  @Field(() => Float) low!: number;
  @Field(() => Float) high!: number;
  @Field(() => Float, { description: 'Share of true prices the interval should contain, and does on held-out data' })
  coverage!: number;
}

@ObjectType({ description: CONFIDENCE_DESCRIPTION })
export class Confidence extends ConfidenceFields {}

@ObjectType({ description: "One ensemble member's own estimate and its weight in the served consensus" })
export class ModelEstimate extends ModelEstimateFields {}

@ObjectType({ description: 'Data for checking the estimate against the market and the training data' })
export class AnomalyCheck {
  @Field(() => Float, { description: "Median asking price per m² of the district's training listings (a flat's: flats; a house's: houses), brought to the valuation date's price level by the market index" })
  districtMedianPricePerM2!: number;
  @Field(() => Float, { description: 'Estimated price per m² relative to the district median, e.g. 0.05 = 5% above' })
  deviationFromDistrictMedian!: number;
  @Field(() => Float, { nullable: true, description: "Median asking price per m² of the mahalla's training flats at the valuation date's level; null without a mahalla or with fewer than 5 listings there" })
  mahallaMedianPricePerM2!: number | null;
  @Field(() => Float, { nullable: true }) deviationFromMahallaMedian!: number | null;
  @Field(() => Float, { nullable: true, description: "Houses: the district's median asking price of a whole house (house and plot) per sotka of its plot, among the training houses; compare with deviationFromDistrictMedianPerSotka, not with landPricePerSotka (the plot alone); null for a flat" })
  districtMedianPricePerSotka!: number | null;
  @Field(() => Float, { nullable: true, description: "Houses: this house's estimate per sotka of its plot relative to districtMedianPricePerSotka (like for like), e.g. 0.05 = 5% above; null for a flat, without a plot, or without the district median" })
  deviationFromDistrictMedianPerSotka!: number | null;
  @Field(() => Float, { nullable: true, description: "Houses: the share of the estimate the plot accounts for, 0 to 1 (the estimate's elasticity to the plot area); null for a flat, or a house valued without its plot" })
  landShare!: number | null;
  @Field(() => Float, { description: MODEL_SPREAD_DESCRIPTION })
  modelSpread!: number;
  @Field(() => [String], { description: 'Reasons to look twice, e.g. AREA_OUTSIDE_DISTRICT_RANGE, ASKING_PRICE_OUTSIDE_INTERVAL' })
  flags!: string[];
}

@ObjectType({ description: MARKET_LEVEL_DESCRIPTION })
export class MarketLevel extends MarketLevelFields {}

@ObjectType({ description: MARKET_MIXTURE_VALUE_DESCRIPTION })
export class MarketMixtureValue {
  @Field(() => Float, { description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.estimate }) estimate!: number;
  @Field(() => Float, { description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.low }) low!: number;
  @Field(() => Float, { description: MARKET_MIXTURE_VALUE_DESCRIPTIONS.high }) high!: number;
}

@ObjectType({ description: MARKET_MIXTURE_DESCRIPTION })
export class MarketMixture {
  @Field(() => Float, { description: MARKET_MIXTURE_DESCRIPTIONS.newBuildProbability }) newBuildProbability!: number;
  @Field(() => MarketMixtureValue, { description: MARKET_MIXTURE_DESCRIPTIONS.newBuild }) newBuild!: MarketMixtureValue;
  @Field(() => MarketMixtureValue, { description: MARKET_MIXTURE_DESCRIPTIONS.resale }) resale!: MarketMixtureValue;
}

@ArgsType()
export class MarketIndexArgs {
  @Field({ description: 'District in any common spelling (Chilanzar, Chilonzor tumani, Чиланзарский район); unknown: UNKNOWN_DISTRICT with suggestions' })
  district!: string;
  @Field(() => String, { nullable: true, description: "new (new build) or resale, in any of the spellings a valuation takes; omitted or null for the market's mix" })
  market?: string | null;
}

@ObjectType({ description: 'One month of the market index: the price level relative to the newest month, with its 95% band' })
export class MarketIndexPoint {
  @Field({ description: 'YYYY-MM: the listing month' }) period!: string;
  @Field(() => Float, { description: 'Price level per m² of a like-for-like flat relative to the newest month (1.0 there; 0.8 = 20% lower)' }) index!: number;
  @Field(() => Float, { description: 'Lower bound of the 95% band of index' }) low!: number;
  @Field(() => Float, { description: 'Upper bound of the 95% band of index' }) high!: number;
  @Field(() => Int, { description: 'Listings of the month (all districts) the index was estimated from' }) rows!: number;
}

@ObjectType({ description: 'The hedonic market index of Tashkent flats behind the model version in service, for one district (estimated by zone of districts) and segment: how the price per m² of a like-for-like flat moved over time' })
export class MarketIndexSeries {
  @Field({ description: 'District (English name)' }) district!: string;
  @Field({ description: 'Zone of neighbouring districts the level is estimated for: centre, north_east, west or south' }) zone!: string;
  @Field(() => String, { nullable: true, description: "new or resale; null for the market's mix" }) market!: string | null;
  @Field({ description: 'How the index was estimated' }) method!: string;
  @Field({ description: 'YYYY-MM: the newest listing month (index 1.0); valuations past it are held at its level' }) newestPeriod!: string;
  @Field(() => Float, { description: 'Long-run change of the log price level per month (0.005 ≈ 0.5% a month), measured on the index and published; not applied past the newest data, where the level is held (on the index\'s own history the drift overshot)' }) driftPerMonth!: number;
  @Field(() => Float, { description: 'Month-to-month volatility of the log level per √month: how fast the interval widens past the newest data' }) volatilityPerMonth!: number;
  @Field(() => [MarketIndexPoint], { description: 'One point per listing month with data, oldest first' }) points!: MarketIndexPoint[];
  @Field(() => [ScrapeOffset], { description: "Each city point's own offset from the market level that every point read together implies (a month is mostly one site's scrape): how far one scrape's prices sit from the market's. Empty for versions before 2026.11.24" }) scrapeOffsets!: ScrapeOffset[];
  @Field(() => [SourceOffset], { description: "Each source's own offset as leave one source out measured it (its median error when its level came from the other sources)" }) sourceOffsets!: SourceOffset[];
  @Field(() => NewestLevelReading, { nullable: true, description: "The newest month's level read from every point, not the newest scrape alone; null for versions before 2026.11.24" }) newestReading!: NewestLevelReading | null;
  @Field(() => CollectedWeeklyIndex, { nullable: true, description: "Weekly points of the listings the service collects itself (npm run collect, its newest export), for the weeks after newestPeriod: between two monthly refreshes of the index. City-wide flats, whatever district and market are asked. null when nothing collected covers a week after newestPeriod" }) weekly!: CollectedWeeklyIndex | null;
}

@ObjectType({ description: 'One week of the flats the service collected from the listing sites (Monday to Sunday, UTC), city-wide' })
export class CollectedWeeklyPoint {
  @Field({ description: 'YYYY-MM-DD: the Monday starting the week' }) week!: string;
  @Field({ description: 'YYYY-MM-DD: the Sunday ending it' }) weekEnd!: string;
  @Field({ description: 'Always weekly: a point between the monthly refreshes, not a month of the index' }) frequency!: string;
  @Field({ description: 'Always "collected listings": the flats npm run collect keeps, not a listing file of the training data' }) source!: string;
  @Field(() => Int, { description: 'Flats on the market that week (a flat listed on two sites counted once)' }) listings!: number;
  @Field(() => Float, { nullable: true, description: 'Their median asking price per m², USD; null without any' }) medianUsdPerM2!: number | null;
  @Field(() => Int, { description: 'Flats on the market in this week and the one before' }) repeatListings!: number;
  @Field(() => Float, { nullable: true, description: "Median ratio of those flats' asking prices at this week's end to the previous week's (1 = unchanged, 0.99 = 1% lower): the same flats on both sides; null without any" }) repeatChange!: number | null;
}

@ObjectType({ description: "One site's last collecting run (npm run collect), or the run under way" })
export class CollectionRun {
  @Field({ description: 'uybor, olx or avtoelon' }) site!: string;
  @Field({ description: 'running (a live process holds the site\'s lock; counts so far), interrupted (a checkpoint without a live process: the next run resumes it), completed, stopped (it ended early: see reason; the next run resumes it), or never (nothing collected yet)' }) state!: string;
  @Field(() => String, { nullable: true }) runId!: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: the day the run collects (UTC)' }) day!: string | null;
  @Field(() => Int, { nullable: true, description: 'Pages read' }) pages!: number | null;
  @Field(() => Int, { nullable: true, description: 'Listings stored' }) listings!: number | null;
  @Field(() => Int, { nullable: true, description: 'Requests sent (robots.txt included); null while running' }) requests!: number | null;
  @Field(() => String, { nullable: true, description: 'Why a stopped run stopped' }) reason!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO time the run started' }) startedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO time it ended; null while running' }) endedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'Running or interrupted: when the last finished run ended, and its state' }) previousEndedAt!: string | null;
  @Field(() => String, { nullable: true }) previousState!: string | null;
}

@ObjectType({ description: 'The weekly points of the collected listings, from the collector\'s newest export, and whether valuations use them' })
export class CollectedWeeklyIndex {
  @Field({ description: 'YYYY-MM-DD: the day the export was made' }) exportedOn!: string;
  @Field({ description: "Whether a valuation's level uses the newest weekly point: false in this version (see rule)" }) appliedToValuations!: boolean;
  @Field({ description: 'The rule deciding it' }) rule!: string;
  @Field(() => [CollectedWeeklyPoint], { description: 'Oldest first' }) points!: CollectedWeeklyPoint[];
}

@ObjectType({ description: "One index point's own offset from the market level, as a ratio (0.03 = its listings sit 3% above the market), with a 95% band" })
export class ScrapeOffset {
  @Field({ description: 'YYYY-MM: the listing month' }) period!: string;
  @Field(() => Float) offset!: number;
  @Field(() => Float) low!: number;
  @Field(() => Float) high!: number;
}

@ObjectType({ description: "A listing source's own offset (one site's scrape of one season), as a ratio" })
export class SourceOffset {
  @Field({ description: "e.g. 'uybor 2025', 'olx 2024-04'" }) source!: string;
  @Field(() => Float) offset!: number;
}

@ObjectType({ description: "The newest month's level as a reading of every point (a local linear trend with each scrape's offset as noise), relative to the newest point (1.0)" })
export class NewestLevelReading {
  @Field(() => Float, { description: 'Level relative to the newest point (0.97 = 3% below what the newest scrape alone says)' }) index!: number;
  @Field(() => Float, { description: 'Lower bound of the 95% band' }) low!: number;
  @Field(() => Float, { description: 'Upper bound of the 95% band' }) high!: number;
  @Field({ description: "Whether valuations past the newest month hold this reading (true) or the newest point (false): the reading is applied only where its rolling-origin forecasts beat the newest point's at every horizon" }) applied!: boolean;
  @Field({ description: 'How the reading was made' }) method!: string;
}

@ObjectType({ description: 'A comparable listing: one of the flats the residential model trains on, near the flat asked about in features and place (same district), with its asking price as listed and brought to the valuation date by the market index of the model in service. Asking prices, not transaction prices' })
export class ComparableListing {
  @Field({ description: "Where the listing comes from: one site's scrape of one season, e.g. 'uybor 2026-07', 'olx 2024-04'" }) source!: string;
  @Field({ description: 'YYYY-MM: when the price was asked' }) period!: string;
  @Field({ description: 'District (English name): always the district asked about' }) district!: string;
  @Field(() => String, { nullable: true, description: 'Mahalla (Uzbek Latin name) when the listing names one' }) mahalla!: string | null;
  @Field(() => String, { nullable: true, description: 'Mahalla id, e.g. chilanzar/katartal' }) mahallaId!: string | null;
  @Field(() => Float, { description: 'Total area in m²' }) area!: number;
  @Field(() => Int, { nullable: true, description: 'Rooms; null when the listing does not say' }) rooms!: number | null;
  @Field(() => Int, { nullable: true }) floor!: number | null;
  @Field(() => Int, { nullable: true }) totalFloors!: number | null;
  @Field(() => String, { nullable: true, description: 'new or resale; null when the listing does not say' }) market!: string | null;
  @Field(() => String, { nullable: true, description: 'Renovation code (rough, pre_finish, needs_repair, average, good, euro, designer); null when unknown' }) renovation!: string | null;
  @Field(() => String, { nullable: true, description: 'Building type code (panel, brick, monolith, block, wood, other); null when unknown' }) buildingType!: string | null;
  @Field(() => Float, { description: 'Asking price in USD as listed, in its period' }) priceUsd!: number;
  @Field(() => Float, { description: "Asking price in USD brought to the valuation date: priceUsd × the market index's change (its district's zone, its segment) from period to the valuation month, to 100" }) priceAtValuationDateUsd!: number;
  @Field(() => Float, { nullable: true, description: "Great-circle km between the flat and the listing (each at its own point, else its mahalla's centre); null when either has neither" }) distanceKm!: number | null;
  @Field(() => Float, { description: 'How far the listing is from the flat in features and place (lower = closer; the list is ordered by it): see README, Comparable listings' }) score!: number;
}

@ObjectType({ description: 'Training listings of the model version in service in one place: how many, and their median price' })
export class MarketStatistics {
  @Field(() => Int, { description: 'Training listings in the place' }) listings!: number;
  @Field(() => Float, { description: "Median price per m² (USD) of those listings, each brought to the newest month's price level by the market index (versions before 2026.11.19: as listed)" }) medianPricePerM2!: number;
}

@ObjectType({ description: 'Held-out accuracy of the model version in service in one district' })
export class DistrictModelAccuracy {
  @Field({ description: ACCURACY_CLASS_DESCRIPTION }) accuracyClass!: string;
  @Field(() => Int, { description: 'Held-out sales the metrics were measured on' }) n!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.r2 }) r2!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.mape }) mape!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.medianApe }) medianApe!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.intervalCoverage }) intervalCoverage!: number;
}

/**
 * The location subgraph's District entity (it owns the type and resolves the rest of it), extended
 * with what the residential model knows of the district. Key: the English name (DISTRICT_NAMES).
 */
@Directive('@key(fields: "name")')
@ObjectType()
export class District {
  @Field() name!: string;
  // marketStatistics, modelAccuracy: field resolvers (./place-resolvers.ts).
}

/** The location subgraph's Mahalla entity, extended with the market figures of the model in service. Key: id (chilanzar/katartal). */
@Directive('@key(fields: "id")')
@ObjectType()
export class Mahalla {
  @Field() id!: string;
  // marketStatistics: field resolver (./place-resolvers.ts).
}

@ObjectType({ description: 'Where the valuation is anchored. district and mahalla are entities: through the gateway they carry the location subgraph\'s fields (locationIndex, names, centre) too.' })
export class ValuationLocation {
  @Field(() => District) district!: District;
  @Field(() => Mahalla, { nullable: true, description: 'null when no mahalla was given or recognised' }) mahalla!: Mahalla | null;
  @Field({ description: 'District (English name): district.name' }) districtName!: string;
  @Field(() => String, { nullable: true, description: 'Mahalla (Uzbek Latin name) when recognised' }) mahallaName!: string | null;
  @Field(() => String, { nullable: true, description: 'Mahalla id, e.g. chilanzar/katartal: mahalla.id' }) mahallaId!: string | null;
  @Field({ description: "'mahalla' when the mahalla was recognised, else 'district'" }) matched!: string;
}

@ObjectType({ description: 'The value of a home as collateral' })
export class HomeValuation {
  @Field(() => PropertyTypeEnum, { description: 'What was valued: apartment or house' }) propertyType!: PropertyTypeEnum;
  @Field(() => Float, { description: 'Estimated market value' }) estimate!: number;
  @Field({ description: CURRENCY_DESCRIPTION }) currency!: string;
  @Field(() => ExchangeRate, { nullable: true, description: EXCHANGE_RATE_DESCRIPTION }) exchangeRate!: ExchangeRate | null;
  @Field(() => Float, { description: 'Estimate per m² of (floor) area' }) pricePerM2!: number;
  @Field(() => Float, { nullable: true, description: "Houses: the plot alone, per sotka: the land's part of the estimate (estimate × anomaly.landShare ÷ plot), not comparable with anomaly.districtMedianPricePerSotka (whole houses); null for a flat, or a house valued without its plot" })
  landPricePerSotka!: number | null;
  @Field(() => PredictionInterval) interval!: PredictionInterval;
  @Field(() => Float, { description: FSD_DESCRIPTION }) fsd!: number;
  @Field(() => Confidence) confidence!: Confidence;
  @Field(() => [ModelEstimate]) models!: ModelEstimate[];
  @Field(() => AnomalyCheck) anomaly!: AnomalyCheck;
  @Field(() => ValuationLocation) location!: ValuationLocation;
  @Field(() => MarketLevel, { description: MARKET_LEVEL_DESCRIPTION }) marketLevel!: MarketLevel;
  @Field(() => MarketAdjustment, { nullable: true, description: "How the organisation's own observed prices moved this valuation (estimate and interval above are after it); null while it has recorded none" })
  marketAdjustment!: MarketAdjustment | null;
  @Field(() => MarketMixture, { nullable: true, description: MARKET_MIXTURE_DESCRIPTION }) marketMixture!: MarketMixture | null;
  @Field(() => String, { nullable: true, description: "The record of this valuation (GET /api/valuations/{id}, valuation(id)): kept for the organisation that asked; null when there is no organisation or the record store did not answer (a warning says so)" })
  valuationId!: string | null;
  @Field() modelVersion!: string;
  @Field({ description: 'ISO 8601 time of valuation' }) valuedAt!: string;
  @Field(() => [String]) warnings!: string[];
}

@ObjectType({ description: 'An input the bulk query could not value' })
export class ValuationError {
  @Field({ description: 'Error code from the public catalogue, e.g. UNKNOWN_DISTRICT' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true }) field!: string | null;
  @Field(() => [String], { nullable: true }) suggestions!: string[] | null;
}

@ObjectType({ description: 'One item of a bulk valuation: a valuation or an error, in input order' })
export class HomeValuationResult {
  @Field(() => Int) index!: number;
  @Field(() => HomeValuation, { nullable: true }) valuation!: HomeValuation | null;
  @Field(() => ValuationError, { nullable: true }) error!: ValuationError | null;
}

@ObjectType()
export class CoverageBounds extends CoverageBoundsFields {}

/** The shared figures, but r2 never null: the flat model's held-out sets always have one. */
@ObjectType()
export class AccuracyMetrics extends AccuracyMetricsFields {
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.r2 }) declare r2: number;
  @Field(() => CoverageBounds, { nullable: true, description: 'Wilson 95% confidence bounds of intervalCoverage given n (absent for versions before 2026.11.4)' }) intervalCoverageBounds95?: CoverageBounds;
}

@ObjectType()
export class DistrictAccuracy {
  @Field() district!: string;
  @Field(() => AccuracyMetrics) metrics!: AccuracyMetrics;
  @Field({ description: ACCURACY_CLASS_DESCRIPTION }) accuracyClass!: string;
}

@ObjectType()
export class FeatureImportance {
  @Field() feature!: string;
  @Field(() => Float) importance!: number;
}

@ObjectType()
export class EnsembleMember {
  @Field() name!: string;
  @Field() algorithm!: string;
  @Field(() => Float) weight!: number;
}

@ObjectType({ description: 'Held-out accuracy metrics of the house model (r2 null where undefined)' })
export class HouseAccuracyMetrics extends AccuracyMetricsFields {
  @Field(() => CoverageBounds, { nullable: true, description: 'Wilson 95% confidence bounds of intervalCoverage given n' }) intervalCoverageBounds95?: CoverageBounds;
}

@ObjectType({ description: 'The house model in one district: its training houses and held-out accuracy' })
export class HouseDistrictAccuracy {
  @Field({ description: 'District (English name)' }) district!: string;
  @Field(() => Int, { description: 'Training house listings in the district: fewer than minListings and a house there is refused (INSUFFICIENT_MARKET_DATA)' }) listings!: number;
  @Field(() => HouseAccuracyMetrics, { nullable: true, description: 'Leave-one-source-out metrics in the district; null when none were measured' }) metrics!: HouseAccuracyMetrics | null;
  @Field({ description: ACCURACY_CLASS_DESCRIPTION }) accuracyClass!: string;
}

/** What the flat and the house model summaries both begin with: which version, trained when, on what, measured how (never emitted itself: nothing refers to it). */
@ObjectType('ModelVersionFields')
abstract class ModelVersionFields {
  @Field() version!: string;
  @Field() trainedAt!: string;
  @Field({ description: 'Data snapshot the version was trained on' }) dataSnapshot!: string;
  @Field({ description: 'How the headline metrics were measured' }) evaluation!: string;
}

@ObjectType({ description: 'The house model version in service (private houses with their plot) and how good it is on data it never saw' })
export class HouseModel extends ModelVersionFields {
  @Field(() => HouseAccuracyMetrics) metrics!: HouseAccuracyMetrics;
  @Field(() => HouseAccuracyMetrics, { description: 'Leave one source out: each house source valued by a model that never saw it' }) leaveOneSourceOut!: HouseAccuracyMetrics;
  @Field(() => [HouseDistrictAccuracy]) districts!: HouseDistrictAccuracy[];
  @Field(() => [EnsembleMember]) members!: EnsembleMember[];
  @Field(() => Float) intervalCoverage!: number;
  @Field(() => Int, { description: 'A district with fewer training house listings than this is refused (INSUFFICIENT_MARKET_DATA)' }) minListings!: number;
}

@ObjectType({ description: 'The residential model version in service and how good it is on data it never saw' })
export class ResidentialModel extends ModelVersionFields {
  @Field(() => AccuracyMetrics) metrics!: AccuracyMetrics;
  @Field(() => [DistrictAccuracy]) districts!: DistrictAccuracy[];
  @Field(() => [FeatureImportance]) featureImportance!: FeatureImportance[];
  @Field(() => [EnsembleMember]) members!: EnsembleMember[];
  @Field(() => Float) intervalCoverage!: number;
  @Field(() => HouseModel, { nullable: true, description: 'The house model in service; null when none is (houses are then refused with INSUFFICIENT_MARKET_DATA)' }) houses!: HouseModel | null;
}
