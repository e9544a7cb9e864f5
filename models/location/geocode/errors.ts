/** The one error geocoding throws: the address cannot be placed in Tashkent, and no point is guessed. */

export type UnresolvableReason =
  | 'empty' // nothing but spaces and punctuation
  | 'outside_tashkent' // names a region, town or district elsewhere in Uzbekistan
  | 'not_found' // names no Tashkent district and no known place
  | 'ambiguous'; // names a place that several districts have, far apart, and no district

export class UnresolvableAddressError extends Error {
  override readonly name = 'UnresolvableAddressError';

  constructor(
    readonly reason: UnresolvableReason,
    message: string,
    /** What the address may have meant ("Юнусабад 8-й квартал (Yunusabad)"), best first; empty when nothing is close. */
    readonly suggestions: readonly string[] = [],
  ) {
    super(message);
  }
}
