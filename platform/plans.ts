/**
 * The plans in force: schema/plans.json (or PLANS_FILE) read once, checked against the plan
 * contract (schema/plans.ts), and looked up by name by every process that counts or keeps anything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_REPORTS, DEFAULT_VALUATION_RECORD_DAYS, type Plan, type QuotaLimits } from '../schema/plans';
import { SCHEMA_DIR } from './schema-files';

export { DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_REPORTS, DEFAULT_VALUATION_RECORD_DAYS, type Plan, type QuotaLimits } from '../schema/plans';

type PlansFile = Record<string, Omit<Plan, 'name' | 'valuationRecordDays' | 'maxSubscriptions' | 'reports'> & { valuationRecordDays?: number; maxSubscriptions?: number; reports?: QuotaLimits }>;

export const DEFAULT_PLANS_FILE = join(SCHEMA_DIR, 'plans.json');

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
