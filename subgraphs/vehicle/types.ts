/**
 * GraphQL types of the vehicle subgraph (type-graphql classes). The valuation has the shape of the
 * home one (estimate, interval, confidence, models, anomaly): the shared fields come from
 * ../common/valuation-types.ts, under vehicle names (see there why).
 */
import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { MARKET_LEVEL_DESCRIPTION } from '../../schema/home-contract';
import { graphqlDescription } from '../../schema/field-table';
import { VALUED_VEHICLE_DESCRIPTION, VALUED_VEHICLE_DESCRIPTIONS, VEHICLE_BASIS_DESCRIPTION, VEHICLE_FIELDS, VEHICLE_SEGMENTS } from '../../schema/vehicle-contract';
import { MarketAdjustment } from '../common/observation-recording';
import { CurrencyEnum, ExchangeRate } from '../common/currency';
import { CURRENCY_DESCRIPTION, EXCHANGE_RATE_DESCRIPTION } from '../../schema/currency-contract';
import { ACCURACY_CLASS_DESCRIPTION, MODEL_SPREAD_DESCRIPTION } from '../../schema/ensemble-contract';
import {
  AccuracyMetricsFields, ConfidenceFields, CONFIDENCE_DESCRIPTION, FSD_DESCRIPTION, CoverageBoundsFields, EnsembleMemberFields, FeatureImportanceFields,
  ItemErrorFields, MarketLevelFields, ModelEstimateFields, PredictionIntervalFields,
} from '../common/valuation-types';

/** The field table's description of a GraphQL input field, with its range: one wording on every surface. */
const describe = (graphql: string): string => graphqlDescription(VEHICLE_FIELDS, graphql);

@InputType({ description: 'A used car, van or truck. Names (make, model, body, gearbox, fuel, drive, condition, paint, colour, region) accept English, Uzbek Latin or Cyrillic and Russian spellings, and avtoelon.uz\'s own words; an optional name that is not recognised is ignored with a warning. No personal data (no VIN, no number plate).' })
export class VehicleValuationInput {
  // Declared, not defined, as HomeValuationInput's (subgraphs/residential/types.ts): type-graphql builds each input
  // from an instance and deletes the fields the client left out, which leaves a slow dictionary-mode object.
  @Field(() => String, { description: describe('make') }) declare make: string;
  @Field(() => String, { description: describe('model') }) declare model: string;
  @Field(() => Int, { description: describe('year') }) declare year: number;
  @Field(() => Int, { nullable: true, description: describe('mileage') }) declare mileage?: number | null;
  @Field(() => String, { nullable: true, description: describe('bodyType') }) declare bodyType?: string | null;
  @Field(() => String, { nullable: true, description: describe('transmission') }) declare transmission?: string | null;
  @Field(() => String, { nullable: true, description: describe('fuel') }) declare fuel?: string | null;
  @Field(() => String, { nullable: true, description: describe('drive') }) declare drive?: string | null;
  @Field(() => String, { nullable: true, description: describe('condition') }) declare condition?: string | null;
  @Field(() => String, { nullable: true, description: describe('paint') }) declare paint?: string | null;
  @Field(() => String, { nullable: true, description: describe('colour') }) declare colour?: string | null;
  @Field(() => String, { nullable: true, description: describe('region') }) declare region?: string | null;
  @Field(() => Float, { nullable: true, description: describe('engine') }) declare engine?: number | null;
  @Field(() => String, { nullable: true, description: describe('engineText') }) declare engineText?: string | null;
  @Field(() => Int, { nullable: true, description: describe('trim') }) declare trim?: number | null;
  @Field(() => String, { nullable: true, description: describe('valuationDate') }) declare valuationDate?: string | null;
  @Field(() => Float, { nullable: true, description: describe('askingPrice') }) declare askingPrice?: number | null;
  @Field(() => CurrencyEnum, { nullable: true, description: describe('currency') }) declare currency?: CurrencyEnum | null;
  @Field(() => Float, { nullable: true, description: describe('exchangeRate') }) declare exchangeRate?: number | null;
}

@ObjectType({ description: 'A calibrated prediction interval' })
export class VehiclePredictionInterval extends PredictionIntervalFields {}

@ObjectType({ description: CONFIDENCE_DESCRIPTION })
export class VehicleConfidence extends ConfidenceFields {}

@ObjectType({ description: "One ensemble member's own estimate" })
export class VehicleModelEstimate extends ModelEstimateFields {}

