/**
 * A subgraph's fast lane (issue 34, item 1): a query Apollo Server has already parsed and validated
 * once is run again without it. The gateway sends each subgraph the same few query texts all day
 * (the REST routes' and the query planner's); Apollo Server's pipeline around them (hashing the
 * text for its document cache, the request's plugin hooks, each an await, the HTTP head, content
 * negotiation) was about a third of a single valuation's CPU in the subgraph, whose work is one
 * compiled query (./compiled-executor.ts).
 *
 * The lane runs only what Apollo would run the same way:
 * - a POST with a JSON body `{ query, variables?, operationName? }` (no extensions: no APQ), sent
 *   as application/json, answered in the media type Apollo Server would choose for its accept header
 *   (the same negotiation over the same types: none given is application/json, a gateway that prefers
 *   application/graphql-response+json gets that);
 * - whose query text Apollo Server has run before: its executor (`gateway()`) is only called for
 *   a document that parsed and passed validation, introspection rules included, so the lane knows
 *   exactly the texts Apollo accepted;
 * - and whose operation is a compiled query.
 * A result with data and no errors is answered as Apollo answers it (`{"data":…}` and a newline, 200). Anything else goes to Apollo Server: a query refused before it ran (variables)
 * as if the lane had not looked, and a result with errors, already run, handed to Apollo's executor
 * as it is (never run twice), so that Apollo formats its errors and HTTP status as ever.
 */
import type { DocumentNode, ExecutionResult } from 'graphql';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { compiledGateway, type CompiledQueries, type GatewayExecutor } from './compiled-executor';
import { jsonBody } from './json-bytes';

/** Characters of query texts remembered as accepted by Apollo Server. @default 4 MB */
const KNOWN_QUERY_BYTES = 4_000_000;

/**
 * A result the lane ran, for Apollo Server's executor to answer with: a property of the request's
 * context, since Apollo gives its executor a copy of the context (cloneObject in
 * internalExecuteOperation), which copies own enumerable properties, symbols included.
 */
const HELD = Symbol('result run in the fast lane');
type Held = { [HELD]?: ExecutionResult };

/** A POST body the lane may take: what Apollo Server would read from it. */
export interface LaneRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export type LaneOutcome =
  /** Answered: the response body (text, or its UTF-8 bytes) and its content type, as Apollo Server would write them. */
  | { answered: string | Buffer; contentType: string }
  /** Not taken, or run with errors: Apollo Server answers (a held result is given to its executor for this context). */
  | { answered: null };

export class FastLane {
  private readonly known = new LRUCache<string, DocumentNode>({ maxSize: KNOWN_QUERY_BYTES, sizeCalculation: (_document, query) => query.length + 1 });

  constructor(private readonly queries: CompiledQueries) {}

  /** Apollo Server's gateway for the schema: runs compiled, remembers each query text it ran, and answers with a held result. */
  gateway(): ReturnType<typeof compiledGateway> {
    const executor: GatewayExecutor = async ({ document, operationName, request, context }) => {
      const held = (context as Held)[HELD];
      if (held) {
        delete (context as Held)[HELD];
        return held;
      }
      if (typeof request.query === 'string') this.known.set(request.query, document);
      return this.queries.execute({ document, operationName, variableValues: request.variables, contextValue: context });
    };
    return compiledGateway(this.queries.schema, executor);
  }

  /** The request's body and the media type of its answer when the lane may take it (see the header), else null. */
  static requestOf(method: string, headers: Record<string, string | string[] | undefined>, body: unknown): (LaneRequest & { contentType: string }) | null {
    if (method !== 'POST' || !isJson(headers['content-type'])) return null;
    const contentType = answerType(headers.accept);
    if (!contentType) return null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const { query, variables, operationName, extensions } = body as Record<string, unknown>;
    if (typeof query !== 'string' || extensions !== undefined) return null;
    if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
    return { query, variables: variables as LaneRequest['variables'], operationName: operationName as LaneRequest['operationName'], contentType };
  }

  /** Runs a request whose query Apollo Server accepted before; anything else is left to Apollo Server (see LaneOutcome). */
  async run(request: LaneRequest & { contentType: string }, context: object): Promise<LaneOutcome> {
    const document = this.known.get(request.query);
    const query = document && this.queries.of(document, request.operationName ?? null);
    if (!query) return { answered: null };
    const result = (await query.query(undefined, context, request.variables ?? {})) as ExecutionResult;
    // Refused before anything ran (variables): Apollo runs it again, for graphql-js's own errors.
    if (result.data === undefined) return { answered: null };
    if (result.errors?.length || result.extensions !== undefined) {
      (context as Held)[HELD] = result;
      return { answered: null };
    }
    // A bulk answer is encoded here, a piece at a time (./json-bytes.ts): given its string, fastify would read it whole for its UTF-8 length and node again to encode it.
    return { answered: jsonBody({ data: result.data }, '\n'), contentType: request.contentType };
  }
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && JSON_MEDIA_TYPE.test(contentType);
}

/** Apollo Server's media types for a single result, in its order of preference (MEDIA_TYPES in @apollo/server). */
const SINGLE_RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];
const NO_ACCEPT = 'application/json; charset=utf-8';
/** Accept headers seen, and what Apollo Server answers them with (null: none of its types: Apollo's 406). Gateways send one or two. */
const negotiated = new LRUCache<string, string | false>({ max: 100 });

/**
 * What Apollo Server's chooseContentTypeForSingleResultResponse gives: application/json without an
 * accept header, else the negotiator's pick among its types, in its order. An accept header none of
 * them satisfies (Apollo's 406), or several headers, are left to Apollo Server.
 */
function answerType(accept: string | string[] | undefined): string | null {
  if (accept === undefined) return NO_ACCEPT;
  if (typeof accept !== 'string') return null;
  let type = negotiated.get(accept);
  if (type === undefined) {
    type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? false;
    negotiated.set(accept, type);
  }
  return type || null;
}
