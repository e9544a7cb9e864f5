import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { PROJECT_ROOT } from '../../models/paths';
import type { QuotaLimits } from './quota-store';

export interface Plan {
  name: string;
  quota: QuotaLimits;
  /** The most items one batch valuation request may carry. */
  maxBatchItems: number;
}

type PlansFile = Record<string, Omit<Plan, 'name'>>;

export const DEFAULT_PLANS_FILE = join(PROJECT_ROOT, 'gateway', 'config', 'plans.json');

const positiveInteger = { type: 'integer', minimum: 1 } as const;
const plansFileSchema = {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
  additionalProperties: {
    type: 'object',
    required: ['quota', 'maxBatchItems'],
    additionalProperties: false,
    properties: {
      quota: {
        type: 'object',
        required: ['perMinute', 'perDay'],
        additionalProperties: false,
        properties: { perMinute: positiveInteger, perDay: positiveInteger },
      },
      maxBatchItems: positiveInteger,
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
  return new Map(Object.entries(parsed).map(([name, plan]) => [name, { name, ...plan }]));
}

const loadedPlans = new Map<string, ReadonlyMap<string, Plan>>();

/** The plans in force: PLANS_FILE when set, else the repository's gateway/config/plans.json. Read once per file. */
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
