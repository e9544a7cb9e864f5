/**
 * POST /mcp: the MCP server over Streamable HTTP, for agent frameworks. Stateless: every POST
 * gets a new server and transport (no session id, nothing held between requests), so any
 * gateway replica answers any request and an agent needs no sticky sessions; nothing in the
 * tools needs a session (no server-to-client requests, no resumable streams).
 *
 * Authentication and quotas are the other routes' (X-API-Key or Authorization: Bearer), checked in
 * onRequest, after the Origin check and before the body is read; one count per HTTP request, so an
 * MCP client's initialize counts too; a 401 also
 * carries WWW-Authenticate, as MCP's authorization spec asks. The tools run their operations
 * in this request, as this request's principal (gatewayExecutor): no second hop, no second
 * count. Replies are plain JSON (enableJsonResponse): tools send no progress notifications.
 * GET and DELETE (a server-sent event stream, ending a session) answer 405: there are neither.
 *
 * Origin (MCP's transport spec: servers MUST validate it, against DNS rebinding): a request with an
 * Origin header is refused with 403 ORIGIN_NOT_ALLOWED before authentication unless the origin is
 * listed (MCP_ALLOWED_ORIGINS, PUBLIC_URL) or is a loopback page of this gateway itself. A
 * rebinding page reaches a loopback gateway under the attacker's host name, so neither its Origin
 * nor its Host is loopback. Agents that are not browsers send no Origin and are unaffected.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError, payloadTooLarge } from '../../schema/errors';
import type { Graph } from '../graph/apollo';
import { sendError } from '../http/errors';
import { documentedOnly, SECURITY, withExample } from '../ops/openapi';
import { errorResponseJsonSchema } from '../operations/response-schemas';
import { gatewayExecutor } from '../graph/executor';
import { buildMcpServer } from './server';

export const MCP_PATH = '/mcp';
/** A submit_batch call carries its portfolio in the body, as GraphQL's bulk queries do. @default 2 MB */
export const MCP_BODY_LIMIT = 2 * 1024 * 1024;
const REALM = 'tashkent-valuation';

export interface McpRouteDeps {
  graph: Graph;
  /** The app's authentication preHandlers; /mcp takes either credential. */
  auth: { either: preHandlerAsyncHookHandler };
  log(message: string): void;
  /** The API-Version header: the response bypasses fastify's onSend hooks (see handle). */
  apiVersion: string;
  /** Web origins whose pages may call /mcp, besides this gateway's own loopback origin. */
  allowedOrigins: readonly string[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a page at `origin` may call /mcp: listed, or a loopback page served by this very gateway. */
export function originAllowed(origin: string, host: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  let page: URL;
  try {
    page = new URL(origin);
  } catch {
    return false; // 'null' (sandboxed frames, file:) and garbage
  }
  return LOOPBACK_HOSTS.has(page.hostname) && page.host === host;
}

const jsonRpcId = { type: ['string', 'integer', 'null'] } as const;
/** A JSON-RPC error response: what the transport answers a message it cannot take. */
const jsonRpcErrorResponse = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: jsonRpcId, error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } } },
} as const;

/**
 * JSON-RPC's code for a message that is not a valid request. MCP dropped JSON-RPC batching in its
 * 2025-06-18 revision; taking a batch would also let one POST run any number of tool calls for one
 * request of quota, so an array is refused whole, before any of it runs.
 */
