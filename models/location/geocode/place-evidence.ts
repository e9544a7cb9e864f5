/**
 * What one geocoded listing says about the gazetteer: its point stands for each place and mahalla
 * its address names. A bare name that is one of the district's mahallas ("Инокобод", "Ракат") is
 * evidence for that mahalla; a quarter number without its massif ("24") is kept aside until the
 * district's quarters are known.
 */
import { matchMahalla, type DistrictId } from '../../vocabulary';
import { readAddress } from './address-read';
import type { LatLon } from './geo';
import type { PlaceMention } from './place-parse';

export interface PlaceEvidence {
  district: DistrictId;
  mention: PlaceMention;
  text: string; // the segment as written
  point: LatLon;
}

export interface ListingEvidence {
  places: PlaceEvidence[];
  /** Quarter numbers without a massif ("Chilonzor район, 24"). */
  bareQuarterNumbers: PlaceEvidence[];
  mahallaIds: string[];
}

export function evidenceOf(address: string, district: DistrictId, point: LatLon): ListingEvidence {
  const reading = readAddress(address);
  const evidence: ListingEvidence = { places: [], bareQuarterNumbers: [], mahallaIds: [] };
  const addMahalla = (id: string) => {
    if (!evidence.mahallaIds.includes(id)) evidence.mahallaIds.push(id);
  };
  for (const name of reading.mahallas) {
    const mahalla = matchMahalla(name, district);
    if (mahalla !== null) addMahalla(mahalla.id);
  }
  for (const { text, mention } of reading.places) {
    if (mention.kind === 'named') {
      // Only exact and alias matches: a typo away from a mahalla is as likely another place.
      const mahalla = matchMahalla(text, district);
      if (mahalla !== null && mahalla.via !== 'fuzzy') {
        addMahalla(mahalla.id);
        continue;
      }
    }
    const place = { district, mention, text, point };
    if (mention.key === '') evidence.bareQuarterNumbers.push(place);
    else evidence.places.push(place);
  }
  return evidence;
}
