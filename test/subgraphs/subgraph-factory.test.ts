/**
 * The one subgraph factory (subgraphs/common/subgraph-factory.ts): a valuing subgraph's records and
 * observation book are opened before its own `open` and closed after it, in reverse order, on close
 * and when a later start step fails; modelVersion and summary are read when asked (a hot swap changes them).
 */
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOME_HIERARCHY } from '../../models/observations';
import type { SubgraphStart } from '../../platform/subgraph-module';
import * as observationBook from '../../subgraphs/common/observation-book';
import * as valuationRecorder from '../../subgraphs/common/valuation-recorder';
import { defineSubgraph } from '../../subgraphs/common/subgraph-factory';
import { buildValuationsSchema } from '../../subgraphs/valuations';

let home: string;
let closed: string[];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'subgraph-factory-'));
  closed = [];
  // Each store's close, noted in the order it is called.
  const openRecorder = valuationRecorder.openValuationRecorder;
  jest.spyOn(valuationRecorder, 'openValuationRecorder').mockImplementation(async (options) => {
    const opened = await openRecorder(options);
    return { recorder: opened.recorder, close: () => opened.close().then(() => void closed.push('records')) };
  });
  const openBook = observationBook.openObservationBook;
  jest.spyOn(observationBook, 'openObservationBook').mockImplementation(async (options) => {
    const opened = await openBook(options);
    return { book: opened.book, close: () => opened.close().then(() => void closed.push('observations')) };
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  rmSync(home, { recursive: true, force: true });
});

function startOptions(port = 0): SubgraphStart {
  return {
    config: { host: '127.0.0.1', port, internalToken: 'factory-token', introspection: false },
    env: { VALUATION_HOME: home },
    mode: 'all-in-one',
    databaseUrl: '',
    redisUrl: '',
    peers: {},
    overrides: {},
    log: () => undefined,
  };
}

/** A valuing subgraph (any schema serves: the factory does not read it) whose own part is `open`. */
function valuing(open: () => Promise<void>, version: { current: string }) {
  return defineSubgraph({
    name: 'valuations',
    buildSchema: buildValuationsSchema,
    valuing: { kind: 'home', hierarchy: HOME_HIERARCHY },
    async open(_start, stores) {
      expect(stores.records.kind).toBe('home');
      expect(stores.observations.hierarchy).toBe(HOME_HIERARCHY);
      await open();
      return {
        context: () => ({}),
        modelVersion: () => version.current,
        summary: () => `model ${version.current}`,
        close: async () => void closed.push('own'),
      };
    },
  });
}

it('closes the server, then its own part, then the observations and the records', async () => {
  const version = { current: '2026.11.1' };
  const running = await valuing(async () => undefined, version).start(startOptions());
  expect(running.modelVersion).toBe('2026.11.1');
  version.current = '2026.11.2';
  expect(running.modelVersion).toBe('2026.11.2');
  expect(running.summary).toBe('model 2026.11.2');
  const reply = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-token': 'factory-token' }, body: '{"query":"{ __typename }"}' });
  expect(await reply.json()).toEqual({ data: { __typename: 'Query' } });
  expect(closed).toEqual([]);
  await running.close();
  expect(closed).toEqual(['own', 'observations', 'records']);
});

it('closes the stores it opened when the subgraph fails to open', async () => {
  const failing = valuing(async () => {
    throw new Error('no model');
  }, { current: 'x' });
  await expect(failing.start(startOptions())).rejects.toThrow('no model');
  expect(closed).toEqual(['observations', 'records']);
});

it('closes everything it opened when the server cannot listen', async () => {
  const taken: Server = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const port = (taken.address() as { port: number }).port;
    await expect(valuing(async () => undefined, { current: 'x' }).start(startOptions(port))).rejects.toThrow();
    expect(closed).toEqual(['own', 'observations', 'records']);
  } finally {
    taken.close();
  }
});
