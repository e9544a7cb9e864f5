/**
 * Observed prices (issue 18), measured offline: a random 30% of a later period's listings are fed
 * as one organisation's observations and the other 70% valued with and without them.
 *
 * - Flats: uybor's July 2026 snapshot, valued by a flat model trained without that file.
 * - Vehicles: the 2023 Chevrolet file, valued by a vehicle model trained without it.
 * Both base models are trained by the kinds' own trainers (./base-models.ts, cached between runs)
 * and every listing is valued once, through the serving runtime, at its own date. Then, for each
 * of R seeded splits, the observation model (models/observations) is fitted on the 30% as of the
 * file's newest date and applied to the 70%; the table gives medians over the splits.
 *
 * `--cv` also prints, per candidate setting, the same measures from 5-fold cross-validation inside
 * the 30% alone of each of the first `--cv-splits` (5) splits: where settings are chosen, they are
 * chosen on that, never on the 70%.
 *
 * `--cv-only` prints that alone, without the 70%'s numbers: for choosing settings before seeing them.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/observations/run.js [--splits 20] [--share 0.3] [--kind flats|vehicles|vehicles-stale] [--cv | --cv-only] [--cv-splits 5] [--retrain]
 */
import { performance } from 'node:perf_hooks';
import {
  adjustValuation, fitObservationModel, HOME_HIERARCHY, liveAccuracy, VEHICLE_HIERARCHY,
  type GroupHierarchy, type ObservationModelOptions, type ScoredObservation, type ScoredValuation,
} from '../../models/observations';
import { Random } from '../../models/trainers/random';
import { flag, option } from '../cli';
import { residentialBase, vehicleBase, CACHE_DIR, type BaseModel } from './base-models';
import { valuedChevrolets, valuedFlats, type Place, type ValuedFile } from './data';

interface Measures {
  n: number;
  medianApe: number;
  bias: number;
  within10: number;
  coverage: number;
  /** Median interval width over the estimate. */
  width: number;
}

interface Benchmark {
  name: string;
  hierarchy: GroupHierarchy;
  /** The rows of the table: a name and which observations belong to it. */
  segments: (file: ValuedFile) => { name: string; has: (o: ScoredObservation) => boolean }[];
}

const FLATS: Benchmark = {
  name: 'flats: uybor July 2026, base model trained without that file',
  hierarchy: HOME_HIERARCHY,
  segments: () => [
    { name: 'new build', has: (o) => o.groups[2] === 'new' },
    { name: 'resale', has: (o) => o.groups[2] === 'resale' },
  ],
};

const VEHICLES: Benchmark = {
  name: 'vehicles: avtoelon Chevrolet 2023, base model trained without that file',
  hierarchy: VEHICLE_HIERARCHY,
  segments: (file) => topModels(file),
};

/**
 * As the service's car model values now, 39 months past its data: the same Chevrolets observed and
 * valued as if in May 2026, so the base model extrapolates its level 45 months past its newest data
 * (mid-2022) and widens its intervals for them; the prices stay the 2023 ones.
 */
const STALE_VEHICLES: Benchmark = {
  name: 'vehicles dated May 2026: avtoelon Chevrolet 2023 prices valued and observed at 2026-05-15, base model trained without that file (45 months past its data)',
  hierarchy: VEHICLE_HIERARCHY,
  segments: (file) => topModels(file),
};

