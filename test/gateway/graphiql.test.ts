/**
 * GraphiQL on GET /graphql for browsers (gateway/ops/graphiql.ts), through the real stack: the page
 * and every asset it loads come from this server (the installed packages' own files), a CSP says so
 * to the browser, and every request that is not a browser opening /graphql reaches the API as before.
 * With INTROSPECTION=false the server refuses GraphiQL's schema query, and the page's script turns
 * that refusal into a sentence saying introspection is off (run here on stubs of React and GraphiQL).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { getIntrospectionQuery } from 'graphql';
import { GRAPHIQL_CSP } from '../../gateway/ops/graphiql';
import { json, startTestStack, type TestStack } from '../support/stack';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

/** What Chromium sends when a person opens a URL. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const installed = (name: string, ...path: string[]) => readFileSync(join(dirname(require.resolve(`${name}/package.json`)), ...path));

/** Every URL the page loads: script src, stylesheet href. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
}

/** The page's init.js run on stubs: the props it renders GraphiQL with, its fetcher over `answer`. */
function initWith(script: string, answer: unknown) {
  let props: { fetcher(params: unknown): Promise<unknown>; defaultHeaders: string; defaultQuery: string } | undefined;
  const GraphiQL = Object.assign(() => null, { createFetcher: () => () => Promise.resolve(answer) });
  runInNewContext(script, {
    GraphiQL,
    React: { createElement: (_component: unknown, given: typeof props) => (props = given) },
    ReactDOM: { createRoot: () => ({ render: () => undefined }) },
    document: { getElementById: () => ({}) },
  });
  return props!;
}

