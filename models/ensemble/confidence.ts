/**
 * The confidence rule: what the service says about how far to trust one estimate, for any kind of
 * collateral. The group is the district for homes, the make/model group for vehicles.
 *
 * Confidence score (0–1) = 0.5·width + 0.2·agreement + 0.3·group, minus 0.1 per anomaly flag, where
 *   width     = 1 at a relative interval width (high−low)/estimate of 0.2 or less, 0 at 0.8 or more, linear between;
 *   agreement = 1 when the ensemble members agree, 0 at a relative spread of 0.3;
 *   group     = 1, 0.8, 0.6, 0.4 for the group's held-out accuracy class high, medium, moderate, low.
 * Level: high ≥ 0.75, medium ≥ 0.5, else low; a group of low accuracy class is never 'high'.
 */

export type ConfidenceLevel = 'high' | 'medium' | 'low';
export type AccuracyClass = 'high' | 'medium' | 'moderate' | 'low';

const GROUP_SCORE: Record<AccuracyClass, number> = { high: 1, medium: 0.8, moderate: 0.6, low: 0.4 };

export function confidence(relativeWidth: number, modelSpread: number, groupClass: AccuracyClass, flagCount: number): { level: ConfidenceLevel; score: number } {
  const width = clamp(1 - (relativeWidth - 0.2) / 0.6);
  const agreement = clamp(1 - modelSpread / 0.3);
  const raw = 0.5 * width + 0.2 * agreement + 0.3 * GROUP_SCORE[groupClass] - 0.1 * flagCount;
  const score = Math.round(clamp(raw) * 100) / 100;
  let level: ConfidenceLevel = score >= 0.75 ? 'high' : score >= 0.5 ? 'medium' : 'low';
  if (level === 'high' && groupClass === 'low') level = 'medium';
  return { level, score };
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