/** The five models with most listings, and the rest. */
function topModels(file: ValuedFile): { name: string; has: (o: ScoredObservation) => boolean }[] {
  const counts = new Map<string, number>();
  for (const o of file.observations) counts.set(o.groups[2], (counts.get(o.groups[2]) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([model]) => model);
  return [...top.map((model) => ({ name: model, has: (o: ScoredObservation) => o.groups[2] === model })), { name: 'other models', has: (o: ScoredObservation) => !top.includes(o.groups[2]) }];
}

/** The items in a seeded random order (the trainers' PRNG). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  return Array.from(new Random(seed).permutation(items.length), (i) => items[i]);
}

const median = (xs: readonly number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = (s.length - 1) / 2;
  return (s[Math.floor(m)] + s[Math.ceil(m)]) / 2;
};
const pct = (x: number, digits = 1) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(digits)}%`);
const newest = (observations: readonly ScoredObservation[]) => observations.reduce((m, o) => (o.observedAt > m ? o.observedAt : m), '');

function measures(valuations: readonly ScoredValuation[], asOf: string): Measures {
  const a = liveAccuracy(valuations, { asOf });
  return { n: a.n, medianApe: a.medianApe, bias: a.bias.medianLogResidual, within10: a.within10, coverage: a.coverage.share, width: median(valuations.map((v) => (v.high - v.low) / v.estimate)) };
}

const asBase = (o: ScoredObservation): ScoredValuation => ({ groups: o.groups, observedAt: o.observedAt, priceUsd: o.priceUsd, estimate: o.base.estimate, low: o.base.low, high: o.base.high });

/** The observation model fitted on `observations`, applied to `valued`. */
function applied(observations: readonly ScoredObservation[], valued: readonly ScoredObservation[], options: ObservationModelOptions) {
  const model = fitObservationModel(observations, options);
  return valued.map((o) => ({ o, adjusted: adjustValuation(o.base, o.groups, model) }));
}

/**
 * As the service values them (issue 31): each valuation dated at its own listing day, re-anchored
 * by the model fitted as of that day on the observations observed on or before it (one fit a day).
 */
function pointInTime(observations: readonly ScoredObservation[], valued: readonly ScoredObservation[], hierarchy: GroupHierarchy) {
  const models = new Map<string, ReturnType<typeof fitObservationModel> | null>();
  return valued.map((o) => {
    const day = o.observedAt.slice(0, 10);
    if (!models.has(day)) {
      const known = observations.filter((x) => x.observedAt.slice(0, 10) <= day);
      models.set(day, known.length ? fitObservationModel(known, { hierarchy, asOf: day }) : null);
    }
    const model = models.get(day)!;
    const base = { ...o.base };
    return { o, adjusted: model ? adjustValuation(o.base, o.groups, model) : { ...base, base, adjustment: null, interval: { method: 'model' as const, coverage: o.base.coverage, group: null, level: null, observations: 0, effectiveN: 0, widthRatio: 1 } } };
  });
}

const asAdjusted = ({ o, adjusted }: ReturnType<typeof applied>[number]): ScoredValuation => ({ groups: o.groups, observedAt: o.observedAt, priceUsd: o.priceUsd, estimate: adjusted.estimate, low: adjusted.low, high: adjusted.high });

/** A candidate setting for the cross-validation inside the observations. */
interface Candidate {
  name: string;
  /** Levels of the hierarchy kept, from the top. */
  depth?: number;
  options?: Partial<ObservationModelOptions>;
  /** The base model's own valuations, no observation model at all. */
  none?: boolean;
  /** A level below the hierarchy's last (flats: where the flat is), its label from the flat's place. */
  finer?: { name: string; of: (place: Place) => string };
}

const UNKNOWN_PLACE = 'unknown';
/** A point rounded to a grid of `step` degrees (0.002° ≈ 220 m north–south, 170 m east–west here). */
const cell = (place: Place, step: number) => (place.lat === null || place.lon === null ? UNKNOWN_PLACE : `${Math.round(place.lat / step)}:${Math.round(place.lon / step)}`);

function truncated(o: ScoredObservation, depth: number): ScoredObservation {
  return { ...o, groups: o.groups.slice(0, depth) };
}

function candidateOptions(bench: Benchmark, asOf: string, candidate: Candidate): { options: ObservationModelOptions; depth: number } {
  const depth = candidate.depth ?? bench.hierarchy.levels.length;
  const levels = [...bench.hierarchy.levels.slice(0, depth), ...(candidate.finer ? [candidate.finer.name] : [])];
  return { options: { hierarchy: { ...bench.hierarchy, levels }, asOf, ...candidate.options }, depth };
}

/** An observation's path for a candidate: its hierarchy's levels kept, and the candidate's finer level below them. */
function candidatePath(o: ScoredObservation, depth: number, candidate: Candidate, places: ValuedFile['places']): ScoredObservation {
  const kept = truncated(o, depth);
  if (!candidate.finer) return kept;
  const place = places?.get(o);
  return { ...kept, groups: [...kept.groups, place ? candidate.finer.of(place) : UNKNOWN_PLACE] };
}

/** 5-fold cross-validation inside one split's observations: the measures of the held-out folds, pooled. */
function crossValidated(bench: Benchmark, observations: readonly ScoredObservation[], asOf: string, candidate: Candidate, places: ValuedFile['places']): Measures {
  const { options, depth } = candidateOptions(bench, asOf, candidate);
  const rows = observations.map((o) => candidatePath(o, depth, candidate, places));
  if (candidate.none) return measures(rows.map(asBase), asOf);
  const folds = 5;
  const out: ScoredValuation[] = [];
  for (let k = 0; k < folds; k++) {
    const fit = rows.filter((_, i) => i % folds !== k);
    const held = rows.filter((_, i) => i % folds === k);
    out.push(...applied(fit, held, options).map(asAdjusted));
  }
  return measures(out, asOf);
}

const CANDIDATES: Candidate[] = [
  { name: 'no observations (the base model)', none: true },
  { name: 'defaults (Huber k 0.3, sd floor 0.1, half-life 90 days, three levels, recalibration from 30)' },
  { name: 'plain means (no winsorising)', options: { robust: { huberK: Infinity } } },
  ...[2, 1.345, 0.7, 0.1].map((huberK) => ({ name: `Huber k = ${huberK}`, options: { robust: { huberK } } })),
  ...[0.005, 0.02, 0.05, 0.2].map((betweenGroupSdFloor) => ({ name: `between-group sd floor ${betweenGroupSdFloor}`, options: { robust: { shrinkage: { betweenGroupSdFloor } } } })),
  { name: 'half-life 30 days', options: { halfLifeDays: 30 } },
  { name: 'no recency weighting', options: { halfLifeDays: Infinity } },
  { name: 'top two levels only', depth: 2 },
  { name: 'top level only', depth: 1 },
  { name: 'recalibration from 60', options: { minRecalibrationN: 60 } },
  // Where the flat is, below its segment (flats only: a vehicle has no place).
  { name: 'a mahalla level below the segment', finer: { name: 'mahalla', of: (p) => p.mahallaId ?? UNKNOWN_PLACE } },
  { name: 'a ~200 m cell level below the segment', finer: { name: 'cell', of: (p) => cell(p, 0.002) } },
  { name: 'a ~100 m cell and storeys level (a building) below the segment', finer: { name: 'building', of: (p) => `${cell(p, 0.001)}:${p.totalFloors ?? '?'}` } },
  { name: 'a ~500 m cell level below the segment', finer: { name: 'cell', of: (p) => cell(p, 0.005) } },
];

interface Run {
  splits: number;
  share: number;
  cv: 'no' | 'also' | 'only';
  cvSplits: number;
}

async function runBenchmark(bench: Benchmark, base: BaseModel, value: (base: BaseModel) => Promise<ValuedFile>, { splits, share, cv, cvSplits }: Run): Promise<void> {
  const file = await value(base);
  const all = file.observations;
  const asOf = newest(all);
  const segments = bench.segments(file);
  const rowsOf = [{ name: 'overall', has: () => true }, ...segments];
  console.log(`\n## ${bench.name}\n`);
  console.log(`base model ${base.version} in ${base.root}: ${base.trainedNow ? 'trained in this run' : 'from the cache'}, training took ${base.trainingSeconds.toFixed(0)} s`);
  console.log(`${all.length} listings valued through the serving runtime in ${(file.valuationMs / 1000).toFixed(2)} s${file.refused ? ` (${file.refused} refused: no basis)` : ''}; observations as of ${asOf}; ${splits} splits, ${pct(share, 0)} fed as observations`);

  const fitMs: number[] = [];
  const without: Measures[][] = [];
  const withObs: Measures[][] = [];
  const asOfNewest: Measures[][] = [];
  const yearLater: Measures[][] = [];
  const levelShares = new Map<string, number>();
  const intervalShares = new Map<string, number>();
  const cvRows: Measures[][] = CANDIDATES.map(() => []);
  for (let s = 0; s < splits; s++) {
    const order = shuffled(all, 1000 + s);
    const cut = Math.round(all.length * share);
    const observations = order.slice(0, cut);
    const valued = order.slice(cut);
    const fitStarted = performance.now();
    const results = pointInTime(observations, valued, bench.hierarchy);
    fitMs.push(performance.now() - fitStarted);
    const newestResults = applied(observations, valued, { hierarchy: bench.hierarchy, asOf });
    without.push(rowsOf.map((row) => measures(valued.filter(row.has).map(asBase), asOf)));
    withObs.push(rowsOf.map((row) => measures(results.filter((r) => row.has(r.o)).map(asAdjusted), asOf)));
    asOfNewest.push(rowsOf.map((row) => measures(newestResults.filter((r) => row.has(r.o)).map(asAdjusted), asOf)));
    // The same valuations re-anchored a year later on the same observations (nothing newer came): evidence is not discounted for age.
    const laterResults = applied(observations, valued, { hierarchy: bench.hierarchy, asOf: new Date(Date.parse(asOf) + 365 * 86_400_000).toISOString().slice(0, 10) });
    yearLater.push(rowsOf.map((row) => measures(laterResults.filter((r) => row.has(r.o)).map(asAdjusted), asOf)));
    for (const { adjusted } of results) {
      const level = adjusted.adjustment?.level ?? 'none';
      levelShares.set(level, (levelShares.get(level) ?? 0) + 1 / results.length / splits);
      const interval = adjusted.interval.method === 'model' ? 'model' : `recalibrated at ${adjusted.interval.level}`;
      intervalShares.set(interval, (intervalShares.get(interval) ?? 0) + 1 / results.length / splits);
    }
    if (cv !== 'no' && s < cvSplits) CANDIDATES.forEach((candidate, c) => cvRows[c].push(crossValidated(bench, observations, asOf, candidate, file.places)));
  }
  if (cv !== 'only') {
    console.log('\nEach valuation dated at its listing day, re-anchored on the observations observed on or before that day (point in time, as the service does):');
    printTable(rowsOf, without, withObs, levelShares, intervalShares, `one organisation's models (one a listing day) fitted on up to ${Math.round(all.length * share)} observations and applied to ${all.length - Math.round(all.length * share)} valuations in ${(median(fitMs) / 1000).toFixed(2)} s (median of ${splits})`);
    console.log(`\nFor comparison, every valuation re-anchored on all the observations as of ${asOf} (the file's newest day):`);
    printTable(rowsOf, without, asOfNewest);
    console.log(`\nAnd re-anchored on the same observations as of a year after ${asOf}, nothing newer having come (the weights' scale cancels: the same as the table above):`);
    printTable(rowsOf.slice(0, 1), without, yearLater);
  }
  if (cv !== 'no') {
    console.log(`\nCross-validation inside the observations only (5 folds of the 30% of each of the first ${Math.min(cvSplits, splits)} splits, medians over those splits):\n`);
    console.log('| setting | median APE | bias | within ±10% | 90% coverage |');
    console.log('|---|---:|---:|---:|---:|');
    CANDIDATES.forEach((candidate, c) => {
      const m = (key: keyof Measures) => median(cvRows[c].map((x) => x[key]));
      console.log(`| ${candidate.name} | ${pct(m('medianApe'))} | ${pct(m('bias'), 2)} | ${pct(m('within10'), 0)} | ${pct(m('coverage'))} |`);
    });
  }
}

function printTable(rowsOf: { name: string }[], without: Measures[][], withObs: Measures[][], levelShares?: Map<string, number>, intervalShares?: Map<string, number>, timing?: string): void {
  console.log('\n| rows | valuations | n | median APE | bias (median log residual) | within ±10% | 90% coverage (P10–P90 over splits) | median width |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  rowsOf.forEach((row, r) => {
    for (const [label, runs] of [['without observations', without], ['with observations', withObs]] as const) {
      const m = (key: keyof Measures) => median(runs.map((run) => run[r][key]));
      const coverages = runs.map((run) => run[r].coverage).sort((a, b) => a - b);
      const p = (q: number) => coverages[Math.min(coverages.length - 1, Math.floor(q * coverages.length))];
      console.log(`| ${row.name} | ${label} | ${m('n').toFixed(0)} | ${pct(m('medianApe'))} | ${pct(m('bias'), 2)} | ${pct(m('within10'), 0)} | ${pct(m('coverage'))} (${pct(p(0.1))}–${pct(p(0.9))}) | ${pct(m('width'), 0)} |`);
    }
    const ratio = median(withObs.map((run) => run[r].medianApe)) / median(without.map((run) => run[r].medianApe));
    console.log(`| ${row.name} | ratio of median APEs, with / without | | ${ratio.toFixed(2)} | | | | |`);
  });
  if (!levelShares || !intervalShares) return;
  const shares = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${pct(v, 0)}`).join(', ');
  console.log(`\nfactor from the level of: ${shares(levelShares)}; interval: ${shares(intervalShares)}; ${timing}`);

}

async function main(): Promise<void> {
  const splits = Number(option('splits', '20'));
  const share = Number(option('share', '0.3'));
  const kind = option('kind');
  const retrain = flag('retrain');
  const run: Run = { splits, share, cv: flag('cv-only') ? 'only' : flag('cv') ? 'also' : 'no', cvSplits: Number(option('cv-splits', '5')) };
  console.log(`# Observed prices, offline (node ${process.version}, ${new Date().toISOString()}); base models cached in ${CACHE_DIR}`);
  if (kind === undefined || kind === 'flats') {
    const started = performance.now();
    const base = residentialBase('uybor_2026', retrain);
    if (base.trainedNow) console.log(`flat base model trained in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await runBenchmark(FLATS, base, valuedFlats, run);
  }
  if (kind === undefined || kind === 'vehicles') {
    const started = performance.now();
    const base = vehicleBase('avtoelon_chevrolet_2023', retrain);
    if (base.trainedNow) console.log(`vehicle base model trained in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await runBenchmark(VEHICLES, base, valuedChevrolets, run);
  }
  if (kind === undefined || kind === 'vehicles-stale') {
    const started = performance.now();
    const base = vehicleBase('avtoelon_chevrolet_2023', retrain);
    if (base.trainedNow) console.log(`vehicle base model trained in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await runBenchmark(STALE_VEHICLES, base, (model) => valuedChevrolets(model, '2026-05-15'), run);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
