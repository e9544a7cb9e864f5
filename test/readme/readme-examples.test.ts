/**
 * The README's examples, run as a reader runs them: every checked block through bash, with curl, against the
 * real service, in the README's order and in one shell session (so `ID=…` in one block is there in the next),
 * and every shown output compared with what was printed. A reply that changed (a new model version, another
 * estimate, a renamed field) fails here until the README shows it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleSteps, fencedBlocks, jsonValues, mismatches, textMismatches, type Step } from '../support/markdown-examples';
import { startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

// The README's addresses: the service's default port and the webhook receiver's.
const README_SERVICE = '127.0.0.1:4000';
const README_RECEIVER_PORT = '9999';

/** One bash, as in a reader's terminal: blocks run in it one after another and share its variables. */
class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private count = 0;

  constructor(cwd: string, env: Record<string, string>) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { ...process.env, ...env } });
    this.bash.stdout.on('data', (data: Buffer) => (this.stdout += data.toString()));
    this.bash.stderr.on('data', (data: Buffer) => (this.stderr += data.toString()));
  }

  /** Runs `code` and returns what it printed and its exit status. */
  async run(code: string, timeoutMs = 60_000): Promise<{ stdout: string; stderr: string; status: number }> {
    const end = `__end_of_example_${++this.count}__`;
    this.stdout = '';
    this.stderr = '';
    // The block runs as typed; a newline first, as curl's reply ends without one.
    this.bash.stdin.write(`${code}\nprintf '\\n${end} %d\\n' $?\n`);
    const done = new RegExp(`\\n${end} (\\d+)\\n$`);
    const printed = await until(() => this.stdout, (out) => done.test(out), timeoutMs, 20);
    const match = done.exec(printed)!;
    return { stdout: printed.slice(0, match.index), stderr: this.stderr, status: Number(match[1]) };
  }

  close(): void {
    this.bash.stdin.end();
    this.bash.kill();
  }
}

/** A block run in a second terminal (the webhook receiver): its own process group, stopped at the end. */
class Background {
  private output = '';
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(code: string, cwd: string, env: Record<string, string>) {
    this.child = spawn('bash', ['-c', code], { cwd, env: { ...process.env, ...env }, detached: true });
    this.child.stdout.on('data', (data: Buffer) => (this.output += data.toString()));
    this.child.stderr.on('data', (data: Buffer) => (this.output += data.toString()));
  }

  printed(): string {
    return this.output;
  }

  stop(): void {
    if (this.child.exitCode === null && this.child.pid) process.kill(-this.child.pid, 'SIGTERM');
  }
}

/** Whether something accepts connections on the loopback `port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether `printed` shows what `step` shows; for JSON, each value in turn. */
function compare(step: Extract<Step, { kind: 'output' }>, shown: string, printed: string): string[] {
  if (step.format === 'text') return textMismatches(shown, printed);
  const want = jsonValues(shown);
  const got = jsonValues(printed);
  if (want.length !== got.length) return [`shown ${want.length} JSON values, printed ${got.length}:\n${printed.slice(0, 2000)}`];
  return want.flatMap((value, n) => mismatches(value, got[n], want.length > 1 ? `$${n + 1}` : '$'));
}

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

  describe('run against the service', () => {
    let stack: TestStack;
    let shell: ShellSession;
    let cwd: string;
    let receiverPort: number;
    const background = new Map<string, Background>();
    const printed = new Map<string, string>();

    beforeAll(async () => {
      // As the README starts the service for the webhook example: receivers on loopback allowed.
      stack = await startTestStack({ env: { BATCH_CALLBACK_ALLOW_PRIVATE: '1' } });
      receiverPort = await freePort();
      cwd = mkdtempSync(join(tmpdir(), 'readme-examples-'));
      // The first start's key is on the development plan; the reader exports it as KEY.
      const key = stack.keys.create({ org: 'readme-reader', plan: 'development' }).key;
      shell = new ShellSession(cwd, { KEY: key });
    });

    afterAll(async () => {
      shell?.close();
      for (const receiver of background.values()) receiver.stop();
      await stack?.stop();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    const local = (text: string) =>
      text.replaceAll(README_SERVICE, stack.url.replace(/^http:\/\//, '')).replace(new RegExp(`\\b${README_RECEIVER_PORT}\\b`, 'g'), String(receiverPort));

    // One test, in the README's order: a later block may stand on an earlier one (the receiver, an ID).
    it('print what the README shows', async () => {
      for (const step of steps) {
        const where = `README.md line ${step.line} (${step.name})`;
        if (step.kind === 'run' && step.background) {
          background.set(step.name, new Background(local(step.code), cwd, {}));
          // A reader starts the receiver before sending it anything: wait until it listens.
          if (step.code.includes(README_RECEIVER_PORT)) await until(() => listening(receiverPort), Boolean, 20_000);
        } else if (step.kind === 'run') {
          const result = await shell.run(local(step.code));
          expect({ where, status: result.status, stderr: result.stderr }).toEqual({ where, status: 0, stderr: '' });
          printed.set(step.name, result.stdout);
        } else {
          const running = background.get(step.name);
          const shown = local(step.shown);
          // A background example prints when something reaches it (the webhook): wait until it has printed as much.
          const out = running
            ? await until(() => running.printed(), (text) => text.trim() !== '' && compare(step, shown, text).length === 0, 30_000).catch(() => running.printed())
            : printed.get(step.name);
          expect(out).toBeDefined();
          expect({ where, mismatches: compare(step, shown, out!) }).toEqual({ where, mismatches: [] });
        }
      }
      // An example whose output is not shown must print nothing: what it prints would go unchecked.
      const shownNames = new Set(steps.filter((step) => step.kind === 'output').map((step) => step.name));
      const unshown = [...printed].filter(([name, out]) => !shownNames.has(name) && out.trim() !== '');
      expect(unshown).toEqual([]);
    });
  });
});
