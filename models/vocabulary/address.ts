/** Reads the district and the mahalla out of a listing address. */
import type { DistrictId } from './codes';
import { districtInAddress } from './districts';
import { mahallaStem } from './mahalla-index';

/** How the listing sites write "mahalla X" inside one comma-separated address part. */
const MAHALLA_PATTERNS: readonly RegExp[] = [
  /махаллинский сход граждан\s+(.+)/i, // uybor: "махаллинский сход граждан Инокобод"
  /(?:^|\s)махал(?:ля|ла)\s+(.+)/i, // "махалля Ракат", "Чиланзар 13-й квартал махалля Кухна-Чупонота"
  /^(.+?)\s+махал(?:ля|ла)$/i, // olx 2021: "Ракат махалля"
  /^(.+?)\s+mahalla(?:si)?(?:\s+fuqarolar\s+yig\S*ini)?$/i, // "Dahana mahalla fuqarolar yig'ini"
  // uybor English MT: "Makhalinsky gathering of citizens of Qatartal", "… of Ak-Tepa citizens"
  /^makhalinsky gathering (?:of )?(?:citizens )?(?:of )?(?:the )?(.+?)(?: citizens)?$/i,
];

/** The mahalla named in one address part, as written; null when the part names none. */
export function mahallaNameIn(part: string): string | null {
  const text = part.trim().replace(/\s+/g, ' ');
  for (const pattern of MAHALLA_PATTERNS) {
    const name = pattern.exec(text)?.[1];
    // "Makhalinsky gathering citizens" has no name left once the generic words go.
    if (name !== undefined) return mahallaStem(name) === '' ? null : name;
  }
  return null;
}

export interface AddressMahalla {
  district: DistrictId;
  mahalla: string; // as written in the address
}

/** "город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал" → mirabad / Инокобод. */
export function mahallaInAddress(address: string): AddressMahalla | null {
  const district = districtInAddress(address);
  if (district === null) return null;
  for (const part of address.split(',')) {
    const mahalla = mahallaNameIn(part);
    if (mahalla !== null) return { district: district.id, mahalla };
  }
  return null;
}
