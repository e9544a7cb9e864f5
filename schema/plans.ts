/**
 * A plan: what an organisation may use (requests, valuations, reports, batch items, records kept,
 * observations stored, subscriptions), as schema/plans.json states it for every plan. The file is
 * read and checked by platform/plans.ts.
 */

/** Units a subject may consume in each fixed window. */
export interface QuotaLimits {
  perMinute: number;
  perDay: number;
}

export interface Plan {
  name: string;
  /** Requests, whatever they do (every door: REST, GraphQL, MCP, WebSocket connections). */
  quota: QuotaLimits;
  /**
   * Homes, vehicles and location points valued or scored interactively (REST, GraphQL, MCP): a
   * request valuing 1,000 homes takes 1,000 (docs/RELIABILITY.md, "How bulk work is charged").
   */
  valuations: QuotaLimits;
  /**
   * Reports rendered (a valuation's PDF or HTML report, a backtest's PDF), per minute and day: each
   * takes tens of milliseconds of a render thread and several graph calls (issue 33, finding 4).
   */
  reports: QuotaLimits;
  /** The most items one batch valuation request may carry. */
  maxBatchItems: number;
  /** Batch items submitted per UTC day, all jobs together (batch work is queued, so no minute window). */
  batchItemsPerDay: number;
  /** Days a valuation's record is kept for review (GET /api/valuations/{id}): model-risk teams look back months to years. */
  valuationRecordDays: number;
  /**
   * Observed prices the organisation may keep of each kind (homes, vehicles): its storage quota
   * (issue 33, finding 8). The file store holds each in memory, about 1.2 KB. Absent: unbounded.
   */
  maxStoredObservations?: number;
  /** GraphQL subscriptions the organisation may have running at once on one gateway process (each socket takes at most 20). */
  maxSubscriptions: number;
}

/** A plan file's plan without valuationRecordDays keeps records three years (the standard plan's). */
export const DEFAULT_VALUATION_RECORD_DAYS = 1095;
/** A plan file's plan without maxSubscriptions: a dashboard per analyst, five sockets of 20 each. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;

/** A plan file's plan without `reports` renders the standard plan's: 60 a minute, 5,000 a day. */
export const DEFAULT_REPORTS: QuotaLimits = { perMinute: 60, perDay: 5000 };
