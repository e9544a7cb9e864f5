/** A service started as its own process by a test (a subgraph, a gateway, a worker), once it says it is ready. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The compiled entry points, beside the compiled tests. */
export const ENTRY = {
  subgraph: join(__dirname, '..', '..', 'subgraphs', 'main.js'),
  gateway: join(__dirname, '..', '..', 'gateway', 'main.js'),
  worker: join(__dirname, '..', '..', 'subgraphs', 'batch', 'worker-main.js'),
};

export interface StartedProcess {
  child: ChildProcess;
  /** The first capture group of `ready` in its output (e.g. the URL it listens on), or the whole match. */
  ready: string;
  /** Everything it printed so far. */
  output(): string;
}

/** Forks `script` with `env` over this process's, and resolves once stdout matches `ready`; rejects if it exits first. */
export function startProcess(script: string, args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<StartedProcess> {
  const child = fork(script, [...args], { env: { ...process.env, ...env }, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, ready: match[1] ?? match[0], output: () => output });
    });
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    child.once('exit', (code, signal) => reject(new Error(`${script} ${args.join(' ')} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}

/** Stops a started process (SIGKILL unless `signal`), waiting for its exit. */
export async function stopProcess(started: StartedProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const child = started?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
