/**
 * One wording on every surface: each field of the GraphQL valuation inputs that the REST field table
 * has is described by the table (graphqlDescription), so REST, MCP and GraphQL clients read the same
 * text. A description written by hand in subgraphs/residential/types.ts or subgraphs/vehicle/types.ts fails here.
 */
import type { GraphQLInputObjectType } from 'graphql';
import { graphqlDescription, type FieldSpec } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import { VEHICLE_FIELDS } from '../../schema/vehicle-contract';
import { buildResidentialSchema } from '../../subgraphs/residential';
import { buildVehicleSchema } from '../../subgraphs/vehicle';

const INPUTS = [
  { name: 'HomeValuationInput', fields: HOME_FIELDS, build: buildResidentialSchema },
  { name: 'VehicleValuationInput', fields: VEHICLE_FIELDS, build: buildVehicleSchema },
] as const;

describe.each(INPUTS.map((input) => [input.name, input] as const))('%s', (name, { fields, build }) => {
  it("describes each of the table's fields as the table does", async () => {
    const type = (await build()).getType(name) as GraphQLInputObjectType;
    const tabled = Object.values(type.getFields()).filter((field) => (fields as readonly FieldSpec[]).some((f) => f.graphql === field.name || f.textGraphql === field.name));
    // Every input field but the currency ones (read from schema/currency-contract.ts) is in the table.
    expect(tabled.length).toBeGreaterThanOrEqual(Object.keys(type.getFields()).length - 2);
    expect(tabled.map((field) => [field.name, field.description])).toEqual(tabled.map((field) => [field.name, graphqlDescription(fields, field.name)]));
  });
});

it('states a range once', () => {
  const table: FieldSpec[] = [
    { rest: 'a', graphql: 'a', kind: 'number', required: false, min: 1, max: 2000, description: 'A' },
    { rest: 'b', graphql: 'b', kind: 'number', required: false, min: 1, max: 2000, description: 'B, 1 to 2,000' },
  ];
  expect(graphqlDescription(table, 'a')).toBe('A (1 to 2,000)');
  expect(graphqlDescription(table, 'b')).toBe('B, 1 to 2,000');
});
