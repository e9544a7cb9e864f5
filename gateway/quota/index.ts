export { createQuotaStore, type QuotaStoreOptions } from './create-quota-store';
export { InMemoryQuotaStore } from './in-memory-quota-store';
export { DEFAULT_PLANS_FILE, getPlan, InvalidPlansFileError, loadPlans, planNames, UnknownPlanError, type Plan } from '../../platform/plans';
export {
  QuotaUnavailableError,
  type QuotaDecision,
  type QuotaLimits,
  type QuotaStore,
  type QuotaWindow,
} from './quota-store';
export { rateLimitHeaders } from './rate-limit-headers';
export { RedisQuotaStore, type QuotaRedisClient, type RedisQuotaStoreOptions } from './redis-quota-store';
export { QuotaExceededError, WorkMeter, type OperationWork } from './work-meter';
