/** Per-request context of the gateway's GraphQL execution. */
import type { Principal } from '../auth/principal';
import type { RawReplySlot } from './raw-reply';

export type { Principal };

export interface GatewayContext {
  principal: Principal | null;
  requestId: string;
  /** HTTP /graphql only: where a single-subgraph reply may be left as bytes for the handler to write (./raw-reply.ts). */
  rawReply?: RawReplySlot;
}
