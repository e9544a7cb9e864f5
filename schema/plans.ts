import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { PROJECT_ROOT } from '../models/paths';

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

type PlansFile = Record<string, Omit<Plan, 'name' | 'valuationRecordDays' | 'maxSubscriptions' | 'reports'> & { valuationRecordDays?: number; maxSubscriptions?: number; reports?: QuotaLimits }>;

/** A plan file's plan without valuationRecordDays keeps records three years (the standard plan's). */
export const DEFAULT_VALUATION_RECORD_DAYS = 1095;
/** A plan file's plan without maxSubscriptions: a dashboard per analyst, five sockets of 20 each. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;

/** A plan file's plan without `reports` renders the standard plan's: 60 a minute, 5,000 a day. */
export const DEFAULT_REPORTS: QuotaLimits = { perMinute: 60, perDay: 5000 };

export const DEFAULT_PLANS_FILE = join(PROJECT_ROOT, 'schema', 'plans.json');

const positiveInteger = { type: 'integer', minimum: 1 } as const;
const limits = {
  type: 'object',
  required: ['perMinute', 'perDay'],
  additionalProperties: false,
  properties: { perMinute: positiveInteger, perDay: positiveInteger },
} as const;
const plansFileSchema = {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
  additionalProperties: {
    type: 'object',
    required: ['quota', 'valuations', 'maxBatchItems', 'batchItemsPerDay'],
    additionalProperties: false,
    properties: {
      quota: limits,
      valuations: limits,
      reports: limits,
      maxBatchItems: positiveInteger,
      batchItemsPerDay: positiveInteger,
      valuationRecordDays: positiveInteger,
      maxStoredObservations: positiveInteger,
      maxSubscriptions: positiveInteger,
    },
  },
};
const isPlansFile = new Ajv({ allErrors: true }).compile<PlansFile>(plansFileSchema);

export class InvalidPlansFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPlansFileError';
  }
}

export class UnknownPlanError extends Error {
  constructor(
    readonly planName: string,
    readonly knownPlans: string[],
  ) {
    super(`unknown plan '${planName}' (known plans: ${knownPlans.join(', ')})`);
    this.name = 'UnknownPlanError';
  }
}

/** Reads and validates a plans file; a bad file stops start-up rather than running with wrong limits. */
export function loadPlans(file: string): ReadonlyMap<string, Plan> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidPlansFileError(`cannot read plans from ${file}: ${(error as Error).message}`);
  }
  if (!isPlansFile(parsed)) {
    const problems = (isPlansFile.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new InvalidPlansFileError(`invalid plans file ${file}: ${problems}`);
  }
  return new Map(Object.entries(parsed).map(([name, plan]) => [name, { name, ...plan, reports: plan.reports ?? DEFAULT_REPORTS, valuationRecordDays: plan.valuationRecordDays ?? DEFAULT_VALUATION_RECORD_DAYS, maxSubscriptions: plan.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS }]));
}

const loadedPlans = new Map<string, ReadonlyMap<string, Plan>>();

/** The plans in force: PLANS_FILE when set, else the repository's schema/plans.json. Read once per file. */
function currentPlans(): ReadonlyMap<string, Plan> {
  const file = process.env.PLANS_FILE ?? DEFAULT_PLANS_FILE;
  let plans = loadedPlans.get(file);
  if (!plans) {
    plans = loadPlans(file);
    loadedPlans.set(file, plans);
  }
  return plans;
}

export function getPlan(name: string): Plan {
  const plans = currentPlans();
  const plan = plans.get(name);
  if (!plan) throw new UnknownPlanError(name, [...plans.keys()]);
  return plan;
}

export function planNames(): string[] {
  return [...currentPlans().keys()];
}
