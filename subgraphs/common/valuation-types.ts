/**
 * GraphQL fields every valuation subgraph shares (type-graphql classes): a subgraph extends them
 * under names of its own (`class VehiclePredictionInterval extends PredictionIntervalFields {}`),
 * since in a federated graph a value type of one name defined by two subgraphs must be marked
 * @shareable in both. These base classes are never emitted themselves: nothing refers to them.
 */
import { MEMBER_WEIGHT_DESCRIPTION, METRIC_DESCRIPTIONS } from '../../schema/ensemble-contract';
import { Rounded } from './rounded';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MARKET_LEVEL_DESCRIPTIONS } from '../../schema/home-contract';

/** The ensemble's confidence levels (models/ensemble/confidence.ts); an enum of one name and values composes across subgraphs. */
export enum ConfidenceLevelEnum {
  high = 'high',
  medium = 'medium',
  low = 'low',
}
registerEnumType(ConfidenceLevelEnum, { name: 'ConfidenceLevel', description: 'How far a bank can rely on the estimate' });

@ObjectType('PredictionIntervalFields')
export abstract class PredictionIntervalFields {
  @Field(() => Float) low!: number;
  @Field(() => Float) high!: number;
  @Field(() => Float, { description: 'Share of true prices the interval should contain, and does on held-out data' })
  coverage!: number;
}

/** A valuation's fsd (models/ensemble/fsd.ts). */
export const FSD_DESCRIPTION = 'Forecast standard deviation: the sd of the log error that the calibrated interval implies, ln(high / low) / (2 × 1.645) for a 90% interval; about 68% of prices fall within ±fsd of the estimate (in log terms)';
export const CONFIDENCE_DESCRIPTION = 'How far to trust the estimate, as the industry states it: from the fsd its calibrated interval implies';

@ObjectType('ConfidenceFields')
export abstract class ConfidenceFields {
  @Field(() => ConfidenceLevelEnum, { description: 'high: fsd ≤ 0.15; medium: ≤ 0.30; low: above' }) level!: ConfidenceLevelEnum;
  @Field(() => Float, { description: '1 − fsd (0 to 1)' }) score!: number;
  @Field(() => [String], { description: "Why the interval, and so the level, is what it is: the fsd and the interval first, then the data's age, the group's held-out accuracy, the ensemble's disagreement, anomaly flags, a re-anchoring on the organisation's prices" }) drivers!: string[];
}

@ObjectType('ModelEstimateFields')
export abstract class ModelEstimateFields {
  @Field() name!: string;
  @Field(() => Float, { description: "This member's own estimate (USD, or the reply's currency)" }) estimate!: number;
  @Field(() => Float, { description: MEMBER_WEIGHT_DESCRIPTION }) weight!: number;
}

/** What a bulk item gets in place of a result: a catalogue error. */
@ObjectType('ItemErrorFields')
export abstract class ItemErrorFields {
  @Field({ description: 'Error code from the public catalogue (schema/errors.ts)' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true, description: 'The input field at fault, in its REST (snake_case) name' }) field!: string | null;
  @Field(() => [String], { nullable: true }) suggestions!: string[] | null;
}

@ObjectType('CoverageBoundsFields')
export abstract class CoverageBoundsFields {
  @Rounded() @Field(() => Float) low!: number;
  @Rounded() @Field(() => Float) high!: number;
}

/** models/ensemble/metrics.ts AccuracyMetrics, but its Wilson bounds (a type of the subgraph's own: intervalCoverageBounds95). */
@ObjectType('AccuracyMetricsFields')
export abstract class AccuracyMetricsFields {
  @Field(() => Int) n!: number;
  @Rounded() @Field(() => Float, { nullable: true, description: `${METRIC_DESCRIPTIONS.r2}; null where it is undefined: fewer than two sales, or all at one price` }) r2!: number | null;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.mape }) mape!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.medianApe }) medianApe!: number;
  @Rounded(0) @Field(() => Float, { description: METRIC_DESCRIPTIONS.maeUsd }) maeUsd!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.ppe10 }) ppe10!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.ppe20 }) ppe20!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.intervalCoverage }) intervalCoverage!: number;
  @Rounded() @Field(() => Float, { description: METRIC_DESCRIPTIONS.medianIntervalWidth }) medianIntervalWidth!: number;
}

@ObjectType('FeatureImportanceFields')
export abstract class FeatureImportanceFields {
  @Field() feature!: string;
  @Field(() => Float) importance!: number;
}

@ObjectType('EnsembleMemberFields')
export abstract class EnsembleMemberFields {
  @Field() name!: string;
  @Field() algorithm!: string;
  @Field(() => Float) weight!: number;
}

/** models/residential/valuation.ts MarketLevel: the market level an estimate is at (homes: MarketLevel, vehicles: VehicleMarketLevel). */
@ObjectType('MarketLevelFields')
export abstract class MarketLevelFields {
  @Field({ description: MARKET_LEVEL_DESCRIPTIONS.valuationDate }) valuationDate!: string;
  @Field({ description: MARKET_LEVEL_DESCRIPTIONS.newestDataPeriod }) newestDataPeriod!: string;
  @Field(() => Int, { description: MARKET_LEVEL_DESCRIPTIONS.dataAgeMonths }) dataAgeMonths!: number;
  @Field(() => Int, { description: MARKET_LEVEL_DESCRIPTIONS.dataAgeDays }) dataAgeDays!: number;
  @Field(() => Float, { description: MARKET_LEVEL_DESCRIPTIONS.indexRatio }) indexRatio!: number;
  @Field(() => Float, { description: MARKET_LEVEL_DESCRIPTIONS.intervalWidening }) intervalWidening!: number;
}
