/**
 * Intervals leaving one source out: each source's rows with a calibration made on the other
 * sources' residuals only, so no row's interval saw its source. The view the pooling power is
 * chosen on (no test row involved), and the one the leave-one-source-out report scores
 * (models/ensemble/source-views.ts). Training only.
 */
import { groupHalfWidth, pooledScale, type ScalePoolingSelection } from './calibration';
import { calibrateGroups, conformityScore } from './conformal';
import type { ChosenPooling, SourceView } from './method';
import { poolingAt, type OutOfFoldResiduals } from './residuals';

/**
 * Per source: the calibration on the other sources (a `notScored` source never calibrates; the
 * quantile is unweighted here), the pooled scale of every row, the source's rows as listed (`held`)
 * and their masked copies (`heldMasked`), and whether a row's score is covered.
 */
export function calibrationBySource(oof: OutOfFoldResiduals, power: number, allowance: ArrayLike<number>, view: SourceView, coverage: number) {
  const pooling = poolingAt(oof, power);
  const scale = oof.sigma.map((s) => pooledScale(s, pooling));
  const scores = oof.abs.map((r, i) => conformityScore(r, scale[i], allowance[i]));
  const where = (keep: (source: string) => boolean) => oof.source.flatMap((s, i) => (keep(s) ? [i] : []));
  return [...new Set(oof.source)].map((source) => {
    const others = where((s) => s !== source && s !== view.notScored);
    const calibration = calibrateGroups(others.map((i) => scores[i]), others.map((i) => oof.group[i]), coverage, view.minGroupRows);
    const rows = where((s) => s === source);
    return {
      source, calibration, scale,
      held: rows.filter((i) => i < oof.originals),
      heldMasked: rows.filter((i) => i >= oof.originals),
      covered: (i: number) => scores[i] <= groupHalfWidth(calibration, oof.group[i], 0),
    };
  });
}

/**
 * How far σ(x) is trusted, chosen without any test row: for each candidate power, each source's
 * rows (as listed, and their masked copies) get intervals calibrated on the other sources'
 * residuals; the power whose coverage deviates least from the target on average wins (ties to the
 * earlier candidate).
 */
export function choosePooling(oof: OutOfFoldResiduals, allowance: ArrayLike<number>, pooling: ChosenPooling, coverage: number): ScalePoolingSelection {
  const { view } = pooling;
  const candidates = pooling.candidates.map((power) => {
    const scored = calibrationBySource(oof, power, allowance, view, coverage)
      .filter(({ source }) => source !== view.notScored)
      .flatMap(({ source, held, heldMasked, covered }) => [{ name: source, rows: held, covered }, ...(heldMasked.length ? [{ name: `${source}, core fields only`, rows: heldMasked, covered }] : [])]);
    const groups = Object.fromEntries(scored.map(({ name, rows, covered }) => [name, { n: rows.length, coverage: rows.filter(covered).length / rows.length }]));
    const n = scored.reduce((sum, { rows }) => sum + rows.length, 0);
    return {
      power,
      coverage: scored.reduce((sum, { name }) => sum + groups[name].coverage * groups[name].n, 0) / n,
      meanAbsDeviation: scored.reduce((sum, { name }) => sum + Math.abs(groups[name].coverage - coverage), 0) / scored.length,
      groups,
    };
  });
  const best = candidates.reduce((a, b) => (b.meanAbsDeviation < a.meanAbsDeviation ? b : a));
  return {
    protocol: `leave-one-source-out over ${Object.keys(best.groups).join(', ')}${view.notScored ? ` (${view.notScored} fitted on, not scored)` : ''}: each source's intervals calibrated on the other sources' residuals`,
    minRows: 0,
    candidates,
    chosen: best.power,
  };
}