@ObjectType({ description: 'Data for checking the estimate against the market and the training data' })
export class VehicleAnomalyCheck {
  @Field(() => Float, { nullable: true, description: 'Median asking price (in currency) of the same make, model and model year in the training data; null when none was seen' })
  groupMedianPrice!: number | null;
  @Field(() => Float, { nullable: true, description: 'Estimate relative to that median, e.g. 0.05 = 5% above; null without a median' })
  deviationFromGroupMedian!: number | null;
  @Field(() => Int, { description: 'Training listings of this make and model (all years): how much market data backs the estimate' })
  marketListings!: number;
  @Field(() => Float, { description: MODEL_SPREAD_DESCRIPTION })
  modelSpread!: number;
  @Field(() => [String], { description: 'Reasons to look twice, e.g. THIN_MODEL_DATA, UNUSUAL_MILEAGE, FAR_FROM_GROUP_MEDIAN, ASKING_PRICE_ABOVE_INTERVAL' })
  flags!: string[];
}

@ObjectType({ description: VALUED_VEHICLE_DESCRIPTION })
export class ValuedVehicle {
  @Field({ description: VALUED_VEHICLE_DESCRIPTIONS.make }) make!: string;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.model }) model!: string | null;
  @Field(() => Int) year!: number;
  @Field(() => Int, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.trim }) trim!: number | null;
  @Field(() => Float, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.engine }) engine!: number | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.fuel }) fuel!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.transmission }) transmission!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.bodyType }) bodyType!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.drive }) drive!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.region }) region!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.condition }) condition!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.paint }) paint!: string | null;
  @Field(() => String, { nullable: true, description: VALUED_VEHICLE_DESCRIPTIONS.colour }) colour!: string | null;
}

@ObjectType({ description: MARKET_LEVEL_DESCRIPTION })
export class VehicleMarketLevel extends MarketLevelFields {}

@ObjectType({ description: 'The value of a vehicle as collateral' })
export class VehicleValuation {
  @Field(() => Float, { description: 'Estimated market value' }) estimate!: number;
  @Field({ description: CURRENCY_DESCRIPTION }) currency!: string;
  @Field(() => ExchangeRate, { nullable: true, description: EXCHANGE_RATE_DESCRIPTION }) exchangeRate!: ExchangeRate | null;
  @Field(() => VehiclePredictionInterval) interval!: VehiclePredictionInterval;
  @Field(() => Float, { description: FSD_DESCRIPTION }) fsd!: number;
  @Field(() => VehicleConfidence) confidence!: VehicleConfidence;
  @Field(() => [VehicleModelEstimate]) models!: VehicleModelEstimate[];
  @Field(() => VehicleAnomalyCheck) anomaly!: VehicleAnomalyCheck;
  @Field(() => ValuedVehicle) vehicle!: ValuedVehicle;
  @Field({ description: VEHICLE_BASIS_DESCRIPTION }) basis!: string;
  @Field(() => VehicleMarketLevel, { description: MARKET_LEVEL_DESCRIPTION }) marketLevel!: VehicleMarketLevel;
  @Field(() => MarketAdjustment, { nullable: true, description: "How the organisation's own observed prices moved this valuation (estimate and interval above are after it); null while it has recorded none" })
  marketAdjustment!: MarketAdjustment | null;
  @Field(() => String, { nullable: true, description: "The record of this valuation (GET /api/valuations/{id}, valuation(id)): kept for the organisation that asked; null when there is no organisation or the record store did not answer (a warning says so)" })
  valuationId!: string | null;
  @Field() modelVersion!: string;
  @Field({ description: 'ISO 8601 time of valuation' }) valuedAt!: string;
  @Field(() => [String]) warnings!: string[];
}

@ObjectType({ description: 'An input the bulk query could not value, e.g. UNKNOWN_VEHICLE or INSUFFICIENT_MARKET_DATA' })
export class VehicleValuationError extends ItemErrorFields {}

@ObjectType({ description: 'One item of a bulk valuation: a valuation or an error, in input order' })
export class VehicleValuationResult {
  @Field(() => Int) index!: number;
  @Field(() => VehicleValuation, { nullable: true }) valuation!: VehicleValuation | null;
  @Field(() => VehicleValuationError, { nullable: true }) error!: VehicleValuationError | null;
}

@ObjectType({ description: 'First and last model year seen' })
export class VehicleYearRange {
  @Field(() => Int) from!: number;
  @Field(() => Int) to!: number;
}

@ObjectType({ description: 'A model of the catalogue and its market data' })
export class VehicleModelListing {
  @Field({ description: 'Canonical model name' }) model!: string;
  @Field(() => Int, { description: 'Training listings of the model version in service' }) listings!: number;
  @Field(() => VehicleYearRange, { nullable: true, description: 'Model years seen in those listings; null when none' }) years!: VehicleYearRange | null;
  @Field(() => String, { nullable: true, description: 'How a request for it is valued: model, make or segment (see VehicleValuation.basis); null when it cannot be (INSUFFICIENT_MARKET_DATA)' }) basis!: string | null;
  @Field(() => String, { nullable: true, description: 'Accuracy class of its forward-in-time evaluation: high, good, fair or low, best first, from its MAPE and R² (low where it has too few rows to tell); null from a model version that does not record it' }) accuracyClass!: string | null;
}

