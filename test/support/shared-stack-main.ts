/**
 * The stack a jest worker's test files share (test/shared-stack-host.js starts this once per worker, as a
 * child process): the service with its defaults on ephemeral ports, started once instead of once per file.
 * It writes one JSON line describing itself (a SharedStackInfo) on stdout when it is ready, and stops
 * when its stdin closes: when the worker that started it exits, however it exits.
 */
import { rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { SUBGRAPHS } from '../../subgraphs/registry';
import { startTestStack } from './stack';

/** What a test file learns of the shared stack: addresses and versions, never in-process handles. */
export interface SharedStackInfo {
  url: string;
  internalToken: string;
  /** Each subgraph's own address (a test may call one directly, with or without the internal token). */
  subgraphUrls: Record<string, string>;
  /** The key file the gateway reads; a test adds keys to it with its own KeyStore (several processes share the file). */
  keysFile: string;
  modelVersion: string;
  vehicleModelVersion: string | null;
}

async function main(): Promise<void> {
  const stack = await startTestStack();
  const info: SharedStackInfo = {
    url: stack.url,
    internalToken: stack.internalToken,
    subgraphUrls: Object.fromEntries(SUBGRAPHS.map(({ name }) => [name, stack[name].url])),
    keysFile: stack.keys.file,
    modelVersion: stack.modelVersion,
    vehicleModelVersion: stack.vehicleModelVersion,
  };
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stack.stop();
    // The folder the host made for this process's stderr log (test/shared-stack-host.js): nobody reads it once the
    // stack is stopped. Only a folder of the host's naming is removed, so a log pointed elsewhere by hand never takes its folder along.
    const log = process.env.SHARED_STACK_LOG;
    if (log && basename(dirname(log)).startsWith('shared-stack-')) rmSync(dirname(log), { recursive: true, force: true });
    process.exit(0);
  };
  process.stdin.on('end', stop).on('error', stop).resume();
  process.on('SIGTERM', stop);
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
