/** The batch subgraph's per-request context: the caller's organisation and the job API. */
import type { IncomingHttpHeaders } from 'node:http';
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

/** The principal from the headers the gateway sets (x-organisation, x-plan); null without them. */
export function principalFromHeaders(headers: Readonly<IncomingHttpHeaders>): Principal | null {
  const org = headers['x-organisation'];
  const plan = headers['x-plan'];
  return typeof org === 'string' && org !== '' && typeof plan === 'string' && plan !== '' ? { org, plan } : null;
}
