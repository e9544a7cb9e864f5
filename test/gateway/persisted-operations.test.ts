/**
 * The doors (REST routes, MCP tools) send their persisted operations (gateway/operations/) straight
 * to the owning subgraph. That is only right while every field of the operation belongs to that
 * subgraph: this test fails the day one doesn't.
 */
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, validate } from 'graphql';
import { BATCH_JOB_OPERATION, BATCH_RESULTS_OPERATION, SUBMIT_BATCH_OPERATION } from '../../gateway/operations/batch';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { LOCATION_INDEX_BY_ADDRESS_OPERATION, LOCATION_INDEX_OPERATION } from '../../gateway/operations/location';
import { VEHICLE_VALUATION_OPERATION } from '../../gateway/operations/vehicle';
import * as backtests from '../../gateway/operations/backtest';
import * as batches from '../../gateway/operations/batch';
import * as home from '../../gateway/operations/home';
import * as location from '../../gateway/operations/location';
import * as models from '../../gateway/operations/model-accuracy';
import * as observations from '../../gateway/operations/observations';
import * as valuations from '../../gateway/operations/valuations';
import * as vehicle from '../../gateway/operations/vehicle';
import { SUBGRAPHS } from '../../tools/subgraphs';

it.each([
  ['home valuation', HOME_VALUATION_OPERATION],
  ['location index', LOCATION_INDEX_OPERATION],
  ['location index by address', LOCATION_INDEX_BY_ADDRESS_OPERATION],
  ['vehicle valuation', VEHICLE_VALUATION_OPERATION],
  ['batch submission', SUBMIT_BATCH_OPERATION],
  ['batch job', BATCH_JOB_OPERATION],
  ['batch results', BATCH_RESULTS_OPERATION],
])('the %s operation is valid against its owner\'s checked-in SDL alone', (_name, operation) => {
  expectValidAtOwner(operation);
});

/** Every operation the doors send with an owner (gateway/operations/), REST's, MCP's and both's. */
const OWNED = Object.entries({ ...backtests, ...batches, ...home, ...location, ...models, ...observations, ...valuations, ...vehicle }).filter(
  (entry): entry is [string, { owner: string; query: string }] => typeof entry[1] === 'object' && entry[1] !== null && typeof (entry[1] as { owner?: unknown }).owner === 'string',
);

it('finds the operations of gateway/operations/', () => {
  expect(OWNED.map(([name]) => name)).toEqual(expect.arrayContaining(['HOME_VALUATION_OPERATION', 'GEOCODE_OPERATION', 'LIVE_ACCURACY_OPERATION', 'REVALUE_OPERATION', 'BACKTEST_OPERATION']));
});

it.each(OWNED)('%s of gateway/operations/ is valid against its owner\'s checked-in SDL alone', (_name, operation) => {
  expectValidAtOwner(operation);
});

function expectValidAtOwner(operation: { owner: string; query: string }): void {
  const owner = SUBGRAPHS.find((s) => s.name === operation.owner);
  expect(owner).toBeDefined();
  const schema = buildSubgraphSchema(parse(readFileSync(owner!.sdlPath, 'utf8')));
  expect(validate(schema, parse(operation.query))).toEqual([]);
}
