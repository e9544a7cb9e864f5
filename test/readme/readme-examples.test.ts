/**
 * The examples of README.md and docs/API.md, run as a reader runs them (test/support/example-runner.ts): every
 * checked block through bash, with curl, against the real service, in the document's order and in one shell session
 * (so `ID=…` in one block is there in the next), and every shown output compared with what was printed. A reply that changed (a new model version, another
 * estimate, a renamed field) fails here until the document shows it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareOutput as compare, ExampleReader } from '../support/example-runner';
import { exampleSteps, fencedBlocks, jsonValues, type Step } from '../support/markdown-examples';
import { startTestStack, type TestStack } from '../support/stack';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const API = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'API.md'), 'utf8');

describe('the examples in README.md', () => {
  const steps = exampleSteps(README);

  it('checks every curl example the README shows, each followed by the output it prints', () => {
    const unchecked = fencedBlocks(README).filter((block) => /\bcurl\b/.test(block.code) && !/^example:/.test(block.marker ?? ''));
    expect(unchecked.map((block) => `line ${block.line}`)).toEqual([]);
    // The sections the issue names (35, item 11) keep an example each.
    const names = steps.filter((step) => step.kind === 'run').map((step) => step.name);
    for (const name of ['first-valuation', 'currency-uzs', 'graphql', 'webhook-receiver', 'batch', 'mcp']) expect(names).toContain(name);
    for (const step of steps) {
      if (step.kind === 'output') expect(names).toContain(step.name);
    }
  });

  it('a shown output that is no longer what the service says fails the comparison', () => {
    const first = steps.find((step): step is Extract<Step, { kind: 'output' }> => step.kind === 'output' && step.name === 'first-valuation')!;
    const [shown] = jsonValues(first.shown) as [{ estimate: number; model_version: string }];
    const printed = (patch: object) => JSON.stringify({ ...shown, ...patch });
    expect(compare(first, first.shown, printed({}))).toEqual([]);
    expect(compare(first, first.shown, printed({ estimate: shown.estimate + 100 }))).not.toEqual([]);
    expect(compare(first, first.shown, printed({ model_version: `${shown.model_version}.1` }))).not.toEqual([]);
    expect(compare(first, first.shown, JSON.stringify({ ...shown, interval: undefined }))).not.toEqual([]);
  });

});

describe('the examples in docs/API.md', () => {
  const steps = exampleSteps(API);

  it('checks every curl example, or says in its marker why it is not run', () => {
    const unchecked = fencedBlocks(API).filter((block) => /\bcurl\b/.test(block.code) && !/^(example:|not run:\s*\S)/.test(block.marker ?? ''));
    expect(unchecked.map((block) => `line ${block.line}`)).toEqual([]);
    const names = steps.filter((step) => step.kind === 'run').map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
    for (const step of steps) {
      if (step.kind === 'output') expect(names).toContain(step.name);
    }
  });
});

// One stack for both documents, each read by a reader of its own organisation (observations recorded in one do not
// re-anchor the other's valuations), README.md first.
describe('the examples of README.md and docs/API.md, run against the service', () => {
  let stack: TestStack;
  const readers: ExampleReader[] = [];

  beforeAll(async () => {
    // As the README starts the service for the webhook example: receivers on loopback allowed.
    stack = await startTestStack({ env: { BATCH_CALLBACK_ALLOW_PRIVATE: '1' } });
  });

  afterAll(async () => {
    for (const reader of readers) reader.close();
    await stack?.stop();
  });

  /** A reader with a key of its own: the first start's key is on the development plan; the reader exports it as KEY. */
  async function reader(org: string): Promise<ExampleReader> {
    const started = await ExampleReader.start(stack.url, stack.keys.create({ org, plan: 'development' }).key);
    readers.push(started);
    return started;
  }

  // One test per document, in its order: a later block may stand on an earlier one (the receiver, an ID).
  it('README.md prints what it shows', async () => {
    await (await reader('readme-reader')).run('README.md', exampleSteps(README));
  });

  it('docs/API.md prints what it shows', async () => {
    await (await reader('api-reader')).run('docs/API.md', exampleSteps(API));
  });
});
