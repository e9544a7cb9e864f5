/**
 * The child process of the crash test (../crash-resume.test.ts): one uybor run against the fake site
 * at `argv[2]`, storing under `argv[3]`, slowly enough (interval `argv[4]` ms) to be killed mid-run.
 */
import { uyborCollector } from '../../../models/ingest/collectors';
import { createNormaliser } from '../../../models/ingest/normaliser';
import { crawlSite, LifecycleStore, systemClock } from '../../../platform/collect';
import { fakeSiteConfig } from './fake-site';

async function main(): Promise<void> {
  const [, , baseUrl, directory, interval] = process.argv;
  const config = fakeSiteConfig(baseUrl, directory, { minIntervalMs: Number(interval) });
  await crawlSite({ collector: uyborCollector({ normaliser: createNormaliser() }, [7]), config, store: LifecycleStore.open(directory), clock: systemClock });
}

void main();
