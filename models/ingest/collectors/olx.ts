/**
 * olx.uz's offers API (`GET /api/v1/offers/`; docs/COLLECTING.md): one JSON offer → a collected listing.
 *
 * - Price: the `price` param's `{value, currency}`; `UYE` ("у.е.") is USD, `UZS` soʻm is converted at
 *   the day's official rate. Olx prices are totals.
 * - Rooms (`number_of_rooms`), area (`total_area`), floors (`floor`, `total_floors`) are params whose
 *   value is `{key,label}`; "6+" and "studio" read as 6 and 1.
 * - The map pin is blurred by the site (2–5 km): flagged, kept on the collected listing, never on the
 *   canonical record; the district is the one the offer names, else the polygon under the pin.
 * - Whether an offer is a flat or a house is not in the offer: it is the category the query asked
 *   for (the crawler's slice), passed in `propertyType`.
 * - An offer whose `status` is not `active` (archived, sold, moderated) is a removal.
 */
import type { PropertyType } from '../../vocabulary';
import { totalAskingPrice } from './asking-price';
import type { Collected } from './collected-listing';
import { cleanedHome, dayOf, districtOf, numberOf, roomsOf, type HomeAdaptContext } from './home-fields';

export interface OlxParam {
  key: string;
  value: { key?: string; label?: string; value?: number | string; currency?: string; converted_value?: number | null } | null;
}

export interface OlxOffer {
  id: number | string;
  url?: string | null;
  title?: string | null;
  created_time?: string | null;
  last_refresh_time?: string | null;
  pushup_time?: string | null;
  valid_to_time?: string | null;
  status?: string | null;
  business?: boolean | null;
  category?: { id: number } | null;
  params?: OlxParam[] | null;
  location?: { city?: { id?: number; name?: string } | null; district?: { id?: number; name?: string } | null; region?: { id?: number; name?: string } | null } | null;
  map?: { lat?: number | null; lon?: number | null; radius?: number | null } | null;
}

/** `{"data":[…],"metadata":{"total_elements",…},"links":{"next":{href}}}` */
export interface OlxAnswer {
  data: OlxOffer[];
  metadata?: { total_elements?: number } | null;
  links?: { next?: { href?: string } | null } | null;
}

function param(offer: OlxOffer, key: string): OlxParam['value'] {
  return offer.params?.find((p) => p.key === key)?.value ?? null;
}

function paramNumber(offer: OlxOffer, key: string): number | null {
  const value = param(offer, key);
  return value === null ? null : numberOf(value.key ?? value.value ?? value.label?.replace(/[^\d.,]/g, ''));
}

export function adaptOlxOffer(offer: OlxOffer, propertyType: PropertyType, context: HomeAdaptContext): Collected {
  const id = String(offer.id);
  const skip = (reason: string): Collected => ({ site: 'olx', id, skip: reason });
  const priceParam = param(offer, 'price');
  const amount = numberOf(priceParam?.value);
  const currency = priceParam?.currency?.toUpperCase() === 'UZS' ? 'UZS' : 'USD';
  const area = paramNumber(offer, 'total_area');
  const price = amount === null ? null : totalAskingPrice(amount, currency, 'total', { areaM2: area, landSotka: null }, context.seenOn);
  if (price === null) return skip('no_price');
  if (area === null) return skip('no_area');

  const lat = numberOf(offer.map?.lat);
  const lon = numberOf(offer.map?.lon);
  const district = districtOf(context.normaliser, [offer.location?.district?.name], lat, lon);
  if (district === null) return skip('unknown_district');
  const isHouse = propertyType === 'house';
  const roomsValue = param(offer, 'number_of_rooms');
  const home = cleanedHome({
    source: 'olx_collected',
    sourceRow: 0,
    period: context.seenOn.slice(0, 7),
    propertyType,
    priceUsd: price.priceUsd,
    district,
    mahallaId: null,
    area,
    rooms: roomsOf(roomsValue?.key ?? roomsValue?.label ?? null),
    floor: isHouse ? null : paramNumber(offer, 'floor'),
    totalFloors: paramNumber(offer, 'total_floors'),
    landAreaSotka: isHouse ? paramNumber(offer, 'land_area') : null,
    renovation: null,
    buildingType: null,
    furniture: null,
    bathroom: null,
    market: null,
    seller: typeof offer.business === 'boolean' ? (offer.business ? 'agency' : 'owner') : null,
    amenities: null,
    lat: null,
    lon: null,
  });
  if ('skip' in home) return skip(home.skip);
  return {
    site: 'olx',
    id,
    url: offer.url ?? null,
    postedAt: dayOf(offer.created_time) ? offer.created_time! : null,
    bumpedAt: dayOf(offer.pushup_time) ? offer.pushup_time! : null,
    active: (offer.status ?? 'active') === 'active',
    price,
    pin: lat !== null && lon !== null ? { lat, lon } : null,
    coordinatesBlurred: true,
    home,
    vehicle: null,
  };
}
