/**
 * Is an address in Tashkent city? The sites write the region first: "город Ташкент, Мирабадский район, …"
 * inside the city, "Ташкентская область, Чирчик" or "Самаркандская область, …" outside it.
 * District and mahalla names inside an address are read by models/vocabulary.
 */

const TASHKENT_CITY = /^(?:город|г\.)\s*ташкент$/i;

export function isTashkentCityAddress(address: string): boolean {
  return TASHKENT_CITY.test(address.split(',')[0].trim());
}

/** The English file's street column names a mahalla as "Makhalinsky gathering (of) citizens …". */
export function namesMahalla(englishStreet: string): boolean {
  return /^makhalinsky gathering\b/i.test(englishStreet.trim());
}
