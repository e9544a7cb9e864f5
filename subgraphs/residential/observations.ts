/**
 * Observed home prices in the residential subgraph (issue 18): each is scored against the flat or
 * house model at its date and kept in the organisation's book; the organisation's valuations are
 * then adjusted by its book (models/observations).
 */
import { round3 } from '../../models/ensemble';
import { HOME_TOP } from '../../models/observations';
import { normaliseHomeInput, valueHomes, type ResidentialRuntime } from '../../models/residential';
import type { HomeValuationView } from '../../schema/home-rest';
import type { ObservationBook } from '../common/observation-book';
import { adjustmentFor, flagsAfterAdjustment, reanchoredConfidence, scorer, type MarketAdjustment } from '../common/observation-recording';

type NormalisedHomeInput = ReturnType<typeof normaliseHomeInput>;

/** A home's groups: the city, its district, and its segment (new or resale as stated, unknown, or house). */
export function homeGroupsOf(input: NormalisedHomeInput): Record<string, string> {
  const segment = input.request.propertyType === 'house' ? 'house' : (input.request.market ?? 'unknown');
  return { city: HOME_TOP, district: input.location.district, segment };
}

/** Values each observed home at its own date with the model alone: the base its residual is taken against. */
export function scoreHomes(runtime: ResidentialRuntime) {
  return scorer(
    (fields) => normaliseHomeInput(fields as unknown as Parameters<typeof normaliseHomeInput>[0]),
    (valid) => valueHomes(runtime, valid),
    (input) => ({ groups: homeGroupsOf(input), input: { ...input.request, district: input.location.district, mahalla: input.location.mahalla } }),
  );
}

export type AdjustedHomeValuation = HomeValuationView & { marketAdjustment: MarketAdjustment | null };

/** The valuation as the organisation sees it: moved by its market factor, with its own interval where it has enough observations. */
export async function adjustHomeValuation(book: ObservationBook, org: string | null, input: NormalisedHomeInput, view: HomeValuationView): Promise<AdjustedHomeValuation> {
  const adjustment = await adjustmentFor(book, org, homeGroupsOf(input), view);
  // Object.assign, not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
  if (!adjustment) return Object.assign({}, view, { marketAdjustment: null });
  if ('skipped' in adjustment) return { ...view, marketAdjustment: null, warnings: [...view.warnings, adjustment.skipped] };
  const { estimate, interval, factor, marketAdjustment, warning } = adjustment;
  const moved = (deviation: number | null) => (deviation === null ? null : round3((1 + deviation) * factor - 1));
  return {
    ...view,
    estimate,
    interval,
    ...reanchoredConfidence(view.confidence, estimate, interval, marketAdjustment),
    warnings: warning ? [...view.warnings, warning] : view.warnings,
    pricePerM2: Math.round(view.pricePerM2 * factor),
    landPricePerSotka: view.landPricePerSotka === null ? null : Math.round(view.landPricePerSotka * factor),
    anomaly: {
      ...view.anomaly,
      deviationFromDistrictMedian: moved(view.anomaly.deviationFromDistrictMedian)!,
      deviationFromMahallaMedian: moved(view.anomaly.deviationFromMahallaMedian),
      deviationFromDistrictMedianPerSotka: moved(view.anomaly.deviationFromDistrictMedianPerSotka),
      flags: flagsAfterAdjustment(view.anomaly.flags, input.request.askingPrice, interval),
    },
    marketAdjustment,
  };
}
