/** GraphQL types of the observations subgraph (type-graphql classes): the public face of banks' observed prices. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { MAX_REJECTED_LISTED } from '../../schema/observations-contract';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum ObservationKindEnum {
  HOME = 'home',
  VEHICLE = 'vehicle',
}
registerEnumType(ObservationKindEnum, { name: 'ObservationKind', description: 'What was priced: a home (flat or house) or a vehicle' });

export enum PriceTypeEnum {
  SALE = 'sale',
  APPRAISAL = 'appraisal',
  LISTING = 'listing',
}
registerEnumType(PriceTypeEnum, { name: 'PriceType', description: 'How the price came about: a completed sale, an appraisal the bank commissioned, or an asking price it watched' });

@InputType({ description: 'One price the organisation observed, with the fields of the matching valuation request. No personal data (the same refusal as valuations).' })
export class ObservationInput {
  @Field(() => ObservationKindEnum) kind!: ObservationKindEnum;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'kind HOME: the fields of HomeValuationInput (district, area, rooms, floor, totalFloors, market, …; valuationDate is the observation date)' })
  home?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'kind VEHICLE: the fields of VehicleValuationInput (make, model, year, mileage, …)' })
  vehicle?: Record<string, unknown> | null;
  @Field(() => Float, { description: 'The observed price in USD' }) priceUsd!: number;
  @Field({ description: 'YYYY-MM-DD: when the price was seen (not in the future, not older than the retention)' }) observedAt!: string;
  @Field(() => PriceTypeEnum, { nullable: true, description: 'Default LISTING' }) priceType?: PriceTypeEnum | null;
  @Field(() => String, { nullable: true, description: "The organisation's own id for it (a loan or deal number; no personal data), echoed back; at most 128 characters" })
  reference?: string | null;
}

@InputType()
export class RecordObservationsInput {
  @Field(() => [ObservationInput], { description: "Up to the plan's batch size per call" }) observations!: ObservationInput[];
}

@ObjectType({ description: 'Why an observation was not kept' })
export class ObservationError {
  @Field({ description: 'Error code from the public catalogue, e.g. INVALID_PARAMETER or UNKNOWN_DISTRICT' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true, description: "The field at fault, as REST names it (observed_at, area, …)" }) field!: string | null;
}

@ObjectType()
export class RejectedObservation {
  @Field(() => Int, { description: 'Its place in the input list' }) index!: number;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => ObservationError) error!: ObservationError;
}

@ObjectType()
export class AcceptedObservation {
  @Field(() => Int, { description: 'Its place in the input list' }) index!: number;
  @Field({ description: 'The id it is kept under' }) id!: string;
  @Field(() => String, { nullable: true }) reference!: string | null;
}

@ObjectType({ description: "What became of a call: the kept ones re-anchor the organisation's valuations of their kind at once" })
export class RecordObservationsResult {
  @Field(() => Int) accepted!: number;
  @Field(() => [AcceptedObservation]) acceptedObservations!: AcceptedObservation[];
  @Field(() => [RejectedObservation], { description: `The first ${MAX_REJECTED_LISTED.toLocaleString('en')} refused items, each in its place (rejectedCount counts them all); the others were kept` }) rejected!: RejectedObservation[];
  @Field(() => Int, { description: 'How many items were refused, listed in rejected or not' }) rejectedCount!: number;
}

@ObjectType({ description: "What became of a retraction: the observations removed no longer re-anchor the organisation's valuations (refitted at once)" })
export class RetractObservationsResult {
  @Field(() => Int) retracted!: number;
  @Field(() => [ID], { description: 'The ids removed, in the order asked' }) retractedIds!: string[];
  @Field(() => [ID], { description: "The ids the organisation holds no observation under (never recorded, already retracted, or another organisation's)" }) notFound!: string[];
}

@ObjectType({ description: 'One observed price as kept, scored against the model at its date' })
export class Observation {
  @Field() id!: string;
  @Field(() => ObservationKindEnum) kind!: ObservationKindEnum;
  @Field() observedAt!: string;
  @Field({ description: 'ISO 8601 time it was recorded' }) recordedAt!: string;
  @Field(() => Float) priceUsd!: number;
  @Field(() => PriceTypeEnum) priceType!: PriceTypeEnum;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => [String], { description: 'Its groups, top first: city, district, segment (homes); all, make, model (vehicles)' }) groups!: string[];
  @Field(() => Float, { nullable: true, description: "The model's estimate at observedAt, before any adjustment" }) baseEstimate!: number | null;
  @Field(() => Float, { nullable: true }) baseLow!: number | null;
  @Field(() => Float, { nullable: true }) baseHigh!: number | null;
  @Field(() => String, { nullable: true }) modelVersion!: string | null;
  @Field(() => GraphQLJSONObject, { description: 'The valuation request as understood' }) input!: Record<string, unknown>;
}

@ObjectType({ description: "One group's market factor and interval calibration" })
export class MarketAdjustmentGroup {
  @Field({ description: 'e.g. "Tashkent › Chilanzar › resale"' }) group!: string;
  @Field({ description: 'city, district or segment (homes); all, make or model (vehicles)' }) level!: string;
  @Field(() => Float, { description: 'Valuations in the group are multiplied by it' }) factor!: number;
  @Field(() => Int) observations!: number;
  @Field(() => Float, { description: "Kish's effective count of the recency weights" }) effectiveObservations!: number;
  @Field(() => Float, { description: "Share of the factor from the group's own observations; the rest from the level above" }) shrinkage!: number;
  @Field(() => Float, { nullable: true, description: "The recalibrated interval's half-width in units of the model's own, for a valuation within the model's data (at least 0.5; past the data, the model's allowance for the market's move is not floored); null: too few observations, the model's interval stands" })
  intervalWidthRatio!: number | null;
}

@ObjectType({ description: "What the organisation's observations of one kind do to its valuations" })
export class MarketAdjustments {
  @Field(() => ObservationKindEnum) kind!: ObservationKindEnum;
  @Field({ description: 'YYYY-MM-DD: fitted as of' }) asOf!: string;
  @Field(() => Int, { description: 'Observations fitted on' }) observations!: number;
  @Field(() => Float, { description: 'Half-life of the recency weights' }) halfLifeDays!: number;
  @Field(() => Float, { description: 'Coverage of the recalibrated intervals' }) coverage!: number;
  @Field(() => Int, { description: 'Effective observations a group needs before its interval is recalibrated' }) minRecalibrationObservations!: number;
  @Field(() => [MarketAdjustmentGroup], { description: 'Top level first' }) groups!: MarketAdjustmentGroup[];
}

@ObjectType({ description: 'How valuations compared with the prices observed for the same homes or vehicles' })
export class AccuracyMeasures {
  @Field(() => Int) observations!: number;
  @Field(() => Float, { description: 'Recency-weighted count' }) effectiveObservations!: number;
  @Field(() => Float, { description: 'Median |valuation − price| / price' }) medianApe!: number;
  @Field(() => Float, { description: 'Share of valuations within ±10% of the price' }) within10!: number;
  @Field(() => Float, { description: 'Median log(price / valuation): positive when valuations were low (0.05 ≈ prices 5% above them)' }) medianBias!: number;
  @Field(() => Float, { description: 'Recency-weighted mean log(price / valuation)' }) meanBias!: number;
  @Field(() => Float, { nullable: true, description: 'Its 95% interval: low (null below two observations)' }) meanBiasLow!: number | null;
  @Field(() => Float, { nullable: true, description: 'Its 95% interval: high' }) meanBiasHigh!: number | null;
  @Field(() => Float, { description: 'Share of prices inside the valuation interval' }) coverage!: number;
  @Field(() => Float, { description: 'Wilson 95% interval of coverage: low' }) coverageLow!: number;
  @Field(() => Float, { description: 'Wilson 95% interval of coverage: high' }) coverageHigh!: number;
}

@ObjectType({ description: 'The drift rule applied to the service’s valuations (see LiveAccuracyReport.driftRule)' })
export class DriftVerdictView {
  @Field({ description: 'Whether there were enough observations to judge' }) judged!: boolean;
  @Field() flagged!: boolean;
  @Field(() => String, { nullable: true, description: '"valuations low" (prices observed above them) or "valuations high"' }) bias!: string | null;
  @Field(() => String, { nullable: true, description: '"under" or "over" the band' }) coverage!: string | null;
  @Field(() => [String]) reasons!: string[];
}

@ObjectType()
export class GroupLiveAccuracy {
  @Field({ description: 'e.g. "Tashkent › Chilanzar"' }) group!: string;
  @Field(() => AccuracyMeasures, { description: 'The valuations the service gave: the model adjusted by what the organisation had recorded before' }) service!: AccuracyMeasures;
  @Field(() => AccuracyMeasures, { description: 'The model alone' }) base!: AccuracyMeasures;
  @Field(() => DriftVerdictView) drift!: DriftVerdictView;
}

@ObjectType({ description: "Each observation scored against the valuation the service would have given it when it arrived (at its date, adjusted by the organisation's earlier observations) and against the model alone" })
export class LiveAccuracyReport {
  @Field(() => ObservationKindEnum) kind!: ObservationKindEnum;
  @Field({ description: 'YYYY-MM-DD: recency weights are counted to it' }) asOf!: string;
  @Field(() => String, { nullable: true, description: 'Observations observed on or after it' }) since!: string | null;
  @Field({ description: 'The level of the groups: district or segment (homes); make or model (vehicles)' }) level!: string;
  @Field(() => GroupLiveAccuracy, { nullable: true, description: 'All groups together (null: no observation in the window)' }) overall!: GroupLiveAccuracy | null;
  @Field(() => [GroupLiveAccuracy]) groups!: GroupLiveAccuracy[];
  @Field({ description: 'The drift rule, in words' }) driftRule!: string;
}
