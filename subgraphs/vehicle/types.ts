/**
 * GraphQL types of the vehicle subgraph (type-graphql classes). The valuation has the shape of the
 * home one (estimate, interval, confidence, models, anomaly): the shared fields come from
 * ../common/valuation-types.ts, under vehicle names (see there why).
 */
import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { VEHICLE_FIELDS } from '../../schema/vehicle-contract';
import {
  AccuracyMetricsFields, ConfidenceFields, CoverageBoundsFields, EnsembleMemberFields, FeatureImportanceFields,
  ItemErrorFields, ModelEstimateFields, PredictionIntervalFields,
} from '../common/valuation-types';

/** The field table's description of a GraphQL input field, with its range: one wording on every surface. */
function describe(graphql: string): string {
  const f = VEHICLE_FIELDS.find((field) => field.graphql === graphql)!;
  return f.min !== undefined && f.max !== undefined ? `${f.description} (${f.min.toLocaleString('en')} to ${f.max.toLocaleString('en')})` : f.description;
}

@InputType({ description: 'A used car, van or truck. Names (make, model, body, gearbox, fuel, drive, condition, region) accept English, Uzbek Latin or Cyrillic and Russian spellings. No personal data (no VIN, no number plate).' })
export class VehicleValuationInput {
  @Field({ description: describe('make') }) make!: string;
  @Field({ description: describe('model') }) model!: string;
  @Field(() => Int, { description: describe('year') }) year!: number;
  @Field(() => Int, { nullable: true, description: describe('mileage') }) mileage?: number | null;
  @Field(() => String, { nullable: true, description: describe('bodyType') }) bodyType?: string | null;
  @Field(() => String, { nullable: true, description: describe('transmission') }) transmission?: string | null;
  @Field(() => String, { nullable: true, description: describe('fuel') }) fuel?: string | null;
  @Field(() => String, { nullable: true, description: describe('drive') }) drive?: string | null;
  @Field(() => String, { nullable: true, description: describe('condition') }) condition?: string | null;
  @Field(() => String, { nullable: true, description: describe('region') }) region?: string | null;
  @Field(() => Float, { nullable: true, description: describe('engine') }) engine?: number | null;
  @Field(() => Int, { nullable: true, description: describe('trim') }) trim?: number | null;
  @Field(() => Float, { nullable: true, description: describe('askingPrice') }) askingPrice?: number | null;
}

@ObjectType({ description: 'A calibrated prediction interval' })
export class VehiclePredictionInterval extends PredictionIntervalFields {}

@ObjectType()
export class VehicleConfidence extends ConfidenceFields {}

@ObjectType({ description: "One ensemble member's own estimate" })
export class VehicleModelEstimate extends ModelEstimateFields {}

@ObjectType({ description: 'Data for checking the estimate against the market and the training data' })
export class VehicleAnomalyCheck {
  @Field(() => Float, { nullable: true, description: 'Median asking price (USD) of the same make, model and model year in the training data; null when none was seen' })
  groupMedianPrice!: number | null;
  @Field(() => Float, { nullable: true, description: 'Estimate relative to that median, e.g. 0.05 = 5% above; null without a median' })
  deviationFromGroupMedian!: number | null;
  @Field(() => Int, { description: 'Training listings of this make and model (all years): how much market data backs the estimate' })
  marketListings!: number;
  @Field(() => Float, { description: 'Spread of the ensemble members, relative to the estimate' })
  modelSpread!: number;
  @Field(() => [String], { description: 'Reasons to look twice, e.g. THIN_MODEL_DATA, UNUSUAL_MILEAGE, FAR_FROM_GROUP_MEDIAN, ASKING_PRICE_ABOVE_INTERVAL' })
  flags!: string[];
}

@ObjectType({ description: 'The vehicle valued, as the catalogue names it' })
export class ValuedVehicle {
  @Field({ description: 'Canonical make, e.g. Chevrolet for "Шевроле"' }) make!: string;
  @Field({ description: 'Canonical model, e.g. Cobalt for "кобальт"' }) model!: string;
  @Field(() => Int) year!: number;
}

@ObjectType({ description: 'The value of a vehicle as collateral' })
export class VehicleValuation {
  @Field(() => Float, { description: 'Estimated market value' }) estimate!: number;
  @Field() currency!: string;
  @Field(() => VehiclePredictionInterval) interval!: VehiclePredictionInterval;
  @Field(() => VehicleConfidence) confidence!: VehicleConfidence;
  @Field(() => [VehicleModelEstimate]) models!: VehicleModelEstimate[];
  @Field(() => VehicleAnomalyCheck) anomaly!: VehicleAnomalyCheck;
  @Field(() => ValuedVehicle) vehicle!: ValuedVehicle;
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
}

@ObjectType({ description: 'A make of the catalogue, its models and their market data' })
export class VehicleMake {
  @Field({ description: 'Canonical make name' }) make!: string;
  @Field(() => Int, { description: 'Training listings of the make, all models' }) listings!: number;
  @Field(() => [VehicleModelListing]) models!: VehicleModelListing[];
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
  @Field({ description: 'high, medium, moderate or low' }) accuracyClass!: string;
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
