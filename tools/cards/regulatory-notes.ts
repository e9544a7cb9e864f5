/**
 * The model cards' regulatory notes (issue 32, item 4): how the service meets the five quality-control
 * factors of the 2024 US interagency rule on automated valuation models (confidence in the
 * estimates, protection against data manipulation, avoiding conflicts of interest, random sample
 * testing and reviews, nondiscrimination) and what EBA GL/2020/06 §§210 and 236–237 ask of a
 * statistical valuation model (a confidence measure, backtesting, current data), each with the
 * card's own figures. The nondiscrimination check is measured here: whether the model's errors
 * differ between groups (districts, make/model groups) more than sampling noise explains.
 */
import { derSimonianLaird } from '../../models/observations/shrinkage';
import { DASH, fixed, int, pct, table } from './card-kit';
import { accuracyByConfidence } from '../../models/ensemble/confidence';
import { median, medianInterval } from '../../models/ensemble/metrics';
import { groupBy } from '../../models/ingest/outliers';
import type { HeldOutRow } from './card-kit';

/** A group's median bias beyond this (log scale, ±5%), with its 95% interval wholly outside, is flagged. */
export const GROUP_BIAS_BAND = 0.05;
/** Groups with fewer held-out rows than this are not judged (their interval says nothing). */
const MIN_GROUP_ROWS = 30;

export interface GroupBias {
  group: string;
  n: number;
  /** Median log(price / estimate): positive when the model valued the group low. */
  medianBias: number;
  /** Distribution-free 95% interval of that median (order statistics). */
  low: number;
  high: number;
  /** Mean log residual and its sampling variance, for the heterogeneity test. */
  mean: number;
  variance: number;
}

/** Each group's bias on held-out rows (groups of at least MIN_GROUP_ROWS), largest first. */
export function groupBiases<R extends HeldOutRow>(rows: readonly R[], groupOf: (row: R) => string): GroupBias[] {
  const byGroup = [...groupBy(rows, groupOf)].map(([group, members]): [string, number[]] => [group, members.map((r) => Math.log(r.actual / r.predicted))]);
  return byGroup.filter(([, xs]) => xs.length >= MIN_GROUP_ROWS).map(([group, xs]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const n = sorted.length;
    const mean = xs.reduce((s, x) => s + x, 0) / n;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) / n;
    const { low, high } = medianInterval(sorted)!; // n ≥ MIN_GROUP_ROWS
    return { group, n, medianBias: median(sorted), low, high, mean, variance };
  }).sort((a, b) => b.n - a.n);
}

