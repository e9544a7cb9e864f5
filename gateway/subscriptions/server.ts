/**
 * GraphQL subscriptions on the gateway: graphql-ws (`graphql-transport-ws` subprotocol) on the
 * /graphql path of the gateway's own HTTP server, next to the HTTP GraphQL endpoint. Served by the
 * gateway from ./batch-progress-schema.ts, not federated.
 *
 * The client authenticates in `connection_init`: `{ "x-api-key": "…" }` or
 * `{ "authorization": "Bearer <jwt>" }`. Bad or missing credentials close the socket with 4403
 * (Forbidden); a connection counts once against the organisation's quota (4429 past it), and so
 * does each subscribe (an error message RATE_LIMITED past it). At most 20 subscriptions run at once
 * on a socket, and the plan's maxSubscriptions for an organisation (./subscription-bounds.ts): one
 * more gets an error message RATE_LIMITED, the socket and its other subscriptions go on.
 *
 * The credential stays the connection's (graphql-ws keeps connection_init's payload) and is checked
 * again on every subscribe, and the key behind it before every event sent: once the key is revoked
 * (or a bearer token expires, for a new subscribe), the socket is closed with 4403 and its running
 * subscriptions end with it, so a revoked key gets no more data on a socket it opened before.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { createSharedSubscriptionCounts } from './shared-subscription-counts';
import { ApiError } from '../../schema/errors';
import { InvalidTokenError, verifyToken } from '../auth/jwt';
import type { KeyStore } from '../auth/key-store';
import type { Principal } from '../auth/principal';
import { rawErrorResponse } from '../http/client-errors';
import { getPlan, type QuotaStore } from '../quota';
import { checkDocument, type DocumentLimits } from '../graph/document-limits';
import { batchProgressSchema, type BatchProgressSource, type SubscriptionContext } from './batch-progress-schema';
import { SubscriptionBounds } from './subscription-bounds';

// graphql-ws publishes its ws adapter as the subpath export `graphql-ws/use/ws`, which
// moduleResolution "node" cannot see; the types come from the file behind it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/dist/use/ws');

export const SUBSCRIPTIONS_PATH = '/graphql';
/** Close code when the organisation's quota is exhausted (4403 is for credentials). */
export const CLOSE_RATE_LIMITED = 4429;

/**
 * connection_ack, next and error are messages only a server sends. graphql-ws parses them from a
 * client (they are valid protocol messages) and then throws in its dispatch, so the socket closed
 * with 4500 and the server logged an "internal error" for every such frame a client cared to send.
 * The protocol's code for a message the receiver cannot take is 4400: refusing them while parsing
 * gets exactly that (graphql-ws closes 4400 "Invalid message received" when parsing fails).
 * The reviver sees the whole message last, under the key ""; an object nested under an empty key
 * that looks like a server message is refused too, a price worth a one-line check.
 */
const SERVER_ONLY_MESSAGE_TYPES = new Set(['connection_ack', 'next', 'error']);
function refuseServerOnlyMessages(key: string, value: unknown): unknown {
  if (key === '' && typeof value === 'object' && value !== null && SERVER_ONLY_MESSAGE_TYPES.has((value as { type?: unknown }).type as string)) {
    throw new Error(`"${(value as { type: string }).type}" is sent by servers only`);
  }
  return value;
}

export interface SubscriptionServerOptions {
  server: Server;
  source: BatchProgressSource;
  keys: KeyStore;
  quotas?: QuotaStore;
  log(message: string): void;
  path?: string;
  /** The time bearer tokens are checked at. @default Date.now */
  clock?: () => number;
  /** Bounds on a subscription document's shape: the graph's, so MAX_QUERY_DEPTH holds here too. @default DEFAULT_DOCUMENT_LIMITS */
  documentLimits?: DocumentLimits;
  /** Where the other gateway processes' subscription counts are shared (./shared-subscription-counts.ts). @default none: this process alone */
  redisUrl?: string;
}

export interface SubscriptionServer {
  close(): Promise<void>;
}

/** The principal behind connection_init's payload, or null for missing or bad credentials. */
export async function principalOf(params: Readonly<Record<string, unknown>> | undefined, keys: KeyStore, clock?: () => number): Promise<Principal | null> {
  const lower = Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const apiKey = lower['x-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') return keys.verify(apiKey);
  const authorization = lower.authorization;
  if (typeof authorization === 'string' && /^bearer\s/i.test(authorization)) {
    try {
      return await verifyToken(authorization.slice(7).trim(), { keyStore: keys, clock });
    } catch (error) {
      if (error instanceof InvalidTokenError) return null;
      throw error;
    }
  }
  return null;
}

/**
 * The largest WebSocket message accepted: 64 KiB. A graphql-ws message is a subscription document
 * and its variables (a few hundred bytes); without a bound, four sockets each sending one 49 MB
 * message before connection_init held the other tenants' valuations for 30 s (issue 33, finding 1).
 * A larger message closes the socket with 1009 (message too big) before it is buffered.
 */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 64 * 1024;

/**
 * ws closes a socket whose message passes maxPayload with 1009 itself, then emits 'error', which
 * graphql-ws prints to the console with its stack as an "Internal error … check your
 * implementation": anyone, without a key, could fill the log with it. That expected refusal is
 * dropped here; every other socket error still reaches graphql-ws.
 */
function dropOversizedMessageErrors(ws: WebSocket): void {
  const emit = ws.emit.bind(ws);
  ws.emit = ((event: string | symbol, ...args: unknown[]) =>
    event === 'error' && (args[0] as { code?: unknown } | undefined)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? true : emit(event, ...args)) as typeof ws.emit;
}

