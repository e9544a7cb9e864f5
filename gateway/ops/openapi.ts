/**
 * The OpenAPI 3.1 document of every REST route, generated from the same JSON Schemas the
 * routes validate and serialise with. Each route module calls `documentRoute` when it loads,
 * so the document exists without a running server (`npm run schema` writes schema/openapi.json).
 */
import { ERROR_CATALOGUE } from '../../schema/errors';

export interface RouteDoc {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: string;
  security?: 'apiKey' | 'bearer' | 'apiKeyOrBearer';
  requestBody?: Record<string, unknown>;
  /** A JSON body that succeeds as it is: what Swagger UI's "Try it out" sends (a test sends each). */
  example?: Record<string, unknown>;
  responses: Record<string, unknown>;
  description?: string;
}

const routes = new Map<string, RouteDoc>();

export function documentRoute(doc: RouteDoc): void {
  routes.set(`${doc.method} ${doc.path}`, doc);
}

const SECURITY = {
  apiKey: [{ ApiKey: [] }],
  bearer: [{ BearerToken: [] }],
  apiKeyOrBearer: [{ ApiKey: [] }, { BearerToken: [] }],
};

/** A body's media types: each with its schema, or 'documented' for the schema the route documented. */
type MediaTypes = Record<string, Record<string, unknown> | 'documented'>;

/**
 * The bodies that are not (only) application/json. Route modules document JSON Schemas, published
 * under application/json; these few routes read or write other media types, and the document says
 * so (conformance test: test/conformance/openapi.test.ts checks every response's Content-Type).
 */
const OTHER_MEDIA_TYPES: Record<string, { request?: MediaTypes; responses?: Record<string, MediaTypes> }> = {
  // prom-client's text exposition format (text/plain; version=0.0.4).
  'get /metrics': { responses: { 200: { 'text/plain': 'documented' } } },
  // Streamed NDJSON, one line per documented schema; CSV with Accept: text/csv or ?format=csv.
  'get /api/batch/{id}/results': { responses: { 200: { 'application/x-ndjson': 'documented', 'text/csv': { type: 'string', description: 'CSV with a header row' } } } },
  // A portfolio file instead of the JSON body (the route's description has the columns).
  'post /api/batch': {
    request: {
      'application/json': 'documented',
      'text/csv': { type: 'string', description: 'Header row: address plus optional home columns in snake_case' },
      'application/x-ndjson': { type: 'string', description: 'One { "address", "home" } object a line' },
    },
  },
};

function content(schema: Record<string, unknown>, mediaTypes: MediaTypes = { 'application/json': 'documented' }, example?: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(mediaTypes).map(([type, own]) => [type, { schema: own === 'documented' ? schema : own, ...(example && type === 'application/json' && { example }) }]),
  );
}

/** OpenAPI wants every `{name}` of a path template declared as a required path parameter. */
function pathParameters(path: string): Record<string, unknown>[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of [...routes.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    const other = OTHER_MEDIA_TYPES[`${doc.method} ${doc.path}`] ?? {};
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(doc.responses)) {
      const code = status.replace('xx', 'XX');
      responses[code] = { description: describeStatus(code), content: content(schema as Record<string, unknown>, other.responses?.[code]) };
    }
    const parameters = pathParameters(doc.path);
    paths[doc.path] = {
      ...paths[doc.path],
      ...(parameters.length > 0 && { parameters }),
      [doc.method]: {
        summary: doc.summary,
        ...(doc.description && { description: doc.description }),
        tags: [doc.tag],
        ...(doc.security && { security: SECURITY[doc.security] }),
        ...(doc.requestBody && { requestBody: { required: true, content: content(doc.requestBody, other.request, doc.example) } }),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tashkent collateral valuation API',
      version,
      description: `REST compatibility routes of the valuation gateway. Errors: ${Object.entries(ERROR_CATALOGUE).map(([code, e]) => `${code} (${e.status})`).join(', ')}.`,
    },
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    paths,
  };
}

function describeStatus(code: string): string {
  return ({ '200': 'Success', '202': 'Accepted', '4XX': 'Client error (see error.code)', '5XX': 'Server error' } as Record<string, string>)[code] ?? code;
}
