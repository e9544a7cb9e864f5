/** GraphQL types of batch jobs (type-graphql classes): the engine's records as clients see them. */
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MAX_ADDRESS_LENGTH } from '../../schema/location-contract';
import { FILE_NAME_DESCRIPTION, MAX_REFERENCE_LENGTH } from '../../schema/batch-contract';

export enum BatchJobStatus {
  queued = 'queued',
  running = 'running',
  completed = 'completed',
  failed = 'failed',
  cancelled = 'cancelled',
}
registerEnumType(BatchJobStatus, { name: 'BatchJobStatus', description: 'queued → running → completed | failed | cancelled' });

@InputType({ description: 'One item of a batch: an address to place and score, and optionally a home there to value' })
export class BatchItemInput {
  @Field({ description: `A Tashkent address (at most ${MAX_ADDRESS_LENGTH} characters), as geocode takes it` }) address!: string;
  @Field(() => String, { nullable: true, description: `Your own id of the loan or collateral (at most ${MAX_REFERENCE_LENGTH} characters, no personal data), echoed in the item's result` }) reference?: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: "HomeValuationInput fields (GraphQL names: propertyType, area, rooms, floor, totalFloors, landArea, renovation, …) without district and mahalla, which come from the geocoded address. Checked at submission as POST /api/batch checks an item's home (names, types, ranges); an error names the field in REST's words (items[0].home.total_floors)",
  })
  home?: Record<string, unknown> | null;
}

@InputType({ description: "A portfolio to value in the background; the plan's maxBatchItems bounds its size" })
export class SubmitBatchInput {
  @Field(() => [BatchItemInput]) items!: BatchItemInput[];
  @Field(() => String, { nullable: true, description: 'Receives a signed batch.completed webhook (Standard Webhooks) when the job ends; http(s) on a public address' })
  callbackUrl?: string | null;
  @Field(() => Int, { nullable: true, description: 'Items per chunk, 1 to 10000 (default 1000): the unit of work and of retry' })
  chunkSize?: number | null;
  @Field(() => String, { nullable: true, description: "Your key for this submission (a UUID, say; at most 200 printable characters), kept 24 hours: a retry with the same key and the same items gets the first job instead of a second; the same key with other items is IDEMPOTENCY_KEY_REUSED (409). REST: the Idempotency-Key header" })
  idempotencyKey?: string | null;
  @Field(() => String, { nullable: true, description: FILE_NAME_DESCRIPTION }) fileName?: string | null;
}

@InputType({ description: 'A job to fill in several calls (appendBatchItems): for portfolios too large for one request' })
export class OpenBatchInput {
  @Field(() => String, { nullable: true, description: FILE_NAME_DESCRIPTION }) fileName?: string | null;
  @Field(() => String, { nullable: true, description: 'Receives a signed batch.completed webhook (Standard Webhooks) when the job ends; http(s) on a public address' })
  callbackUrl?: string | null;
  @Field(() => Int, { nullable: true, description: 'Items per chunk, 1 to 10000 (default 1000): the unit of work and of retry; every append but the last carries a multiple of it' })
  chunkSize?: number | null;
}

@ArgsType()
export class AppendBatchItemsArgs {
  @Field(() => ID, { description: 'A job of yours opened by openBatch and not yet sealed' }) id!: string;
  @Field(() => [BatchItemInput], { description: "The next items, after those already appended; a multiple of the job's chunkSize unless last" })
  items!: BatchItemInput[];
  @Field({ description: 'The final part: the job is sealed after these items and takes no more' }) last!: boolean;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Default 0' }) offset?: number | null;
  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100' }) limit?: number | null;
}

@ArgsType()
export class BatchResultsArgs extends PageArgs {
  @Field(() => ID) id!: string;
}

@ObjectType({ description: 'One attempt to deliver the completion webhook' })
export class WebhookDelivery {
  @Field(() => Int, { description: '1 for the first attempt' }) number!: number;
  @Field({ description: 'ISO 8601: when the attempt started' }) at!: string;
  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when it sent none" }) statusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt got no status (timeout, network, refused), with detail' }) error!: string | null;
  @Field(() => Int) durationMs!: number;
}

@ObjectType({ description: 'A batch valuation job' })
export class BatchJob {
  @Field(() => ID) id!: string;
  @Field(() => BatchJobStatus) status!: BatchJobStatus;
  @Field(() => Int, { description: 'Items submitted' }) total!: number;
  @Field(() => Int, { description: 'Items with a result: succeeded + failed' }) processed!: number;
  @Field(() => Int) succeeded!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) chunkSize!: number;
  @Field({ description: 'ISO 8601' }) createdAt!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: when the first chunk was taken' }) startedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601: when the job ended, whichever way' }) completedAt!: string | null;
  @Field(() => String, { nullable: true }) callbackUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'The name of the file the portfolio came from, as submitted; null when none was given' }) fileName!: string | null;
  @Field({ description: 'Where the results stream is: /api/batch/{id}/results (or the batchResults query)' }) resultsUrl!: string;
  @Field(() => String, { nullable: true, description: 'Why the job failed; only on status failed' }) error!: string | null;
  @Field({ description: "true when this answer to submitBatch is the job an earlier submission with the same idempotencyKey made: nothing new was submitted, and its batch items are not charged again (when the field is selected); false otherwise" })
  idempotentReplay!: boolean;
  @Field(() => [WebhookDelivery], { nullable: true, description: 'Completion webhook attempts, in order; null in batchJobs lists (read the job for them)' })
  deliveries!: WebhookDelivery[] | null;
}

@ObjectType({ description: "A page of the organisation's batch jobs, newest first" })
export class BatchJobPage {
  @Field(() => [BatchJob]) jobs!: BatchJob[];
  @Field(() => Int, { nullable: true, description: 'The offset of the next page; null on the last' }) nextOffset!: number | null;
}

@ObjectType({ description: 'Why one item has no result' })
export class BatchItemError {
  @Field({ description: 'Error code from the public catalogue: UNRESOLVABLE_ADDRESS, OUTSIDE_TASHKENT, INVALID_PARAMETER, …' }) code!: string;
  @Field() message!: string;
}

@ObjectType({ description: 'The outcome of one item, by its position in the submission' })
export class BatchItemResult {
  @Field(() => Int, { description: 'Position in the submission, from 0' }) index!: number;
  @Field(() => String, { nullable: true, description: "The item's reference as submitted (your loan or collateral id); null where none was given" }) reference!: string | null;
  @Field() ok!: boolean;
  @Field(() => GraphQLJSON, { nullable: true, description: 'On ok: { address, geocode { lat, lon, precision, district, mahalla }, locationIndex { composite, complete, renormalised, district, subindexes }, home? (valuation, with propertyType, landPricePerSotka and marketLevel: the valuation date and how old the market data behind it is) }' })
  result!: unknown;
  @Field(() => BatchItemError, { nullable: true }) error!: BatchItemError | null;
}

@ObjectType({ description: "A page of a job's item results, in item order" })
export class BatchResultPage {
  @Field(() => [BatchItemResult]) items!: BatchItemResult[];
  @Field(() => Int, { nullable: true, description: 'The offset of the next page; null when no further result is recorded yet' }) nextOffset!: number | null;
}
