/**
 * GET /: a landing page for people who open the service in a browser, linking what there is to read
 * and try (API docs, the OpenAPI document, GraphiQL, the batch dashboard, health, the model cards),
 * GET /model-cards/:name: the model cards, read at each request (retraining regenerates them), the
 * same files the MCP resources serve: an HTML page for a browser (Accept: text/html, or
 * ?format=html), the markdown otherwise (or ?format=md); and GraphiQL on GET /graphql for browsers
 * (./graphiql.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import MarkdownIt from 'markdown-it';
import { PROJECT_ROOT } from '../../models/paths';
import { ApiError } from '../../schema/errors';
import { sendError } from '../http/errors';
import { MODEL_CARDS } from '../mcp/resources';
import { DASHBOARD_PATH } from '../dashboard';
import { registerGraphiql } from './graphiql';

/** The card's short name: the last part of its MCP URI (valuation://model-cards/vehicle → vehicle). */
const CARDS = new Map(MODEL_CARDS.map((card) => [card.uri.slice(card.uri.lastIndexOf('/') + 1), card]));

const escape = (text: string) => text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/**
 * Markdown to HTML (issue 35, item 7: a card served as text/markdown was unreadable in a browser).
 * Raw HTML in the markdown is escaped, not passed through (`html: false`), so a card cannot carry script.
 */
const markdown = new MarkdownIt({ html: false, linkify: false });

/** No script, no outside resource: the page is the card's text and its own style. */
const CARD_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

function cardPage(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}code{background:#f4f4f4;padding:0 .2rem}</style></head>
<body>
${markdown.render(text)}
</body></html>`;
}

function page(): string {
  const link = (href: string, label: string, what: string) => `<li><a href="${href}">${escape(label)}</a>: ${escape(what)}</li>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tashkent collateral valuation</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>Tashkent collateral valuation</h1>
<p>Apartments and houses in Tashkent, used vehicles, and the location quality of any Tashkent point: every valuation with an estimate, a calibrated 90% interval, a confidence level and anomaly checks. Calls need an API key (<code>X-API-Key</code>).</p>
<ul>
${link('/docs', 'API docs', 'every REST route, its fields and errors, to try out')}
${link('/openapi.json', 'OpenAPI document', 'the same, for code generators')}
<li><code>POST /graphql</code>: the GraphQL API (valuations, the catalogue, the market index, batch jobs); <code>batchProgress</code> subscriptions over graphql-ws on the same path</li>
${link('/graphql', 'GraphiQL', 'the GraphQL API in the browser (your API key in its Headers tab)')}
${link(DASHBOARD_PATH, 'Batch dashboard', 'submit a portfolio and watch its progress')}
${[...CARDS].map(([name, card]) => link(`/model-cards/${name}`, card.title, 'how it was trained and how accurate it is (markdown with ?format=md)')).join('\n')}
${link('/health', 'Health', 'the process is up')}
${link('/ready', 'Readiness', 'the models and the graph are loaded')}
</ul></body></html>`;
}

export function registerLanding(app: FastifyInstance, docsDir = join(PROJECT_ROOT, 'docs')): void {
  registerGraphiql(app);
  const html = page();
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get<{ Params: { name: string }; Querystring: { format?: string } }>('/model-cards/:name', async (request, reply) => {
    const card = CARDS.get(request.params.name);
    const file = card && join(docsDir, card.file);
    if (!file || !existsSync(file)) {
      return sendError(request, reply, new ApiError('NOT_FOUND', `No model card ${request.params.name.slice(0, 100)}; there are ${[...CARDS.keys()].join(', ')}`));
    }
    const text = readFileSync(file, 'utf8');
    const { format } = request.query;
    if (format !== undefined && format !== 'html' && format !== 'md') return sendError(request, reply, new ApiError('INVALID_PARAMETER', 'format must be html or md', 'format'));
    const html = format === 'html' || (format === undefined && /\btext\/html\b/.test(request.headers.accept ?? ''));
    reply.header('vary', 'Accept');
    if (!html) return reply.type('text/markdown; charset=utf-8').send(text);
    return reply.type('text/html; charset=utf-8').header('content-security-policy', CARD_PAGE_CSP).send(cardPage(card.title, text));
  });
}
