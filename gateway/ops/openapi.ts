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

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of [...routes.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(doc.responses)) {
      const code = status.replace('xx', 'XX');
      responses[code] = { description: describeStatus(code), content: { 'application/json': { schema } } };
    }
    paths[doc.path] = {
      ...paths[doc.path],
      [doc.method]: {
        summary: doc.summary,
        ...(doc.description && { description: doc.description }),
        tags: [doc.tag],
        ...(doc.security && { security: SECURITY[doc.security] }),
        ...(doc.requestBody && { requestBody: { required: true, content: { 'application/json': { schema: doc.requestBody } } } }),
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
