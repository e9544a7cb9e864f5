/**
 * Authentication and quotas of the MCP server: /mcp takes the other routes' credentials and
 * counts against the same plan; the stdio server, calling the gateway with its key, reports the
 * gateway's refusals as tool errors.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { plansFileWith } from '../support/plans';
import { TOOLS } from '../../gateway/mcp/tools';
import { json, readMetrics, TEST_METRICS_TOKEN, useTestStack } from '../support/stack';
import { callOk, connectHttp, connectStdio, SAMPLE_HOME_ARGUMENTS, STDIO_MAIN, toolErrorBody } from './support';

/** The repository's plans plus one whose daily quota an MCP session exhausts in a few calls. */
const TINY_PLAN = 'mcp-tiny';
const TINY_PER_DAY = 6;
const plansFile = plansFileWith({ [TINY_PLAN]: { quota: { perMinute: 1000, perDay: TINY_PER_DAY }, valuations: { perMinute: 1000, perDay: 1000 }, maxBatchItems: 10, batchItemsPerDay: 100 } });

const fixture = useTestStack(() => ({ redisUrl: process.env.REDIS_URL || undefined, env: { PLANS_FILE: plansFile, METRICS_TOKEN: TEST_METRICS_TOKEN } }));

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1.0' } } };
const postMcp = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
  fetch(`${fixture.stack.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

describe('Streamable HTTP on /mcp', () => {
  it('without a key: HTTP 401 at connect, with WWW-Authenticate and the API error body', async () => {
    await expect(connectHttp(fixture.stack, {})).rejects.toMatchObject({ code: 401 } satisfies Partial<StreamableHTTPError>);
    const response = await postMcp({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="tashkent-valuation", ApiKey realm="tashkent-valuation", header="X-API-Key"');
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await json(response);
    expect(body.error).toMatchObject({ code: 'INVALID_API_KEY', message: expect.stringMatching(/X-API-Key/), request_id: expect.any(String) });
  });

  it('with a wrong key or token: 401 with error="invalid_token"', async () => {
    await expect(connectHttp(fixture.stack, { 'x-api-key': 'tvk_not-a-key' })).rejects.toMatchObject({ code: 401 });
    const badKey = await postMcp({ 'x-api-key': 'tvk_not-a-key' });
    expect(badKey.status).toBe(401);
    expect(badKey.headers.get('www-authenticate')).toMatch(/^Bearer realm="tashkent-valuation", error="invalid_token"/);
    expect((await json(badKey)).error.code).toBe('INVALID_API_KEY');
    const badToken = await postMcp({ authorization: 'Bearer not.a.jwt' });
    expect(badToken.status).toBe(401);
    expect((await json(badToken)).error.code).toBe('INVALID_TOKEN');
  });

  it('a web page of another origin is refused with 403 ORIGIN_NOT_ALLOWED (DNS rebinding), before the key is even looked at', async () => {
    const { port } = new URL(fixture.stack.url);
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null']) {
      const refused = await postMcp({ 'x-api-key': fixture.key, origin });
      expect([origin, refused.status]).toEqual([origin, 403]);
      expect((await json(refused)).error.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    // A rebinding page reaches a loopback gateway under its own host name: Origin and Host both the attacker's.
    const rebound = await postMcp({ 'x-api-key': fixture.key, origin: `http://evil.example:${port}`, host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    // A page served by this gateway on loopback, and clients that send no Origin, are answered.
    expect((await postMcp({ 'x-api-key': fixture.key, origin: fixture.stack.url })).status).toBe(200);
    expect((await postMcp({ 'x-api-key': fixture.key })).status).toBe(200);
  });

  it('a bearer token from POST /service/auth/token works as the key does', async () => {
    const token = (await json(await fixture.post('/service/auth/token', {}))).access_token;
    const session = await connectHttp(fixture.stack, { authorization: `Bearer ${token}` });
    try {
      const { reply } = await callOk(session.client, 'value_home', SAMPLE_HOME_ARGUMENTS);
      expect(reply.estimate).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  it('answers in JSON with the RateLimit, API-Version and X-Request-Id headers of every route, and is counted in the metrics', async () => {
    const response = await postMcp({ 'x-api-key': fixture.key, 'x-request-id': 'mcp-test-1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('api-version')).toBe('v1.0');
    expect(response.headers.get('x-request-id')).toBe('mcp-test-1');
    expect(Number(response.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(response.headers.get('mcp-session-id')).toBeNull(); // stateless
    const body = await json(response);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'tashkent-valuation' }, capabilities: { tools: {} } } });
    const metrics = await readMetrics(fixture.stack);
    expect(metrics).toMatch(/http_requests_total\{route="\/mcp",method="POST",status="200"\} \d+/);
  });

  it('GET and DELETE answer 405: there are no sessions or server-sent streams', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${fixture.stack.url}/mcp`, { method, headers: { 'x-api-key': fixture.key, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await json(await fetch(`${fixture.stack.url}/openapi.json`));
    expect(doc.paths['/mcp'].post).toMatchObject({ tags: ['agents'], security: [{ ApiKey: [] }, { BearerToken: [] }] });
  });
});

describe('organisations', () => {
  it('another organisation\'s batch job is NOT_FOUND, on both transports', async () => {
    const owner = await connectHttp(fixture.stack, { 'x-api-key': fixture.key });
    const other = fixture.stack.newKey();
    const [http, stdio] = [await connectHttp(fixture.stack, { 'x-api-key': other }), await connectStdio(fixture.stack, other)];
    try {
      const { reply } = await callOk(owner.client, 'submit_batch', { items: [{ address: 'Yunusobod 8 kvartal' }] });
      expect((await callOk(owner.client, 'get_batch_status', { id: reply.id })).reply.id).toBe(reply.id);
      for (const session of [http, stdio]) {
        const error = toolErrorBody((await session.client.callTool({ name: 'get_batch_status', arguments: { id: reply.id, results_limit: 10 } })) as CallToolResult);
        expect(error).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      }
      // Keys never reach a log.
      expect(stdio.stderr()).not.toContain(other);
      expect(fixture.stack.logs.join('\n')).not.toContain(other);
    } finally {
      await Promise.all([owner.close(), http.close(), stdio.close()]);
    }
  });
});

describe('quotas', () => {
  it('past the plan\'s quota /mcp answers 429 with Retry-After, and the stdio server reports RATE_LIMITED as a tool error', async () => {
    const key = fixture.stack.newKey(TINY_PLAN);
    const session = await connectHttp(fixture.stack, { 'x-api-key': key }); // initialize and its notification: 2 requests
    let limited: unknown;
    let calls = 0;
    try {
      for (; calls < TINY_PER_DAY + 2 && !limited; calls++) {
        await session.client.callTool({ name: 'list_districts', arguments: { include_mahallas: false } }).then((result) => expect(result.isError).toBeFalsy(), (error: unknown) => (limited = error));
      }
    } finally {
      await session.close().catch(() => undefined);
    }
    expect(limited).toMatchObject({ code: 429, message: expect.stringMatching(/RATE_LIMITED/) });
    expect(calls).toBeLessThanOrEqual(TINY_PER_DAY - 1);

    const refused = await postMcp({ 'x-api-key': key });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expect((await json(refused)).error.code).toBe('RATE_LIMITED');

    // The same organisation's quota, through the stdio server: a tool error the assistant can read.
    const stdio = await connectStdio(fixture.stack, key);
    try {
      const error = toolErrorBody((await stdio.client.callTool({ name: 'value_home', arguments: SAMPLE_HOME_ARGUMENTS })) as CallToolResult);
      expect(error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/retry in \d+ s/) });
    } finally {
      await stdio.close();
    }
  });
});

describe('the stdio entry', () => {
  it('with a wrong key: every tool answers INVALID_API_KEY as a tool error', async () => {
    const session = await connectStdio(fixture.stack, 'tvk_not-a-key');
    try {
      expect((await session.client.listTools()).tools).toHaveLength(TOOLS.length);
      const error = toolErrorBody((await session.client.callTool({ name: 'get_model_accuracy', arguments: {} })) as CallToolResult);
      expect(error.code).toBe('INVALID_API_KEY');
      expect(session.stderr()).toContain(`operations go to ${fixture.stack.url}`);
    } finally {
      await session.close();
    }
  });

  it('with the gateway down: SERVICE_UNAVAILABLE naming VALUATION_URL', async () => {
    const session = await connectStdio({ ...fixture.stack, url: 'http://127.0.0.1:9' }, fixture.key);
    try {
      const error = toolErrorBody((await session.client.callTool({ name: 'geocode_address', arguments: { address: 'Yunusobod 8 kvartal' } })) as CallToolResult);
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/VALUATION_URL/) });
    } finally {
      await session.close();
    }
  });

  it('without VALUATION_API_KEY: exits at once, saying what to set, with nothing on stdout', () => {
    const run = spawnSync(process.execPath, [STDIO_MAIN], { env: { PATH: process.env.PATH ?? '' }, input: '', encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/VALUATION_API_KEY is not set/);
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  const listed = useTestStack({ env: { MCP_ALLOWED_ORIGINS: 'https://agents.bank.example, https://other.example' } });

  it('lets the pages of listed origins call /mcp, and no others', async () => {
    const post = (origin: string) =>
      fetch(`${listed.stack.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': listed.key, origin }, body: JSON.stringify(INITIALIZE) });
    expect((await post('https://agents.bank.example')).status).toBe(200);
    expect((await post('https://other.example')).status).toBe(200);
    expect((await post('https://agents.bank.example.evil')).status).toBe(403);
  });
});
