/** GET /docs: Swagger UI from the installed swagger-ui-dist package (no CDN), reading /openapi.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
// Only the path helper: the package's main module would load the whole 1 MB UI bundle into the server.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const getAbsoluteFSPath = require('swagger-ui-dist/absolute-path.js') as () => string;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Valuation API docs</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

export function registerDocs(app: FastifyInstance): void {
  const dir = getAbsoluteFSPath();
  const cache = new Map<string, Buffer>();
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/init.js', async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(INIT));
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const type = ASSETS[request.params.asset];
    if (!type) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such asset', request_id: request.id } });
    let content = cache.get(request.params.asset);
    if (!content) cache.set(request.params.asset, (content = readFileSync(join(dir, request.params.asset))));
    return reply.type(type).header('cache-control', 'public, max-age=3600').send(content);
  });
}
