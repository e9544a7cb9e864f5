/** A promoted version is served without a restart; rollback is one command. */
import { rmSync } from 'node:fs';
import { runModelCli } from '../../tools/models/residential/model-cli';
import { setCurrentVersion } from '../../models/ensemble/versions';
import { VEHICLE_DIR } from '../../models/vehicle/manifest';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { artifactsWithTwoVersions } from '../support/artifacts';
import { json, readMetrics, startTestStack, TEST_METRICS_TOKEN, type TestStack } from '../support/stack';

let stack: TestStack;
let key: string;
const artifacts = artifactsWithTwoVersions();

beforeAll(async () => {
  stack = await startTestStack({ artifactsRoot: artifacts.root, env: { METRICS_TOKEN: TEST_METRICS_TOKEN } });
  key = stack.newKey('enterprise');
});
afterAll(async () => {
  await stack.stop();
  rmSync(artifacts.root, { recursive: true, force: true });
});

const servedVersion = async () => (await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }))).model_version;
const graphVersion = async () => (await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }))).data.residentialModel.version;

async function eventually(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('switches to a promoted version and back on rollback, answering throughout', async () => {
  expect(await servedVersion()).toBe(artifacts.original);
  const lines: string[] = [];
  expect(runModelCli(['promote', artifacts.copy], (l) => lines.push(l), artifacts.root)).toBe(0);
  // Keep valuing while the switch happens: no request may fail.
  const during: number[] = [];
  await eventually(async () => {
    const r = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
    during.push(r.status);
    return (await json(r)).model_version === artifacts.copy;
  });
  expect(during.every((s) => s === 200)).toBe(true);
  expect(await graphVersion()).toBe(artifacts.copy);
  const metrics = await readMetrics(stack);
  expect(metrics).toContain(`model_info{kind="residential",version="${artifacts.copy}"} 1`);

  expect(runModelCli(['rollback'], (l) => lines.push(l), artifacts.root)).toBe(0);
  await eventually(async () => (await servedVersion()) === artifacts.original);
  expect(lines.join('\n')).toMatch(/rolled back from 2099.01.0/);
});

it('refuses to promote an unknown version', () => {
  const lines: string[] = [];
  expect(runModelCli(['promote', '1999.01.0'], (l) => lines.push(l), artifacts.root)).toBe(2);
  expect(lines[0]).toMatch(/unknown version/);
});

describe('the vehicle model', () => {
  const vehicles = artifactsWithTwoVersions('2099.02.0', VEHICLE_DIR);
  let vehicleStack: TestStack;
  beforeAll(async () => {
    vehicleStack = await startTestStack({ vehicleArtifactsRoot: vehicles.root });
  });
  afterAll(async () => {
    await vehicleStack.stop();
    rmSync(vehicles.root, { recursive: true, force: true });
  });

  it('switches to a promoted vehicle version without a restart', async () => {
    const k = vehicleStack.newKey('enterprise');
    const served = async () => (await json(await vehicleStack.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST, { 'x-api-key': k }))).model_version;
    expect(await served()).toBe(vehicles.original);
    setCurrentVersion(vehicles.copy, vehicles.root);
    await eventually(async () => (await served()) === vehicles.copy);
  });
});
