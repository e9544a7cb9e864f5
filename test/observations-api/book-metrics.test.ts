/**
 * The book's live accuracy metrics (issue 18, item 3) without a stack: the refresh is throttled per
 * organisation (one at once, one more at the interval's end however many were asked for), reads
 * what was recorded, keeps the figures it had when it fails, and stops with the book.
 */
import { register } from 'prom-client';
import { HOME_HIERARCHY } from '../../models/observations';
import { KeyedThrottle } from '../../platform/keyed-throttle';
import type { LiveAccuracyReport } from '../../subgraphs/common/live-accuracy';
import { ObservationBook } from '../../subgraphs/common/observation-book';
import { observationMetrics } from '../../subgraphs/common/observation-metrics';
import { FileObservationStore, type ObservationStore } from '../../subgraphs/common/observation-store';
import { observations } from '../observations-store/fixtures/observations';
import { until } from '../support/wait';

describe('KeyedThrottle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function throttle(intervalMs = 1000) {
    const runs: string[] = [];
    const errors: string[] = [];
    let release: (() => void) | undefined;
    let holding = false;
    const keyed = new KeyedThrottle({
      intervalMs,
      now: () => Date.now(),
      run: async (key) => {
        runs.push(key);
        if (holding) await new Promise<void>((resolve) => (release = resolve));
        if (key === 'bad') throw new Error('no store');
      },
      onError: (key, error) => errors.push(`${key}: ${error.message}`),
    });
    return { keyed, runs, errors, hold: (on: boolean) => (holding = on), release: () => release?.() };
  }

  it('runs the first request at once, and the requests within the interval once at its end', async () => {
    const { keyed, runs } = throttle();
    keyed.request('a');
    expect(runs).toEqual(['a']);
    await jest.advanceTimersByTimeAsync(10);
    for (let i = 0; i < 5; i++) keyed.request('a');
    keyed.request('b');
    expect(runs).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(980);
    expect(runs).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toEqual(['a', 'b', 'a']);
    // Nothing asked for since: nothing runs.
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toEqual(['a', 'b', 'a']);
    // Past the interval a request runs at once again.
    keyed.request('a');
    expect(runs).toEqual(['a', 'b', 'a', 'a']);
  });

  it('never runs a key twice at once: requests during a run make one more, an interval after its start', async () => {
    const { keyed, runs, hold, release } = throttle();
    hold(true);
    keyed.request('a');
    keyed.request('a');
    keyed.request('a');
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toEqual(['a']);
    hold(false);
    release();
    await jest.advanceTimersByTimeAsync(0);
    // The interval since the first run's start has passed: the one asked for during it runs now.
    expect(runs).toEqual(['a', 'a']);
  });

  it('reports a failed run and runs the next request as usual', async () => {
    const { keyed, runs, errors } = throttle();
    keyed.request('bad');
    await jest.advanceTimersByTimeAsync(0);
    expect(errors).toEqual(['bad: no store']);
    keyed.request('bad');
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toEqual(['bad', 'bad']);
  });

  it('runs nothing after close, and leaves no timer', async () => {
    const { keyed, runs } = throttle();
    keyed.request('a');
    await jest.advanceTimersByTimeAsync(0);
    keyed.request('a');
    expect(jest.getTimerCount()).toBe(1);
    keyed.close();
    expect(jest.getTimerCount()).toBe(0);
    keyed.request('a');
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toEqual(['a']);
  });
});

