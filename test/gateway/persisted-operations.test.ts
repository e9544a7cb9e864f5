/**
 * REST routes send their persisted operation straight to the owning subgraph. That is only right
 * while every field of the operation belongs to that subgraph: this test fails the day one doesn't.
 */
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, validate } from 'graphql';
import { BATCH_JOB_OPERATION, BATCH_RESULTS_OPERATION, SUBMIT_BATCH_OPERATION } from '../../gateway/operations/batch';
import { HOME_VALUATION_OPERATION } from '../../gateway/operations/home';
import { LOCATION_INDEX_BY_ADDRESS_OPERATION, LOCATION_INDEX_OPERATION } from '../../gateway/operations/location';
import { VEHICLE_VALUATION_OPERATION } from '../../gateway/operations/vehicle';
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
  const owner = SUBGRAPHS.find((s) => s.name === operation.owner);
  expect(owner).toBeDefined();
  const schema = buildSubgraphSchema(parse(readFileSync(owner!.sdlPath, 'utf8')));
  expect(validate(schema, parse(operation.query))).toEqual([]);
});
