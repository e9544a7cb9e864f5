/**
 * Issue 37, "numbers to reach", at a test's size: a fake-site run of 3,000 listings over the three
 * sites with the politeness delay at 0 stores them all, each once. Wall time and memory are measured
 * by the bench in a process of its own (20,000 in under 2 minutes and 300 MB of RSS: bench/collect/run.ts,
 * docs/BENCHMARKS.md), not asserted here: a jest worker's RSS holds every file it ran before.
 */
import { measureCollectRun } from '../../bench/collect/measure';

describe('a fake-site run at scale', () => {
  it('stores 3,000 listings of three sites, each once', async () => {
    const result = await measureCollectRun({ uybor: 1_500, olx: 1_100, avtoelon: 400 });
    expect(result.stored).toBe(3_000);
    expect(result.runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