describe('ObservationBook metrics', () => {
  const NOW = Date.parse('2024-06-02T12:00:00Z');
  let store: ObservationStore;
  let book: ObservationBook | undefined;
  const reports: { org: string; report: LiveAccuracyReport }[] = [];
  const recorded: [string, number][] = [];
  const logs: string[] = [];
  let failLists = false;

  beforeEach(async () => {
    reports.length = 0;
    recorded.length = 0;
    logs.length = 0;
    failLists = false;
    const files = await FileObservationStore.open({ directory: null, log: () => undefined });
    // The refresh's reads fail while failLists is set; the book's other calls go through.
    store = new Proxy(files, {
      get: (target, property) => (property === 'list' && failLists ? () => Promise.reject(new Error('store down')) : Reflect.get(target, property, target)),
    });
    book = new ObservationBook({
      kind: 'home',
      hierarchy: HOME_HIERARCHY,
      store,
      clock: () => NOW,
      metricsRefreshMs: 1000,
      metrics: { recorded: (org, n) => recorded.push([org, n]), report: (org, report) => reports.push({ org, report }) },
      log: (message) => logs.push(message),
    });
  });
  afterEach(async () => {
    book?.close();
    await store.close();
  });

  const latest = (org: string) => reports.filter((r) => r.org === org).at(-1)?.report;

  it('counts what is stored, and refreshes the organisation\'s figures once at once and once at the interval\'s end', async () => {
    const calls = ['a1', 'a2', 'a3'].map((tag) => observations(tag, 10));
    // The fixture's dates run from January to September 2024: the window keeps those from March 4th on.
    const inWindow = calls.flat().filter((o) => o.observedAt >= '2024-03-04').length;
    expect(inWindow).toBeGreaterThan(10);
    expect(inWindow).toBeLessThan(30);
    for (const call of calls) await book!.record('bank-a', call);
    await book!.record('bank-b', observations('b1', 4, { observedAt: '2024-06-01' }));
    expect(recorded).toEqual([['bank-a', 10], ['bank-a', 10], ['bank-a', 10], ['bank-b', 4]]);
    await until(() => latest('bank-a')?.overall?.service.n, (n) => n === inWindow);
    await until(() => latest('bank-b')?.overall?.service.n, (n) => n === 4);
    // Three records within the interval: one refresh then, one at its end (none more).
    expect(reports.filter((r) => r.org === 'bank-a')).toHaveLength(2);
    const report = latest('bank-a')!;
    // The window: the 90 days to the book's day; groups at the second level (district).
    expect(report).toMatchObject({ asOf: '2024-06-02', since: '2024-03-04', level: 'district' });
    expect(report.groups).toHaveLength(1);
    expect(report.groups[0].group).toMatch(/ › Chilonzor$/);
  });

  it('a refresh that fails is logged, and the figures it would have replaced stand', async () => {
    await book!.record('bank-a', observations('a1', 10));
    await until(() => reports.length, (n) => n === 1);
    failLists = true;
    await book!.record('bank-a', observations('a2', 10)).catch(() => undefined);
    await until(() => logs.join('\n'), (text) => text.includes('live accuracy metrics not refreshed (store down); the previous figures stand'));
    expect(reports).toHaveLength(1);
  });
});

describe('observationMetrics', () => {
  const report = (overall: LiveAccuracyReport['overall'], flaggedGroups: number): LiveAccuracyReport => ({
    asOf: '2024-06-02', since: '2024-03-04', level: 'make', overall, rule: { minObservations: 30, biasBand: 0.03, coverageBand: { low: 0.85, high: 0.95 } },
    groups: Array.from({ length: 3 }, (_, i) => ({ group: `g${i}`, ...overall!, drift: { ...overall!.drift, flagged: i < flaggedGroups } })),
  });
  const accuracy = (medianApe: number, bias: number) => ({
    n: 40, effectiveN: 39.5, medianApe, within10: 0.45,
    bias: { medianLogResidual: bias, weightedMeanLogResidual: bias, ci95: { low: bias - 0.01, high: bias + 0.01 } },
    coverage: { share: 0.8, covered: 32, bounds95: { low: 0.65, high: 0.9 } },
  });
  const series = async (name: string) => (await register.getSingleMetric(name)!.get()).values.filter((v) => v.labels.organisation === 'org-m');

  it('sets the overall figures of the organisation and kind, and drops them when the window is empty', async () => {
    const metrics = observationMetrics('vehicle');
    const drift = { judged: true, flagged: true, bias: 'valuations low' as const, coverage: null, reasons: [] };
    metrics.report('org-m', report({ service: accuracy(0.12, 0.05), base: accuracy(0.2, 0.22), drift }, 2));
    expect(await series('observations_live_median_ape')).toEqual([
      { labels: { organisation: 'org-m', kind: 'vehicle', valuation: 'service' }, value: 0.12 },
      { labels: { organisation: 'org-m', kind: 'vehicle', valuation: 'base' }, value: 0.2 },
    ]);
    expect((await series('observations_live_bias')).map((v) => v.value)).toEqual([0.05, 0.22]);
    expect((await series('observations_live_within_10')).map((v) => v.value)).toEqual([0.45, 0.45]);
    expect((await series('observations_live_interval_coverage')).map((v) => v.value)).toEqual([0.8, 0.8]);
    expect((await series('observations_live_count')).map((v) => v.value)).toEqual([40]);
    expect((await series('observations_drift')).map((v) => v.value)).toEqual([1]);
    expect((await series('observations_drift_groups')).map((v) => v.value)).toEqual([2]);

    metrics.report('org-m', { ...report({ service: accuracy(0.12, 0.05), base: accuracy(0.2, 0.22), drift }, 0), overall: null, groups: [] });
    expect(await series('observations_live_median_ape')).toEqual([]);
    expect((await series('observations_live_count')).map((v) => v.value)).toEqual([0]);
    expect((await series('observations_drift')).map((v) => v.value)).toEqual([0]);
    expect((await series('observations_drift_groups')).map((v) => v.value)).toEqual([0]);

    metrics.recorded('org-m', 7);
    metrics.recorded('org-m', 5);
    expect((await series('observations_recorded_total')).map((v) => [v.labels.kind, v.value])).toEqual([['vehicle', 12]]);
  });
});
