/**
 * A valuation as the organisation sees it, whatever the kind: moved by its market factor, with its
 * own interval where it has enough observations (./observation-recording.ts fits the adjustment).
 * Each kind says which of its own figures move with the factor (subgraphs/residential/observations.ts,
 * subgraphs/vehicle/observations.ts).
 */
import { round3, type StatedConfidence } from '../../models/ensemble';
import { flagsAfterAdjustment, reanchoredConfidence, type MarketAdjustment, type ValuationAdjustment } from './observation-recording';

/** What every kind's valuation view has that an adjustment moves. */
export interface AdjustableView {
  estimate: number;
  interval: { low: number; high: number; coverage: number };
  fsd?: number | null;
  confidence: StatedConfidence;
  warnings: string[];
  anomaly: { flags: string[] };
}

/** A kind's own figures moved by the factor: on the view, and in its anomaly block. */
export interface KindMoves<View extends AdjustableView> {
  view?: Partial<View>;
  anomaly: Partial<View['anomaly']>;
}

/** A deviation from a median after the estimate moved by `factor` (the median stays). */
export function movedDeviation(deviation: number | null, factor: number): number | null {
  return deviation === null ? null : round3((1 + deviation) * factor - 1);
}

/**
 * The view after the organisation's adjustment (null: it has none; skipped: not fitted in time, said
 * in the warnings). The asking-price flags are made again against the interval the organisation is given.
 */
export function adjustedView<View extends AdjustableView>(
  view: View,
  adjustment: ValuationAdjustment | { skipped: string } | null,
  askingPrice: number | null,
  kindMoves: (factor: number) => KindMoves<View>,
): View & { marketAdjustment: MarketAdjustment | null } {
  // Object.assign, not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
  if (!adjustment) return Object.assign({}, view, { marketAdjustment: null });
  if ('skipped' in adjustment) return { ...view, marketAdjustment: null, warnings: [...view.warnings, adjustment.skipped] };
  const { estimate, interval, factor, marketAdjustment, warning } = adjustment;
  const moved = kindMoves(factor);
  return {
    ...view,
    estimate,
    interval,
    ...reanchoredConfidence(view.confidence, estimate, interval, marketAdjustment),
    warnings: warning ? [...view.warnings, warning] : view.warnings,
    ...moved.view,
    anomaly: { ...view.anomaly, ...moved.anomaly, flags: flagsAfterAdjustment(view.anomaly.flags, askingPrice, interval) },
    marketAdjustment,
  };
}
