/**
 * Runs the checked examples of a markdown file (test/support/markdown-examples.ts) as a reader runs them: every
 * block through bash, with curl, against a running service, in the file's order and in one shell session (so `ID=…`
 * in one block is there in the next), and every shown output compared with what was printed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonValues, mismatches, textMismatches, type Step } from './markdown-examples';
import { until } from './wait';

// The documents' addresses: the service's default port and the webhook receiver's.
const DOC_SERVICE = '127.0.0.1:4000';
const DOC_RECEIVER_PORT = '9999';

/** One bash, as in a reader's terminal: blocks run in it one after another and share its variables. */
export class ShellSession {
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
export class Background {
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
export function compareOutput(step: Extract<Step, { kind: 'output' }>, shown: string, printed: string): string[] {
  if (step.format === 'text') return textMismatches(shown, printed);
  const want = jsonValues(shown);
  const got = jsonValues(printed);
  if (want.length !== got.length) return [`shown ${want.length} JSON values, printed ${got.length}:\n${printed.slice(0, 2000)}`];
  return want.flatMap((value, n) => mismatches(value, got[n], want.length > 1 ? `$${n + 1}` : '$'));
}

/**
 * A reader of one document: a shell in a folder of its own with `KEY` exported, the document's address of the
 * service and of the webhook receiver replaced by the test's.
 */
export class ExampleReader {
  private readonly cwd: string;
  private readonly shell: ShellSession;
  private readonly background = new Map<string, Background>();

  private constructor(
    private readonly serviceUrl: string,
    private readonly receiverPort: number,
    key: string,
  ) {
    this.cwd = mkdtempSync(join(tmpdir(), 'doc-examples-'));
    this.shell = new ShellSession(this.cwd, { KEY: key });
  }

  static async start(serviceUrl: string, key: string): Promise<ExampleReader> {
    return new ExampleReader(serviceUrl, await freePort(), key);
  }

  private local(text: string): string {
    return text
      .replaceAll(DOC_SERVICE, this.serviceUrl.replace(/^http:\/\//, ''))
      .replace(new RegExp(`\\b${DOC_RECEIVER_PORT}\\b`, 'g'), String(this.receiverPort));
  }

  /** Runs `steps` in order (a later block may stand on an earlier one: the receiver, an ID) and checks each output. */
  async run(file: string, steps: Step[]): Promise<void> {
    const printed = new Map<string, string>();
    for (const step of steps) {
      const where = `${file} line ${step.line} (${step.name})`;
      if (step.kind === 'run' && step.background) {
        this.background.set(step.name, new Background(this.local(step.code), this.cwd, {}));
        // A reader starts the receiver before sending it anything: wait until it listens.
        if (step.code.includes(DOC_RECEIVER_PORT)) await until(() => listening(this.receiverPort), Boolean, 20_000);
      } else if (step.kind === 'run') {
        const result = await this.shell.run(this.local(step.code));
        expect({ where, status: result.status, stderr: result.stderr }).toEqual({ where, status: 0, stderr: '' });
        printed.set(step.name, result.stdout);
      } else {
        const running = this.background.get(step.name);
        const shown = this.local(step.shown);
        // A background example prints when something reaches it (the webhook): wait until it has printed as much.
        const out = running
          ? await until(() => running.printed(), (text) => text.trim() !== '' && compareOutput(step, shown, text).length === 0, 30_000).catch(() => running.printed())
          : printed.get(step.name);
        expect({ where, printed: out !== undefined }).toEqual({ where, printed: true });
        expect({ where, mismatches: compareOutput(step, shown, out!) }).toEqual({ where, mismatches: [] });
      }
    }
    // An example whose output is not shown must print nothing: what it prints would go unchecked.
    const shownNames = new Set(steps.filter((step) => step.kind === 'output').map((step) => step.name));
    const unshown = [...printed].filter(([name, out]) => !shownNames.has(name) && out.trim() !== '');
    expect(unshown).toEqual([]);
  }

  close(): void {
    this.shell.close();
    for (const receiver of this.background.values()) receiver.stop();
    rmSync(this.cwd, { recursive: true, force: true });
  }
}
