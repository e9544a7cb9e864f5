/** GraphQL types of the valuations subgraph (type-graphql classes): the records of valuations given, for review (issue 19). */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum ValuationKindEnum {
  HOME = 'home',
  VEHICLE = 'vehicle',
}
registerEnumType(ValuationKindEnum, { name: 'ValuationKind', description: 'What was valued: a home (flat or house) or a vehicle' });

@ObjectType({ description: 'A valuation as it was given: what was asked, what was answered, with which model, when; kept for the organisation that asked' })
export class ValuationRecordType {
  @Field({ description: 'val_ + a ULID: the valuation_id of the reply' }) id!: string;
  @Field(() => ValuationKindEnum) kind!: ValuationKindEnum;
  @Field({ description: 'ISO 8601 time the valuation was made' }) createdAt!: string;
  @Field({ description: "YYYY-MM-DD: kept until this day (the organisation's plan)" }) keepUntil!: string;
  @Field(() => String, { nullable: true, description: "The gateway's request id of the call that asked" }) requestId!: string | null;
  @Field() modelVersion!: string;
  @Field(() => Float) estimate!: number;
  @Field() currency!: string;
  @Field(() => Float) intervalLow!: number;
  @Field(() => Float) intervalHigh!: number;
  @Field({ description: 'YYYY-MM-DD: the date the value was for' }) valuationDate!: string;
  @Field(() => GraphQLJSONObject, { description: 'The request as the service understood it (canonical codes: the model\'s inputs)' }) input!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: 'The valuation as answered, whole (GraphQL field names: estimate, interval, confidence, anomaly, marketLevel, marketAdjustment, marketMixture, …)' }) valuation!: Record<string, unknown>;
}

@ObjectType({ description: 'What moved a valuation between its record and today, as ratios (1 = no change): estimate now = estimate before × model × market × observations × exchangeRate, up to rounding' })
export class ValuationChange {
  @Field(() => Float) estimateBefore!: number;
  @Field(() => Float) estimateNow!: number;
  @Field(() => Float, { description: 'estimateNow / estimateBefore' }) ratio!: number;
  @Field() modelVersionBefore!: string;
  @Field() modelVersionNow!: string;
  @Field() valuationDateBefore!: string;
  @Field() valuationDateNow!: string;
  @Field(() => Float, { description: "The model change: today's model at the old valuation date over the old model's own estimate (both before any adjustment)" }) model!: number;
  @Field(() => Float, { description: "The market: today's model today over today's model at the old date (the market index and the months between)" }) market!: number;
  @Field(() => Float, { description: "The organisation's observations: today's adjusted estimate over today's model, divided by the same ratio at the old valuation" }) observations!: number;
  @Field(() => Float, { description: 'Answered in soʻm: the USD/UZS rate now over the rate then (1 in USD)' }) exchangeRate!: number;
  @Field({ description: 'The change in words' }) explanation!: string;
}

@ObjectType({ description: 'A record valued again with the model in service, beside the old one' })
export class Revaluation {
  @Field(() => ValuationRecordType) previous!: ValuationRecordType;
  @Field(() => ValuationRecordType, { description: 'The new valuation (recorded in its turn)' }) current!: ValuationRecordType;
  @Field(() => ValuationChange) change!: ValuationChange;
}

@ObjectType({ description: "A random sample of the organisation's valuations of a period, for review (the 2024 interagency AVM rule's random-sample testing)" })
export class ValuationSample {
  @Field({ description: 'YYYY-MM-DD' }) since!: string;
  @Field({ description: 'YYYY-MM-DD' }) until!: string;
  @Field(() => Int, { description: 'Valuations made in the period' }) population!: number;
  @Field({ description: 'The seed the sample was drawn with: the same seed on the same period draws the same sample' }) seed!: string;
  @Field(() => [ValuationRecordType], { description: 'Oldest first' }) records!: ValuationRecordType[];
}

@ObjectType({ description: "A page of the organisation's valuation records, newest first" })
export class ValuationPage {
  @Field(() => [ValuationRecordType]) records!: ValuationRecordType[];
  @Field(() => String, { nullable: true, description: 'Pass as `before` for the next page; null on the last' }) next!: string | null;
}
