/**
 * Observed home prices in the residential subgraph (issue 18): each is scored against the flat or
 * house model at its date and kept in the organisation's book; the organisation's valuations are
 * then adjusted by its book (models/observations).
 */
import { HOME_TOP } from '../../models/observations';
import { normaliseHomeInput, valueHomes, type ResidentialRuntime } from '../../models/residential';
import type { HomeValuationView } from '../../schema/home-rest';
import { adjustedView, movedDeviation } from '../common/adjusted-view';
import type { ObservationBook } from '../common/observation-book';
import { adjustmentFor, scorer, type MarketAdjustment } from '../common/observation-recording';

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

/** The valuation as the organisation sees it (../common/adjusted-view.ts); a home's price per m² and per sotka and its deviations from the medians move with the factor. */
export async function adjustHomeValuation(book: ObservationBook, org: string | null, input: NormalisedHomeInput, view: HomeValuationView): Promise<AdjustedHomeValuation> {
  const adjustment = await adjustmentFor(book, org, homeGroupsOf(input), view);
  return adjustedView(view, adjustment, input.request.askingPrice, (factor) => ({
    view: {
      pricePerM2: Math.round(view.pricePerM2 * factor),
      landPricePerSotka: view.landPricePerSotka === null ? null : Math.round(view.landPricePerSotka * factor),
    },
    anomaly: {
      deviationFromDistrictMedian: movedDeviation(view.anomaly.deviationFromDistrictMedian, factor)!,
      deviationFromMahallaMedian: movedDeviation(view.anomaly.deviationFromMahallaMedian, factor),
      deviationFromDistrictMedianPerSotka: movedDeviation(view.anomaly.deviationFromDistrictMedianPerSotka, factor),
    },
  }));
}
