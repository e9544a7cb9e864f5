/**
 * What every subgraph of the registry (subgraphs/registry.ts) must do, checked on each: /health
 * answers without credentials; anything else without the internal token is 401 INVALID_TOKEN and
 * gives nothing away, whatever caller headers say; `{ _service { sdl } }` answers the SDL checked in
 * under schema/ for it (tools/subgraphs.ts); /metrics takes the internal token as a bearer token
 * and nothing less. A subgraph added to the registry is in this suite without an edit here.
 *
 * Two deployments: each subgraph started alone (./support/subgraphs-alone.ts: as subgraphs/main.ts
 * starts one, peers over HTTP) and the all-in-one subgraphs of the worker's shared stack.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kind, parse, print, type DefinitionNode } from 'graphql';
import { SUBGRAPHS as SDL_FILES } from '../../tools/subgraphs';
import { SUBGRAPHS, type SubgraphName } from '../../subgraphs/registry';
import { sharedTestStack } from '../support/shared-stack';
import { json } from '../support/stack-client';
import { startSubgraphsAloneProcess } from '../support/subgraphs-alone';

/** Where a deployment's subgraphs answer, and the token they take. */
interface Deployment {
  internalToken: string;
  url(name: SubgraphName): string;
  stop?(): Promise<void>;
}

const DEPLOYMENTS: Array<[string, () => Promise<Deployment>]> = [
  ['alone', async () => {
    const alone = await startSubgraphsAloneProcess(randomBytes(24).toString('base64url'));
    return { internalToken: alone.internalToken, url: (name) => alone.urls[name], stop: () => alone.stop() };
  }],
  ['all-in-one (the shared stack)', async () => {
    const stack = await sharedTestStack();
    return { internalToken: stack.internalToken, url: (name) => stack[name].url };
  }],
];

/** Requests a caller without the token could make: none is let in, whatever it claims. */
const NO_TOKEN: Array<[string, Record<string, string>]> = [
  ['no token', {}],
  ['a guessed token', { 'x-internal-token': 'guess' }],
  ["the gateway's caller headers without the token", { 'x-organisation': 'anyone', 'x-plan': 'enterprise' }],
];

const SERVICE_SDL = JSON.stringify({ query: '{ _service { sdl } }' });

/** Federation's own definitions, which the served SDL spells out and the checked-in one leaves to @link. */
const FEDERATION_NAME = /^(link__|federation__|_Service$|_Entity$|_Any$)/;
const FEDERATION_FIELDS = new Set(['_service', '_entities']);

/** An SDL's own types by name, printed (directive definitions, schema @link and federation's types aside). */
function ownTypes(sdl: string): Record<string, string> {
  const types: Record<string, string> = {};
  for (const definition of parse(sdl).definitions as DefinitionNode[]) {
    if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION || definition.kind === Kind.DIRECTIVE_DEFINITION) continue;
    if (!('name' in definition) || !definition.name || FEDERATION_NAME.test(definition.name.value)) continue;
    const fields = 'fields' in definition && definition.fields ? { fields: (definition.fields as ReadonlyArray<{ name: { value: string } }>).filter((f) => !FEDERATION_FIELDS.has(f.name.value)) } : {};
    types[definition.name.value] = print({ ...definition, ...fields } as DefinitionNode);
  }
  return types;
}

test('the registry is what is checked, each subgraph with its checked-in SDL', () => {
  expect(SUBGRAPHS.length).toBeGreaterThanOrEqual(6);
  expect(SDL_FILES.map((s) => s.name)).toEqual(SUBGRAPHS.map((s) => s.name));
});

describe.each(DEPLOYMENTS)('subgraphs %s', (_deployment, start) => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await start();
  });
  afterAll(() => deployment?.stop?.());

  const base = (name: SubgraphName) => deployment.url(name).replace(/\/graphql$/, '');
  const post = (name: SubgraphName, headers: Record<string, string>) =>
    fetch(deployment.url(name), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: SERVICE_SDL });

  describe.each(SUBGRAPHS.map(({ name }) => [name] as const))('%s', (name) => {
    test('/health answers without credentials, naming the subgraph', async () => {
      const response = await fetch(`${base(name)}/health`);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ status: 'ok', service: name });
    });

    test.each(NO_TOKEN)('with %s: 401 INVALID_TOKEN and nothing of the schema', async (_label, headers) => {
      const response = await post(name, headers);
      expect(response.status).toBe(401);
      const body = await json(response);
      expect(body.error.code).toBe('INVALID_TOKEN');
      expect(JSON.stringify(body)).not.toMatch(/sdl|type Query/);
    });

    test('{ _service { sdl } } answers the SDL checked in under schema/ for it', async () => {
      const response = await post(name, { 'x-internal-token': deployment.internalToken });
      expect(response.status).toBe(200);
      const { data, errors } = await json(response);
      expect(errors).toBeUndefined();
      const checkedIn = readFileSync(SDL_FILES.find((s) => s.name === name)!.sdlPath, 'utf8');
      const served = ownTypes(data._service.sdl);
      expect(Object.keys(served).length).toBeGreaterThan(3);
      expect(served).toEqual(ownTypes(checkedIn));
    });

    test('/metrics takes the internal token as a bearer token, and nothing less', async () => {
      const metrics = `${base(name)}/metrics`;
      for (const headers of [{}, { authorization: 'Bearer guess' }, { authorization: deployment.internalToken }] as Array<Record<string, string>>) {
        const refused = await fetch(metrics, { headers });
        expect([headers, refused.status]).toEqual([headers, 401]);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect((await json(refused)).error.code).toBe('INVALID_TOKEN');
      }
      const served = await fetch(metrics, { headers: { authorization: `Bearer ${deployment.internalToken}` } });
      expect(served.status).toBe(200);
      expect(await served.text()).toMatch(/^# HELP /m);
    });
  });
});