@ObjectType({ description: 'A make of the catalogue, its models and their market data' })
export class VehicleMake {
  @Field({ description: 'Canonical make name' }) make!: string;
  @Field(() => Int, { description: 'Training listings of the make, all models' }) listings!: number;
  @Field(() => [VehicleModelListing]) models!: VehicleModelListing[];
  @Field(() => String, { nullable: true, description: 'How a model of this make that is not listed, or too thin to stand alone, is valued: make or segment; null when it is refused (INSUFFICIENT_MARKET_DATA)' }) otherModels!: string | null;
}

@ObjectType({ description: 'One point of the vehicle market index: the asking-price level of a period relative to the newest' })
export class VehicleMarketIndexPoint {
  @Field({ description: 'YYYY-MM: the listing period' }) period!: string;
  @Field(() => Float, { description: "Price level of a like-for-like car relative to the newest period (1.0 there)" }) index!: number;
  @Field(() => Float, { description: 'Lower bound of the 95% band of index' }) low!: number;
  @Field(() => Float, { description: 'Upper bound of the 95% band of index' }) high!: number;
  @Field(() => Int, { description: "Listings of the segment in that period" }) listings!: number;
}

@ObjectType({ description: 'The measured move of the level between two consecutive snapshots' })
export class VehicleMarketMove {
  @Field({ description: 'YYYY-MM' }) from!: string;
  @Field({ description: 'YYYY-MM' }) to!: string;
  @Field(() => Float, { description: 'Change of the log price level per year between them (0.05 ≈ 5% a year)' }) change!: number;
}

@ObjectType({ description: 'The market index of one segment of makes behind the vehicle model in service: how asking prices of like-for-like cars moved over time' })
export class VehicleMarketIndexSeries {
  @Field({ description: `Segment: ${VEHICLE_SEGMENTS.join(', ')} (domestic: Chevrolet, Daewoo, Ravon; russian: Lada, GAZ, UAZ, Moskvich …; foreign: every other make)` }) segment!: string;
  @Field(() => [String], { description: 'The makes the segment holds in the training data' }) makes!: string[];
  @Field(() => [VehicleMarketIndexPoint], { description: 'One point per period with data, oldest first' }) points!: VehicleMarketIndexPoint[];
  @Field(() => [VehicleMarketMove], { description: 'Measured move of the level per year between consecutive snapshots' }) movesPerYear!: VehicleMarketMove[];
}

@ObjectType()
export class VehicleCoverageBounds extends CoverageBoundsFields {}

@ObjectType()
export class VehicleAccuracyMetrics extends AccuracyMetricsFields {
  @Field(() => VehicleCoverageBounds, { nullable: true, description: 'Wilson 95% confidence bounds of intervalCoverage given n' })
  intervalCoverageBounds95?: VehicleCoverageBounds;
}

@ObjectType({ description: 'Held-out accuracy for one make/model group' })
export class VehicleGroupAccuracy {
  @Field({ description: 'Make and model, e.g. Chevrolet Cobalt (Daewoo and Ravon count under Chevrolet)' }) group!: string;
  @Field(() => VehicleAccuracyMetrics) metrics!: VehicleAccuracyMetrics;
  @Field({ description: ACCURACY_CLASS_DESCRIPTION }) accuracyClass!: string;
}

@ObjectType()
export class VehicleFeatureImportance extends FeatureImportanceFields {}

@ObjectType()
export class VehicleEnsembleMember extends EnsembleMemberFields {}

@ObjectType({ description: 'The vehicle model version in service and how good it is on data it never saw' })
export class VehicleModelInfo {
  @Field() version!: string;
  @Field() trainedAt!: string;
  @Field({ description: 'Data snapshot the version was trained on' }) dataSnapshot!: string;
  @Field({ description: 'How the headline metrics were measured' }) evaluation!: string;
  @Field(() => VehicleAccuracyMetrics) metrics!: VehicleAccuracyMetrics;
  @Field(() => [VehicleGroupAccuracy], { description: 'Per make/model group of the headline evaluation, with counts (metrics.n)' }) groups!: VehicleGroupAccuracy[];
  @Field(() => [VehicleFeatureImportance]) featureImportance!: VehicleFeatureImportance[];
  @Field(() => [VehicleEnsembleMember]) members!: VehicleEnsembleMember[];
  @Field(() => Float) intervalCoverage!: number;
}