const rateLimited = (message: string) => new GraphQLError(message, { extensions: { code: 'RATE_LIMITED' } });

export function startSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const path = options.path ?? SUBSCRIPTIONS_PATH;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES });
  const principals = new WeakMap<object, Principal>();
  const bounds = new SubscriptionBounds();
  const shared = createSharedSubscriptionCounts({ redisUrl: options.redisUrl, current: () => bounds.counts(), log: options.log });
  /** This process's count of `org`, shared once graphql-ws has dropped what just ended. */
  const publish = (org: string) => setImmediate(() => void shared.then(({ counts }) => counts.publish(org, bounds.count(org))));

  /** One request of the organisation's quota; the decision, or undefined when the store cannot answer (let through, logged). */
  const consumeRequest = async (principal: Principal, what: string) => {
    if (!options.quotas) return undefined;
    try {
      return await options.quotas.consume(`org:${principal.org}`, getPlan(principal.plan).quota, Date.now());
    } catch (error) {
      options.log(`quota store unavailable, ${what} let through: ${(error as Error).message}`);
      return undefined;
    }
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== path) {
      socket.end(rawErrorResponse(new ApiError('NOT_FOUND', `No WebSocket endpoint at ${pathname.slice(0, 100)}: subscriptions are on ${path}`)));
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      dropOversizedMessageErrors(ws);
      wss.emit('connection', ws, request);
    });
  };
  options.server.on('upgrade', onUpgrade);

  /** Closes the socket as connection_init does for bad credentials (graphql-ws sends nothing once it is closing). */
  const forbid = (ctx: { extra: { socket: { close(code: number, reason: string): void } } }) => ctx.extra.socket.close(CloseCode.Forbidden, 'Forbidden');

  const schema = batchProgressSchema(options.source);
  const disposable = useServer<Record<string, unknown>>(
    {
      schema,
      jsonMessageReviver: refuseServerOnlyMessages,
      onConnect: async (ctx) => {
        const principal = await principalOf(ctx.connectionParams, options.keys, options.clock);
        if (!principal) return false; // 4403 Forbidden
        const decision = await consumeRequest(principal, 'subscription');
        if (decision && !decision.allowed) {
          ctx.extra.socket.close(CLOSE_RATE_LIMITED, `RATE_LIMITED: retry in ${decision.retryAfterSeconds} s`);
          return false;
        }
        principals.set(ctx, principal);
        bounds.opened(principal.org, ctx);
        return true;
      },
      onClose: (ctx) => {
        const principal = principals.get(ctx);
        if (!principal) return;
        bounds.closed(principal.org, ctx);
        publish(principal.org);
      },
      onComplete: (ctx) => {
        const principal = principals.get(ctx);
        if (principal) publish(principal.org);
      },
      // The credential of connection_init, verified again: a key revoked since (or a token expired) subscribes to nothing.
      // Then the document's shape, as on HTTP (gateway/graph/document-limits.ts): graphql-ws validates next, not linearly.
      onSubscribe: async (ctx, id, payload) => {
        bounds.arrived(ctx, id);
        const principal = await principalOf(ctx.connectionParams, options.keys, options.clock);
        if (!principal) {
          forbid(ctx);
          return [new GraphQLError('Forbidden', { extensions: { code: 'INVALID_API_KEY' } })];
        }
        principals.set(ctx, principal);
        // Each subscribe is a request of the plan's quota, as an HTTP request is, then a running subscription of its bounds.
        const decision = await consumeRequest(principal, 'subscribe');
        if (decision && !decision.allowed) return [rateLimited(`The ${principal.plan} plan allows ${decision.limit} requests per ${decision.window}; retry in ${decision.retryAfterSeconds} s`)];
        const refused = checkDocument(schema, payload.query, options.documentLimits);
        if (refused.length) return [...refused];
        // What the organisation runs on the other gateways counts against its plan too; the check and admission after it are one turn.
        const elsewhere = await (await shared).counts.elsewhere(principal.org);
        const overBound = bounds.admit(principal.org, ctx, id, getPlan(principal.plan).maxSubscriptions, elsewhere);
        if (overBound) return [rateLimited(overBound)];
        publish(principal.org);
        return undefined;
      },
      // Before each event of a running subscription: is its key still active? (Revocation only: a bearer
      // token expiring while its subscription runs lets it run on, as an HTTP request under way would.)
      onNext: (ctx) => {
        const principal = principals.get(ctx);
        if (principal && !options.keys.principalForKeyId(principal.keyId)) forbid(ctx);
      },
      context: (ctx): SubscriptionContext => ({ principal: principals.get(ctx) ?? null }),
      // Catalogue errors (NOT_FOUND…) and validation errors go out as they are; anything else thrown
      // while subscribing is logged and masked, as the HTTP endpoint masks it.
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((error) => {
          if (error.extensions?.code || !error.path) return error.toJSON();
          options.log(`subscription error: ${error.message}`);
          return { message: 'Internal error', path: error.path, extensions: { code: 'INTERNAL' } };
        }),
    },
    wss,
  );

  return {
    close: async () => {
      options.server.off('upgrade', onUpgrade);
      await (await shared).close();
      const clients = [...wss.clients];
      await disposable.dispose(); // 1001 Going away to every client
      // Give clients a moment to answer the close frame, then cut the rest: the HTTP server waits for them.
      const deadline = Date.now() + 1000;
      while (clients.some((c) => c.readyState !== c.CLOSED) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const client of clients) if (client.readyState !== client.CLOSED) client.terminate();
    },
  };
}
