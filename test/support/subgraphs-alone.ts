/**
 * The registry's subgraphs each started alone, as `node dist/subgraphs/main.js <name>` starts one
 * (mode 'alone', its own HTTP server, its peers called over HTTP with the internal token), but in
 * this process: one load of the shared code instead of one per subgraph process, which is most of a
 * start. Each starts once the subgraphs it calls have (the registry lists them first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGraphClient } from '../../platform/graph-client';
import type { RunningSubgraph } from '../../platform/subgraph-module';
import { SUBGRAPHS, type SubgraphName } from '../../subgraphs/registry';
import { startProcess, stopProcess } from './processes';

export interface SubgraphsAlone {
  readonly internalToken: string;
  readonly running: Readonly<Record<SubgraphName, RunningSubgraph>>;
  stop(): Promise<void>;
}

/** Starts every subgraph of the registry alone on an ephemeral port, with state under a fresh VALUATION_HOME. */
export async function startSubgraphsAlone(internalToken: string): Promise<SubgraphsAlone> {
  const home = mkdtempSync(join(tmpdir(), 'subgraphs-alone-'));
  // As a deployment sets it: files (records, observations, jobs) go under it.
  process.env.VALUATION_HOME = home;
  const env = { ...process.env, VALUATION_HOME: home };
  const starting = new Map<string, Promise<RunningSubgraph>>();
  for (const entry of SUBGRAPHS) {
    starting.set(entry.name, (async () => {
      const subgraph = await entry.load();
      const peers = Object.fromEntries(await Promise.all((subgraph.calls ?? []).map(async (peer) => {
        const started = starting.get(peer);
        if (!started) throw new Error(`${entry.name} calls ${peer}, which the registry lists after it`);
        return [peer, httpGraphClient({ url: (await started).url, internalToken })] as const;
      })));
      return subgraph.start({
        config: { host: '127.0.0.1', port: 0, internalToken, introspection: false },
        env,
        mode: 'alone',
        peers,
        overrides: {},
        log: () => undefined,
      });
    })());
  }
  const settled = await Promise.allSettled(starting.values());
  const started = SUBGRAPHS.flatMap(({ name }, i) => {
    const outcome = settled[i];
    return outcome.status === 'fulfilled' ? [[name, outcome.value] as const] : [];
  });
  const stop = async () => {
    // Callers first: a subgraph stops after those that call it.
    for (const [, service] of [...started].reverse()) await service.close();
    rmSync(home, { recursive: true, force: true });
  };
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { internalToken, running: Object.fromEntries(started) as Record<SubgraphName, RunningSubgraph>, stop };
}

/** The registry's subgraphs started alone in a child process (./subgraphs-alone-main.ts): their URLs by name. */
export interface SubgraphsAloneProcess {
  readonly internalToken: string;
  readonly urls: Readonly<Record<SubgraphName, string>>;
  stop(): Promise<void>;
}

export async function startSubgraphsAloneProcess(internalToken: string): Promise<SubgraphsAloneProcess> {
  const started = await startProcess(join(__dirname, 'subgraphs-alone-main.js'), [], { INTERNAL_TOKEN: internalToken }, /^(\{.*\})$/m);
  return { internalToken, urls: JSON.parse(started.ready), stop: () => stopProcess(started, 'SIGTERM') };
}
