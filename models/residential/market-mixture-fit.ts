/**
 * Training half of the market mixture (./market-mixture.ts): the new-build model fitted on the
 * listings that say whether they are new builds, and checked leaving one labelled source out.
 */
import { LogisticRegression, matrix } from '../trainers';
import { logisticProbability } from '../ensemble/logistic';
import { round3 } from '../ensemble/estimate';
import { NEW_BUILD_FEATURE_NAMES, newBuildFeatures, type MarketMixtureModel, type NewBuildCheck } from './market-mixture';
import type { FeatureSource } from './features';

/**
 * L2 penalty of the new-build model, on standardised features: scikit-learn's default C = 1, set a
 * priori (the model has 25 inputs and thousands of labelled rows, so the penalty barely binds).
 */
const NEW_BUILD_ALPHA = 1;

type LabelledRow = Parameters<typeof newBuildFeatures>[0] & Pick<FeatureSource, 'market'> & { source: string };

/** Fits the new-build model on the rows with a market label; null unless both new builds and resale flats are among them. */
export function fitMarketMixture(rows: readonly LabelledRow[]): MarketMixtureModel | null {
  const labelled = rows.filter((r) => r.market !== null);
  const newBuilds = labelled.filter((r) => r.market === 'new').length;
  if (newBuilds === 0 || newBuilds === labelled.length) return null;
  const sources = [...new Set(labelled.map((r) => r.source))].sort();
  const leaveOneSourceOut = sources.length < 2 ? [] : sources.flatMap((source) => {
    const fit = labelled.filter((r) => r.source !== source);
    const test = labelled.filter((r) => r.source === source);
    return fit.some((r) => r.market === 'new') && fit.some((r) => r.market === 'resale') ? [check(source, fitLogistic(fit), test)] : [];
  });
  return {
    method: `probability of a new build: L2 logistic regression (alpha ${NEW_BUILD_ALPHA} on standardised inputs, missing inputs read as the training mean) on storeys, floor, size, rooms, finish, frame and district, fitted on the listings that say whether they are new builds; the flat is valued as both and the two calibrated intervals are mixed (each read as normal in log price), the estimate being the mixture's median`,
    features: [...NEW_BUILD_FEATURE_NAMES],
    state: fitLogistic(labelled),
    fittedOn: { rows: labelled.length, newBuildShare: round3(newBuilds / labelled.length), sources: Object.fromEntries(sources.map((s) => [s, labelled.filter((r) => r.source === s).length])) },
    leaveOneSourceOut,
  };
}

function fitLogistic(rows: readonly LabelledRow[]): MarketMixtureModel['state'] {
  const width = NEW_BUILD_FEATURE_NAMES.length;
  const X = new Float64Array(rows.length * width);
  rows.forEach((r, i) => X.set(newBuildFeatures(r), i * width));
  const y = Float64Array.from(rows, (r) => (r.market === 'new' ? 1 : 0));
  const fitted = new LogisticRegression({ alpha: NEW_BUILD_ALPHA }).fit(matrix(X, rows.length, width), y).fitted_!;
  return { ...fitted, mean: fitted.mean.map(round6), coef: fitted.coef.map(round6), intercept: round6(fitted.intercept) };
}

function check(source: string, state: MarketMixtureModel['state'], rows: readonly LabelledRow[]): NewBuildCheck {
  const p = rows.map((r) => logisticProbability(state, newBuildFeatures(r)));
  const y = rows.map((r) => (r.market === 'new' ? 1 : 0));
  return {
    source,
    rows: rows.length,
    newBuildShare: round3(y.reduce((s: number, v) => s + v, 0) / rows.length),
    meanProbability: round3(p.reduce((s, v) => s + v, 0) / rows.length),
    brier: round3(y.reduce((s: number, v, i) => s + (p[i] - v) ** 2, 0) / rows.length),
    auc: round3(auc(p, y)),
  };
}

/** Area under the ROC curve (Mann–Whitney): the chance a new build gets a higher probability than a resale flat, ties counting half. */
function auc(p: readonly number[], y: readonly number[]): number {
  const order = p.map((_, i) => i).sort((a, b) => p[a] - p[b]);
  const positives = y.filter((v) => v === 1).length;
  const negatives = y.length - positives;
  let rankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && p[order[end + 1]] === p[order[start]]) end++;
    const midRank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) if (y[order[k]] === 1) rankSum += midRank;
    start = end + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