export interface RegulatoryFigures<R extends HeldOutRow> {
  /** 'district' or 'make/model group'. */
  groupName: string;
  /** The forward (headline) held-out rows, as evaluation.json records them. */
  rows: readonly R[];
  groupOf: (row: R) => string;
  /** A group's display name. */
  label?: (group: string) => string;
  /** The forward view in words ("the 507 flats of uybor's July 2026 snapshot, fitted on what came before"). */
  forwardView: string;
  /** The newest month of market data and the months from it to the card's reference date. */
  newestData: string;
  dataAgeMonths: number;
  trainingRows: number;
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${pct(Math.abs(Math.expm1(x)))}`;

export function regulatoryNotes<R extends HeldOutRow>(f: RegulatoryFigures<R>): string[] {
  const n = f.rows.length;
  const ape = f.rows.map((r) => Math.abs(r.actual - r.predicted) / r.actual);
  const covered = f.rows.filter((r) => r.actual >= r.low && r.actual <= r.high).length;
  const levels = accuracyByConfidence(f.rows);
  const biases = groupBiases(f.rows, f.groupOf);
  const dl = derSimonianLaird([biases.map((b) => ({ mean: b.mean, variance: b.variance }))]);
  const flagged = biases.filter((b) => b.low > GROUP_BIAS_BAND || b.high < -GROUP_BIAS_BAND);
  const name = f.label ?? ((g: string) => g);
  return [
    '## Regulatory notes',
    '',
    `How the service meets the five quality-control factors of the 2024 US interagency rule on automated valuation models, and EBA GL/2020/06 §§210 and 236–237 (a confidence measure, backtesting, current data). Figures are this card's forward view: ${f.forwardView}.`,
    '',
    `1. **A high level of confidence in the estimates.** Median APE ${pct(median(ape))}, ${pct(ape.filter((a) => a <= 0.1).length / n, 0)} within ±10%, the 90% interval held ${pct(covered / n)} (${int(n)} listings). Each valuation states its FSD and a confidence level on the industry's scale (rule above); at each level the share within ±FSD is ${levels.map((c) => `${c.level} ${c.withinFsd === undefined ? DASH : pct(c.withinFsd)} (n ${int(c.n)})`).join(', ')} against about 68%.`,
    `2. **Protection against the manipulation of data.** The model learns only from public listings (${int(f.trainingRows)} training rows after de-duplication and price fences, each file's checksum in the manifest); a request's asking price never enters its estimate (it is compared with the interval only); personal data are refused. An organisation's own observed prices move only its own valuations, each reply says by how much and on what (\`market_adjustment\`), an item that cannot be read or scored is refused in its place, and every valuation is recorded with its model version and inputs.`,
    '3. **Avoiding conflicts of interest.** The estimate reads the property or vehicle and the valuation date, never the loan or the borrower; who asks matters only through that organisation\'s own observed prices, disclosed with each valuation; no organisation can change the models, and a new version is promoted only when its forward error on the same held-out rows is no worse than the one in service.',
    '4. **Random sample testing and reviews.** `valuationSample` draws a seeded random sample of an organisation\'s recorded valuations of a period for review, `revalueValuation` values one again and explains the change (model, market, observations, exchange rate), and a backtest (`POST /api/backtest`, `npm run backtest`) replays the organisation\'s own observed prices point in time: each valued as of its own date with only what was known then, model alone and re-anchored side by side, as a model-risk committee files it.',
    `5. **Nondiscrimination.** The estimate uses no personal characteristic. Whether its errors differ by ${f.groupName} more than the data explain, on the forward view (${f.groupName}s with at least ${MIN_GROUP_ROWS} listings): the median bias log(price / estimate) per ${f.groupName} with its 95% interval below; the between-${f.groupName} standard deviation of the bias beyond sampling noise (DerSimonian–Laird) is ${dl.tau2 === null ? DASH : fixed(Math.sqrt(dl.tau2), 3)} (Q = ${fixed(dl.q, 1)} on ${dl.df} degrees of freedom). ${flagged.length ? `${flagged.length} of ${biases.length} ${f.groupName}s have a bias whose 95% interval lies wholly outside ±${pct(GROUP_BIAS_BAND, 0)}: ${flagged.map((b) => `${name(b.group)} ${signed(b.medianBias)}`).join(', ')}; a bank lending there should read their valuations with that in mind, and its own observed prices re-anchor them.` : `No ${f.groupName}'s bias has a 95% interval wholly outside ±${pct(GROUP_BIAS_BAND, 0)}.`}`,
    '',
    table([f.groupName, 'n', 'median bias (prices above +)', '95% interval'], biases.map((b) => [name(b.group), int(b.n), signed(b.medianBias), `${signed(b.low)} to ${signed(b.high)}`])),
    '',
    `**EBA GL/2020/06.** Confidence measure: the FSD and level of every valuation, and the share within ±FSD per level above. Backtesting: the forward views of this card (every split fitted only on what came before it), and an institution's own backtest on its observed prices, point in time. Currency of data: the newest market data are of ${f.newestData}, ${f.dataAgeMonths} months before the card's reference date; every valuation states the age of its data (\`market_level.data_age_months\`), widens its interval for it, and past 12 months is flagged MARKET_DATA_OLDER_THAN_12_MONTHS.`,
  ];
}
