/**
 * GraphiQL for people who open GET /graphql in a browser (Accept: text/html, no GraphQL parameters),
 * served from the installed packages (graphiql's prebuilt bundle, React 18's UMD builds): no CDN,
 * and a Content-Security-Policy that lets the page load and call nothing but this server. Every
 * other /graphql request goes on to the API untouched (API key, Apollo Server).
 *
 * The page itself needs no key; every call it makes does: the Headers tab starts with an empty
 * X-API-Key. With INTROSPECTION=false the gateway refuses GraphiQL's schema query like any other,
 * and the page says introspection is off (queries still run, without docs or completion).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../schema/errors';
import { sendError } from '../http/errors';

export const GRAPHIQL_ASSETS_PATH = '/graphiql';

const JS = 'application/javascript; charset=utf-8';
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The files the page loads, by the name it asks for: where each lives in node_modules and its type. */
const ASSETS: Record<string, { file: () => string; type: string }> = {
  'react.production.min.js': { file: () => join(packageDir('react'), 'umd', 'react.production.min.js'), type: JS },
  'react-dom.production.min.js': { file: () => join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'), type: JS },
  'graphiql.min.js': { file: () => join(packageDir('graphiql'), 'graphiql.min.js'), type: JS },
  'graphiql.min.css': { file: () => join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css; charset=utf-8' },
};

/**
 * Only this server: scripts and styles from our own URLs (GraphiQL sets inline style attributes, its
 * fonts and icons are data: URLs), calls to /graphql, no frames, no plugins.
 */
export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphiQL · Tashkent collateral valuation</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0}</style></head>
<body><div id="graphiql">Loading GraphiQL…</div>
<noscript>GraphiQL needs JavaScript. Without it, POST your queries to /graphql with an X-API-Key header.</noscript>
<script src="${GRAPHIQL_ASSETS_PATH}/react.production.min.js"></script>
<script src="${GRAPHIQL_ASSETS_PATH}/react-dom.production.min.js"></script>
<script src="${GRAPHIQL_ASSETS_PATH}/graphiql.min.js"></script>
<script src="${GRAPHIQL_ASSETS_PATH}/init.js"></script>
</body></html>`;

const EXAMPLE = `# Every call needs your API key: put it in the Headers tab below, then
# reload the schema (Ctrl+Shift+R, or the ⟳ button on the left).
{
  residentialModel {
    version
  }
}
`;

// The schema query is the one GraphiQL names IntrospectionQuery; its refusals are turned into one
// clear sentence, since GraphiQL shows them where the schema would be.
const INIT = `(function () {
  var baseFetcher = GraphiQL.createFetcher({ url: '/graphql' });
  var NO_KEY = 'Send your API key: put {"X-API-Key": "tvk_…"} in the Headers tab, then reload the schema (Ctrl+Shift+R).';
  var OFF = 'Introspection is off on this server (INTROSPECTION=false): GraphiQL has no schema, docs or completion here, but queries still run with your API key.';
  function fetcher(params, options) {
    var result = baseFetcher(params, options);
    if (!params || params.operationName !== 'IntrospectionQuery' || !result || typeof result.then !== 'function') return result;
    return result.then(function (body) {
      if (body && body.error && /API_KEY|TOKEN/.test(body.error.code || '')) return { errors: [{ message: NO_KEY + ' (' + body.error.message + ')' }] };
      var errors = (body && body.errors) || [];
      if (errors.some(function (e) { return /introspection/i.test(e.message || ''); })) return { errors: [{ message: OFF }] };
      return body;
    });
  }
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: ${JSON.stringify(EXAMPLE)},
      defaultHeaders: JSON.stringify({ 'X-API-Key': '' }, null, 2),
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
`;

/** GraphQL-over-HTTP parameters of a GET: with any of them the request is an operation, not a page visit. */
const OPERATION_PARAMS = ['query', 'extensions', 'operationName', 'variables'];

/** A browser opening /graphql: GET, asking for HTML, with no operation in the URL. */
export function wantsGraphiql(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (request.method !== 'GET') return false;
  const at = request.url.indexOf('?');
  if ((at < 0 ? request.url : request.url.slice(0, at)) !== '/graphql') return false;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || !/\btext\/html\b/i.test(accept)) return false;
  const params = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
  return !OPERATION_PARAMS.some((name) => params.has(name));
}

export function registerGraphiql(app: FastifyInstance): void {
  const cache = new Map<string, Buffer>();
  // Before the /graphql route's API-key check: a browser sends none, and the page shows no data.
  app.addHook('onRequest', async (request, reply) => {
    if (!wantsGraphiql(request)) return;
    return reply.type('text/html; charset=utf-8').header('content-security-policy', GRAPHIQL_CSP).header('cache-control', 'no-cache').send(PAGE);
  });
  app.get(`${GRAPHIQL_ASSETS_PATH}/init.js`, async (_request, reply) => reply.type(JS).header('cache-control', 'no-cache').send(INIT));
  app.get<{ Params: { asset: string } }>(`${GRAPHIQL_ASSETS_PATH}/:asset`, async (request, reply) => {
    const asset = ASSETS[request.params.asset];
    if (!asset) return sendError(request, reply, new ApiError('NOT_FOUND', `No GraphiQL asset ${request.params.asset.slice(0, 100)}`));
    let content = cache.get(request.params.asset);
    if (!content) cache.set(request.params.asset, (content = readFileSync(asset.file())));
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(content);
  });
}
