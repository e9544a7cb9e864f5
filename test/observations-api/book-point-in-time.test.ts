/**
 * The book's point-in-time fits (issue 31) without a stack: a valuation dated D gets the model fitted
 * as of D on what was observed by D, one fit per organisation and day; one organisation valuing at
 * many dates queues its own fits, not another organisation's; a first fit that does not finish in
 * time is answered by an earlier day's fit where there is one, else `pending`, never silently as no observations.
 */
import { fitObservationModel, HOME_HIERARCHY, type ObservationModel } from '../../models/observations';
import { ObservationBook } from '../../subgraphs/common/observation-book';
import type { FitTask, ObservationFitter } from '../../subgraphs/common/observation-fitting';
import { FileObservationStore, type ObservationStore } from '../../subgraphs/common/observation-store';
import { observation } from '../observations-store/fixtures/observations';

const NOW = Date.parse('2024-10-01T12:00:00Z');

/** A fitter whose fits finish only when the test says: it records what it was asked, in order. */
function heldFitter() {
  const asked: { org: string; asOf: string; n: number }[] = [];
  const waiting: (() => void)[] = [];
  const fitter: ObservationFitter = {
    fitModel: (task: Extract<FitTask, { task: 'model' }>) => {
      asked.push({ org: task.observations[0]?.groups[1] ?? '?', asOf: task.options.asOf, n: task.observations.length });
      return new Promise<ObservationModel>((resolve) => waiting.push(() => resolve(fitObservationModel(task.observations, task.options))));
    },
    liveAccuracy: () => new Promise(() => undefined),
    close: async () => undefined,
  };
  return { fitter, asked, releaseOne: () => waiting.shift()?.(), pending: () => waiting.length };
}

let store: ObservationStore;
afterEach(() => store?.close());

async function bookWith(fitter?: ObservationFitter, fitWaitMs = 2000) {
  store = await FileObservationStore.open({ directory: null, log: () => undefined });
  const book = new ObservationBook({ kind: 'home', hierarchy: HOME_HIERARCHY, store, clock: () => NOW, fitter, fitWaitMs, metrics: { recorded: () => undefined, report: () => undefined } });
  return book;
}

/** `n` observations of `org` (its name is the district, so the fitter can tell them apart) on `day`, at `ratio` × the base. */
const observed = (org: string, day: string, n: number, ratio: number) =>
  Array.from({ length: n }, (_, i) => observation({ id: `obs_${org}_${day}_${String(i).padStart(4, '0')}`, observedAt: day, groups: { city: 'Tashkent', district: org, segment: 'resale' }, priceUsd: 60_000 * ratio * (1 + 0.02 * Math.sin(i)) }));

it('fits as of the valuation\'s day on what was observed by then, once per day', async () => {
  const book = await bookWith();
  await book.record('bank', [...observed('bank', '2024-03-01', 20, 0.8), ...observed('bank', '2024-09-01', 20, 1.2)]);
  const march = await book.modelAsOf('bank', '2024-03-15');
  expect(march).toMatchObject({ asOf: '2024-03-15', model: { asOf: '2024-03-15', observations: 20 } });
  expect(Math.exp(march.model!.adjustments.groups['Tashkent'].factor)).toBeLessThan(0.9);
  const today = await book.modelAsOf('bank');
  expect(today).toMatchObject({ asOf: '2024-10-01', model: { observations: 40 } });
  // A date after today is today; before any observation, none.
  expect((await book.modelAsOf('bank', '2025-01-01')).model).toBe(today.model);
  expect(await book.modelAsOf('bank', '2024-01-01')).toEqual({ model: null, asOf: '2024-01-01', reason: 'none' });
  // The same day again: the same fit object.
  expect((await book.modelAsOf('bank', '2024-03-15')).model).toBe(march.model);
  // Recording refits: the March fit sees what was observed by March, now 25.
  await book.record('bank', observed('bank', '2024-02-01', 5, 0.8));
  expect((await book.modelAsOf('bank', '2024-03-15')).model!.observations).toBe(25);
  book.close();
});

it('queues an organisation\'s fits of many days behind each other, so another organisation\'s fit waits for one at most', async () => {
  const held = heldFitter();
  const book = await bookWith(held.fitter, 60_000);
  await book.record('a', observed('a', '2024-01-02', 5, 1));
  await book.record('b', observed('b', '2024-01-02', 5, 1));
  // Recording refits today's model for each: let those two finish first.
  while (held.pending() > 0) {
    held.releaseOne();
    await new Promise((resolve) => setImmediate(resolve));
  }
  held.asked.length = 0;
  const days = ['2024-02-01', '2024-03-01', '2024-04-01', '2024-05-01', '2024-06-01'];
  const aValuations = days.map((day) => book.modelAsOf('a', day));
  const bValuation = book.modelAsOf('b', '2024-02-01');
  for (let i = 0; i < 6; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    held.releaseOne();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all([...aValuations, bValuation]);
  // b's fit went to the fitter second, after a's first, not after all five of a's.
  expect(held.asked.map((t) => `${t.org} ${t.asOf}`)).toEqual(['a 2024-02-01', 'b 2024-02-01', 'a 2024-03-01', 'a 2024-04-01', 'a 2024-05-01', 'a 2024-06-01']);
  book.close();
});

it('answers a first fit of a day that is not ready in time as pending, and the next valuation that day gets it', async () => {
  const held = heldFitter();
  const book = await bookWith(held.fitter, 20);
  await store.append('bank', 'home', observed('bank', '2024-03-01', 10, 0.8));
  expect(await book.modelAsOf('bank', '2024-04-01')).toEqual({ model: null, asOf: '2024-04-01', reason: 'pending' });
  held.releaseOne();
  await new Promise((resolve) => setImmediate(resolve));
  expect((await book.modelAsOf('bank', '2024-04-01')).model).toMatchObject({ asOf: '2024-04-01', observations: 10 });
  // With a fit of an earlier day at hand, that one stands in (what it knew was known by the later day too), and says for which day.
  const stopGap = await book.modelAsOf('bank', '2024-05-01');
  expect(stopGap).toMatchObject({ asOf: '2024-04-01', stopGap: '2024-05-01', model: { asOf: '2024-04-01' } });
  // ...but never a later day's fit for an earlier date.
  expect(await book.modelAsOf('bank', '2024-03-20')).toEqual({ model: null, asOf: '2024-03-20', reason: 'pending' });
  book.close();
});