describe('GraphiQL with introspection on (the default)', () => {
  let stack: SharedTestStack;
  let key: string;
  beforeAll(async () => {
    stack = await sharedTestStack();
    key = stack.newKey('enterprise');
  });
  

  const open = (path = '/graphql', headers: Record<string, string> = {}) => fetch(`${stack.url}${path}`, { headers: { accept: BROWSER_ACCEPT, ...headers } });

  test('a browser opening /graphql gets the GraphiQL page, no API key needed, under a CSP allowing only this server', async () => {
    const response = await open();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(GRAPHIQL_CSP);
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "style-src 'self' 'unsafe-inline'"]) expect(GRAPHIQL_CSP).toContain(directive);
    expect(GRAPHIQL_CSP).not.toMatch(/https?:|\*|unsafe-eval/);
    const html = await response.text();
    expect(html).toContain('<div id="graphiql">');
    // Nothing from another host: no absolute or protocol-relative URL anywhere in the page.
    expect(html).not.toMatch(/(?:src|href)="(?:[a-z]+:)?\/\//i);
    expect(assetUrls(html)).toEqual(['/graphiql/graphiql.min.css', '/graphiql/react.production.min.js', '/graphiql/react-dom.production.min.js', '/graphiql/graphiql.min.js', '/graphiql/init.js']);
    // The same with an API key sent along, and with a trailing '?'.
    expect((await (await open('/graphql?', { 'x-api-key': key })).text())).toBe(html);
  });

  test('every asset the page loads answers 200 from this server: the installed packages’ own files', async () => {
    const expected: Record<string, [RegExp, Buffer | null]> = {
      '/graphiql/graphiql.min.css': [/^text\/css/, installed('graphiql', 'graphiql.min.css')],
      '/graphiql/react.production.min.js': [/^application\/javascript/, installed('react', 'umd', 'react.production.min.js')],
      '/graphiql/react-dom.production.min.js': [/^application\/javascript/, installed('react-dom', 'umd', 'react-dom.production.min.js')],
      '/graphiql/graphiql.min.js': [/^application\/javascript/, installed('graphiql', 'graphiql.min.js')],
      '/graphiql/init.js': [/^application\/javascript/, null],
    };
    for (const [path, [type, bytes]] of Object.entries(expected)) {
      const response = await fetch(`${stack.url}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('content-type')).toMatch(type);
      const body = Buffer.from(await response.arrayBuffer());
      if (bytes) expect(body.equals(bytes)).toBe(true);
      else expect(body.toString()).not.toMatch(/https?:\/\//);
    }
    expect((await stack.fetch('/graphiql/%2e%2e%2fpackage.json')).status).toBe(404);
    expect((await stack.fetch('/graphiql/graphiql.js')).status).toBe(404);
  });

  test("the page's script asks for the API key in the Headers tab, and says so when GraphiQL's schema query lacks it", async () => {
    const script = await (await fetch(`${stack.url}/graphiql/init.js`)).text();
    const refusal = await json(await stack.post('/graphql', { query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' }));
    const props = initWith(script, refusal);
    expect(JSON.parse(props.defaultHeaders)).toEqual({ 'X-API-Key': '' });
    expect(await props.fetcher({ operationName: 'IntrospectionQuery', query: getIntrospectionQuery() })).toEqual({ errors: [{ message: expect.stringMatching(/^Send your API key: .*Headers tab/) }] });
    // Other operations' replies are shown as they come.
    expect(await props.fetcher({ query: '{ residentialModel { version } }' })).toEqual(refusal);
    // With the key the schema comes back, untouched.
    const schema = await json(await stack.post('/graphql', { query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' }, { 'x-api-key': key }));
    expect(schema.data.__schema.queryType.name).toBe('Query');
    expect(await initWith(script, schema).fetcher({ operationName: 'IntrospectionQuery' })).toBe(schema);
  });

  test('every other /graphql request reaches the API as before', async () => {
    // An operation in the URL, even from a browser: executed (with a key), refused (without).
    const query = encodeURIComponent('{ residentialModel { version } }');
    const withKey = await open(`/graphql?query=${query}`, { 'x-api-key': key, 'apollo-require-preflight': '1' });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('content-type')).toMatch(/json/);
    expect((await json(withKey)).data.residentialModel.version).toEqual(expect.any(String));
    const withoutKey = await open(`/graphql?query=${query}`);
    expect(withoutKey.status).toBe(401);
    expect((await json(withoutKey)).error.code).toBe('INVALID_API_KEY');
    // Not asking for HTML: the API's answers, as before the page existed.
    const jsonClient = await fetch(`${stack.url}/graphql`, { headers: { accept: 'application/json' } });
    expect(jsonClient.status).toBe(401);
    const keyed = await fetch(`${stack.url}/graphql`, { headers: { accept: 'application/json', 'x-api-key': key, 'apollo-require-preflight': '1' } });
    expect(keyed.status).toBe(400);
    expect(keyed.headers.get('content-type')).toMatch(/json/);
    // POST is never the page.
    const post = await fetch(`${stack.url}/graphql`, { method: 'POST', headers: { accept: BROWSER_ACCEPT, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(post.status).toBe(401);
    expect(post.headers.get('content-type')).toMatch(/json/);
  });

  test('the landing page links it', async () => {
    expect(await (await stack.fetch('/')).text()).toContain('<a href="/graphql">GraphiQL</a>');
  });
});

describe('GraphiQL with INTROSPECTION=false', () => {
  let stack: TestStack;
  const before = process.env.INTROSPECTION;
  beforeAll(async () => {
    stack = await startTestStack({ env: { INTROSPECTION: 'false' } });
  });
  afterAll(async () => {
    await stack?.stop();
    if (before === undefined) delete process.env.INTROSPECTION;
    else process.env.INTROSPECTION = before;
  });

  test("the server refuses GraphiQL's schema query, and the page says introspection is off", async () => {
    const key = stack.newKey('enterprise');
    const page = await fetch(`${stack.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    const refusal = await json(await stack.post('/graphql', { query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' }, { 'x-api-key': key }));
    expect(refusal.data).toBeUndefined();
    expect(refusal.errors[0].message).toMatch(/introspection/i);
    const script = await (await fetch(`${stack.url}/graphiql/init.js`)).text();
    expect(await initWith(script, refusal).fetcher({ operationName: 'IntrospectionQuery' })).toEqual({ errors: [{ message: expect.stringMatching(/^Introspection is off on this server \(INTROSPECTION=false\)/) }] });
    // Queries still run.
    const answer = await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }));
    expect(answer.data.residentialModel.version).toEqual(expect.any(String));
  });
});
