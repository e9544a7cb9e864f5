/**
 * Figures as a reader quotes them (issue 35, item 7): an accuracy field answers 0.1687, not
 * 0.1687413622…, so a dashboard, an agent and the report quote the same digits. A field middleware
 * (type-graphql's own hook) on the figures of model summaries: they are read a few times a
 * session, never on the valuation path.
 */
import { UseMiddleware } from 'type-graphql';

/** Shares and ratios (0.1687 = 16.87%). */
export const RATIO_DIGITS = 4;

/** The field's number rounded to `digits` decimals (null and non-numbers pass as they are). */
export function Rounded(digits: number = RATIO_DIGITS): ReturnType<typeof UseMiddleware> {
  const scale = 10 ** digits;
  return UseMiddleware(async (_, next) => {
    const value: unknown = await next();
    return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * scale) / scale : value;
  });
}
