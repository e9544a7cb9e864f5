/**
 * Charges an operation's work against the organisation's plan, beside the per-request quota:
 * homes, vehicles and location points valued or scored count against `valuations` (a minute and
 * a day window), batch items against `batchItemsPerDay`. A request that values 1,000 homes thus
 * takes 1,000 valuations whether it came through REST, GraphQL or MCP, and a batch job of
 * 100,000 addresses takes 100,000 batch items.
 *
 * Like the request quota it fails open: when the store cannot answer (Redis down or stalled) the
 * work is let through and logged, since valuation must not stop with the cache.
 */
import { ApiError } from '../../schema/errors';
import type { Principal } from '../auth/principal';
import { getPlan } from '../../platform/plans';
import type { QuotaDecision, QuotaLimits, QuotaStore } from './quota-store';

/** What one operation does, as the plan counts it. */
export interface OperationWork {
  /** Homes, vehicles and location points valued or scored. */
  valuations: number;
  /** Items submitted for batch valuation. */
  batchItems: number;
}

/** A RATE_LIMITED refusal that knows when to retry (the reply's Retry-After). */
export class QuotaExceededError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

export class WorkMeter {
  constructor(
    private readonly quotas: QuotaStore,
    private readonly log: (message: string) => void,
  ) {}

  /** Takes the work from the organisation's allowances; throws QuotaExceededError when one has too little left. */
  async charge(principal: Principal | null, work: OperationWork, now = Date.now()): Promise<void> {
    if (!principal) return;
    const plan = getPlan(principal.plan);
    await this.take(`valuations:org:${principal.org}`, plan.valuations, work.valuations, now, (denied) =>
      `The ${plan.name} plan values ${denied.limit} homes, vehicles or points per ${denied.window}; this request asks for ${work.valuations} and ${denied.remaining} remain. Retry in ${denied.retryAfterSeconds} s, or submit large portfolios as a batch job`);
    // Batch work is queued, so only the day counts: the minute window is as wide as the day.
    const perDay = plan.batchItemsPerDay;
    await this.take(`batch-items:org:${principal.org}`, { perMinute: perDay, perDay }, work.batchItems, now, (denied) =>
      `The ${plan.name} plan takes ${perDay} batch items per day; this job has ${work.batchItems} and ${denied.remaining} remain today. Retry in ${denied.retryAfterSeconds} s`);
  }

  /**
   * Gives back the batch items charged for a submission the batch subgraph answered as a replay of an
   * earlier one with the same idempotency key (nothing new was submitted, nothing will be valued).
   */
  async refundBatchItems(principal: Principal | null, units: number, now = Date.now()): Promise<void> {
    if (!principal || units <= 0) return;
    const perDay = getPlan(principal.plan).batchItemsPerDay;
    try {
      await this.quotas.consume(`batch-items:org:${principal.org}`, { perMinute: perDay, perDay }, now, -units);
    } catch (error) {
      this.log(`quota store unavailable, a replayed submission's ${units} batch items not given back: ${(error as Error).message}`);
    }
  }

  /** Takes one report from the organisation's `reports` allowance; throws QuotaExceededError when none is left. */
  async chargeReport(principal: Principal | null, now = Date.now()): Promise<void> {
    if (!principal) return;
    const plan = getPlan(principal.plan);
    await this.take(`reports:org:${principal.org}`, plan.reports, 1, now, (denied) =>
      `The ${plan.name} plan renders ${denied.limit} reports per ${denied.window}; retry in ${denied.retryAfterSeconds} s`);
  }

  /** Takes `units` from `subject`'s windows, if any; a denial is thrown with `explain(decision)` as its message. */
  private async take(subject: string, limits: QuotaLimits, units: number, now: number, explain: (denied: QuotaDecision) => string): Promise<void> {
    if (units <= 0) return;
    let decision: QuotaDecision;
    try {
      decision = await this.quotas.consume(subject, limits, now, units);
    } catch (error) {
      this.log(`quota store unavailable, work let through uncounted: ${(error as Error).message}`);
      return;
    }
    if (!decision.allowed) throw new QuotaExceededError(explain(decision), decision.retryAfterSeconds ?? 1);
  }
}
