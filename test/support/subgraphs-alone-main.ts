/**
 * The registry's subgraphs each started alone (./subgraphs-alone.ts startSubgraphsAlone), in a process
 * of their own: Node loads the service code once, faster than jest does in a test file. Forked by
 * startSubgraphsAloneProcess with INTERNAL_TOKEN; writes one JSON line, each subgraph's URL by name,
 * when they listen, and stops them on SIGTERM or when its parent goes (the IPC channel closes).
 */
import { startSubgraphsAlone } from './subgraphs-alone';

async function main(): Promise<void> {
  const internalToken = process.env.INTERNAL_TOKEN;
  if (!internalToken) throw new Error('INTERNAL_TOKEN must be set');
  const alone = await startSubgraphsAlone(internalToken);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await alone.stop();
    process.exit(0);
  };
  process.on('SIGTERM', stop).on('disconnect', stop);
  process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(alone.running).map(([name, service]) => [name, service.url])))}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
