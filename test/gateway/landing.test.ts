/** GET / (the landing page) and GET /model-cards/:name on the real gateway. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../models/paths';
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
beforeAll(async () => {
  stack = await sharedTestStack();
});

it('the landing page links the docs, the OpenAPI document, GraphiQL, the dashboard, health and every model card, each of which answers a browser', async () => {
  const response = await stack.fetch('/');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await response.text();
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  expect(links).toEqual(['/docs', '/openapi.json', '/graphql', '/dashboard', '/model-cards/residential', '/model-cards/vehicle', '/health', '/ready']);
  for (const link of links) {
    const page = await stack.fetch(link, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect([link, page.status]).toEqual([link, 200]);
    // Read to the end: a body left unread keeps its socket open past the stack's stop, and the jest worker with it.
    await page.arrayBuffer();
  }
});

it('serves each model card as the markdown in docs/, and 404 with the names for an unknown one', async () => {
  const vehicle = await stack.fetch('/model-cards/vehicle');
  expect(vehicle.headers.get('content-type')).toMatch(/^text\/markdown/);
  expect(await vehicle.text()).toBe(readFileSync(join(PROJECT_ROOT, 'docs', 'VEHICLE_MODEL_CARD.md'), 'utf8'));
  const missing = await stack.fetch('/model-cards/boats');
  expect(missing.status).toBe(404);
  expect((await json(missing)).error).toMatchObject({ code: 'NOT_FOUND', message: 'No model card boats; there are residential, vehicle' });
});

it('serves a model card to a browser as an HTML page of the same text (issue 35, item 7), and the markdown on ?format=md', async () => {
  const asBrowser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const page = await stack.fetch('/model-cards/residential', { headers: asBrowser });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
  expect(page.headers.get('vary')).toMatch(/Accept/);
  const html = await page.text();
  const card = readFileSync(join(PROJECT_ROOT, 'docs', 'MODEL_CARD.md'), 'utf8');
  // Its headings and tables rendered, not shown as markdown source.
  const firstHeading = /^# (.+)$/m.exec(card)![1];
  expect(html).toContain(`<h1>${firstHeading.replace(/&/g, '&amp;')}</h1>`);
  expect(html).toMatch(/<table>[\s\S]*<th>/);
  expect(html).not.toMatch(/\n\|---/);
  expect(html).not.toMatch(/<script/i);
  // The same as markdown on request, and an unknown format refused.
  const asMarkdown = await stack.fetch('/model-cards/residential?format=md', { headers: asBrowser });
  expect(asMarkdown.headers.get('content-type')).toMatch(/^text\/markdown/);
  expect(await asMarkdown.text()).toBe(card);
  const refused = await stack.fetch('/model-cards/residential?format=pdf');
  expect(refused.status).toBe(400);
  expect((await json(refused)).error.code).toBe('INVALID_PARAMETER');
  const vehicleHtml = await stack.fetch('/model-cards/vehicle?format=html');
  expect(vehicleHtml.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await vehicleHtml.text()).toContain('<h1>');
});
