/**
 * GET /dashboard: the batch dashboard, a static page built by Vite from ./web into dist/dashboard
 * (`npm run build`), with the district outlines its portfolio map draws (district-outlines.json,
 * ./outlines.ts). The page is public; every API call it makes carries the user's API key.
 * Without a build the routes answer 503 SERVICE_UNAVAILABLE instead of failing the gateway.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../schema/errors';
import { sendError } from '../http/errors';

export const DASHBOARD_PATH = '/dashboard';
/** Vite's output, next to the compiled gateway: dist/gateway/dashboard/index.js → dist/dashboard. */
export const DASHBOARD_BUILD_DIR = join(__dirname, '..', '..', 'dashboard');

/**
 * Same-origin only: the page talks to this gateway's /graphql (HTTP and WebSocket) and /api. No
 * 'unsafe-eval' nor 'unsafe-inline': the live accuracy plots run vega with vega-interpreter instead
 * of `new Function`, and vega's SVG renderer styles through the CSSOM (web/src/plots.ts).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface DashboardOptions {
  /** The built page. @default DASHBOARD_BUILD_DIR */
  root?: string;
  log?(message: string): void;
}

export async function registerDashboard(app: FastifyInstance, options: DashboardOptions = {}): Promise<void> {
  const root = options.root ?? DASHBOARD_BUILD_DIR;
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    });
    // Relative, so the page's relative asset URLs also resolve behind a path prefix.
    scope.get(DASHBOARD_PATH, async (request, reply) => {
      const query = request.url.indexOf('?');
      return reply.redirect(`dashboard/${query >= 0 ? request.url.slice(query) : ''}`, 301);
    });

    if (!existsSync(join(root, 'index.html'))) {
      options.log?.(`dashboard not built (no ${join(root, 'index.html')}): ${DASHBOARD_PATH} answers 503; run npm run build`);
      scope.get(`${DASHBOARD_PATH}/*`, async (request, reply) =>
        sendError(request, reply, new ApiError('SERVICE_UNAVAILABLE', 'The dashboard is not built: run npm run build (vite build into dist/dashboard)')));
      return;
    }
    await scope.register(fastifyStatic, {
      root,
      prefix: `${DASHBOARD_PATH}/`,
      index: 'index.html',
      decorateReply: false,
      // Vite names assets by content hash: cache them for good; index.html must always be fresh.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
}