const INVALID_REQUEST = -32600;
/** The route's documentation; its replies are JSON-RPC messages of any shape, sent as they are (documentedOnly). */
const MCP_ROUTE_SCHEMA = {
  tags: ['agents'],
  summary: 'Model Context Protocol server for AI agents: Streamable HTTP, stateless (API key or bearer token)',
  description: 'One JSON-RPC 2.0 message per POST (MCP 2025-11-25, Streamable HTTP transport without sessions; a JSON array of messages, JSON-RPC batching, is refused with 400 and JSON-RPC error -32600); send Accept: application/json, text/event-stream. A request is answered 200 with its JSON-RPC response, a notification 202 without a body. Tools: value_home, value_vehicle, location_index, geocode_address, list_districts, submit_batch, get_batch_status, get_model_accuracy, record_observations, retract_observations (arguments in the REST routes\' snake_case names; failures are tool results with isError and the error code of this API). Resources: the model cards and the district list; prompt: revalue_collateral. Each POST counts once against the plan\'s request quota, and each home, vehicle or point a tool values once against its valuations (batch items against its batch items per day). Without valid credentials: 401 with WWW-Authenticate. From a web origin not allowed (MCP_ALLOWED_ORIGINS; pages served by the gateway on loopback are): 403 ORIGIN_NOT_ALLOWED. GET and DELETE: 405. See the README, "Agents (MCP)".',
  security: SECURITY.apiKeyOrBearer,
  body: withExample({
    type: 'object',
    required: ['jsonrpc', 'method'],
    description: 'A JSON-RPC request or notification, e.g. { "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "value_home", "arguments": { … } } }',
    properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: jsonRpcId, method: { type: 'string', description: 'initialize, tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get, ping, notifications/…' }, params: { type: 'object' } },
  }, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  response: {
    200: {
      type: 'object',
      required: ['jsonrpc', 'id'],
      description: 'The JSON-RPC response; a tools/call result has content, structuredContent and isError',
      properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: jsonRpcId, result: { type: 'object' }, error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } } },
    },
    400: { description: 'A message the transport cannot take (a JSON-RPC batch, a malformed message): a JSON-RPC error; or an error of the catalogue', anyOf: [jsonRpcErrorResponse, errorResponseJsonSchema()] },
    '4xx': errorResponseJsonSchema(),
  },
};

export function registerMcpRoute(app: FastifyInstance, deps: McpRouteDeps): void {
  // In their own scope: the body limit's message and the 401 challenge concern these routes only.
  void app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(request, reply, payloadTooLarge(MCP_BODY_LIMIT, 'submit larger portfolios to POST /api/batch as a file'));
      }
      throw error;
    });
    scope.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, request.headers.host, deps.allowedOrigins)) {
        return sendError(request, reply, new ApiError('ORIGIN_NOT_ALLOWED', `Requests from ${origin.slice(0, 100)} are not accepted; list the origin in MCP_ALLOWED_ORIGINS to allow its pages`));
      }
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode === 401) reply.header('www-authenticate', challenges(request));
      return payload;
    });
    // The caller is known before the body is read: without a valid key, 401 before any of 2 MB is buffered (issue 33, finding 1).
    scope.post(MCP_PATH, { bodyLimit: MCP_BODY_LIMIT, onRequest: deps.auth.either, schema: MCP_ROUTE_SCHEMA, ...documentedOnly }, (request, reply) => handle(deps, request, reply));
    scope.route({
      method: ['GET', 'DELETE'],
      url: MCP_PATH,
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST each JSON-RPC message to /mcp' }, id: null }),
    });
  });
}

/**
 * RFC 6750's Bearer challenge (error="invalid_token" when credentials were sent but refused) and
 * one naming the API key header. No resource_metadata: keys and tokens come from the bank's
 * organisation account (npm run keys, POST /service/auth/token), not from an OAuth server.
 */
function challenges(request: FastifyRequest): string[] {
  const sent = typeof request.headers['x-api-key'] === 'string' || typeof request.headers.authorization === 'string';
  return [`Bearer realm="${REALM}"${sent ? ', error="invalid_token"' : ''}`, `ApiKey realm="${REALM}", header="X-API-Key"`];
}

async function handle(deps: McpRouteDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (Array.isArray(request.body)) {
    return void reply.code(400).send({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid Request: JSON-RPC batches are not accepted (MCP has no batching since 2025-06-18); POST one message at a time' }, id: null });
  }
  const server = buildMcpServer({ executor: gatewayExecutor(deps.graph, request), log: deps.log, requestId: request.id });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The transport writes the raw response itself, so fastify must not; its onSend hooks will not
  // run either: the headers they and the preHandler set (API-Version, X-Request-Id, RateLimit-*)
  // are put on the raw response here, and the transport's writeHead keeps them.
  reply.hijack();
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
  raw.setHeader('api-version', deps.apiVersion);
  raw.setHeader('x-request-id', request.id);
  raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, raw, request.body);
  } catch (error) {
    deps.log(`mcp request failed: ${(error as Error)?.stack ?? String(error)}`);
    if (!raw.headersSent) {
      raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
  }
}
