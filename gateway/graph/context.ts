/** Per-request context of the gateway's GraphQL execution. */
import type { Principal } from '../auth/principal';

export type { Principal };

export interface GatewayContext {
  principal: Principal | null;
  requestId: string;
}
