/**
 * Rules of the vehicle trainer that its model card quotes: defined once here, so that the card
 * (tools/cards/vehicle.ts) states what the trainer does (models/vehicle/train.ts) rather than a
 * copy of it that a test would have to compare with the trainer's source text.
 */

/** Weight of a listing's copy without its model, relative to the listing (how unseen models are learnt). */
export const MASKED_COPY_WEIGHT = 0.5;

/** Held-out listings of a make and model a forward split needs before its accuracy class counts. */
export const MIN_CLASS_ROWS = 30;

/** The confidence rule's width term runs between these percentiles of the oldest forward split's in-period relative widths. */
export const CONFIDENCE_WIDTH_PERCENTILES = { full: 10, none: 90 } as const;
