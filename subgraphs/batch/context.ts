/** The batch subgraph's per-request context: the caller's organisation and the job API. */
import type { BatchApi } from './api';

/** The caller's organisation and plan, as the gateway sets them (headers, or in process). */
export interface Principal {
  org: string;
  plan: string;
}

export interface BatchContext {
  /** Null when the gateway sent no organisation (the batch operations then refuse). */
  principal: Principal | null;
  batch: BatchApi;
}
