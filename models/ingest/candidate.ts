/** A record on its way through cleaning, with what has been corrected in it so far. */
import type { Correction } from './reasons';
import type { ListingRecord } from './record';

export interface Candidate {
  record: ListingRecord;
  corrections: Correction[];
}

/** Splitting candidates into those kept and those dropped by one cleaning step. */
export interface Split<T extends Candidate = Candidate> {
  kept: T[];
  dropped: T[];
}
