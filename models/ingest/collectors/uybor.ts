/**
 * uybor.uz's listings API (`GET /api/v1/listings`, ../../../../shared/fixtures/README.md is where what is
 * known of it is written down; docs/COLLECTING.md repeats it): one JSON listing → a collected listing.
 *
 * - Price: `price` in `priceCurrency`, for the whole flat (`priceType` all), per m² (`sqm`) or per
 *   sotka (`sot`, houses and land): made total with `square` or `squareGround`. `prices.usd` (the
 *   site's own total) is the fall-back when `price` is missing.
 * - Rooms: "2", "6+" (6), "studio" (1).
 * - Category 7 is a flat, 8 a house (floor area `square`, plot `squareGround` in sotka); land (11) and
 *   anything else is not a home for the models and is skipped.
 * - Coordinates are the seller's pin, exact: not flagged blurred.
 */
import { totalAskingPrice, type PriceBasis } from './asking-price';
import type { Collected } from './collected-listing';
import { cleanedHome, dayOf, districtOf, numberOf, roomsOf, type HomeAdaptContext } from './home-fields';

export const UYBOR_CATEGORY = { flat: 7, house: 8, land: 11 } as const;

const PRICE_BASIS: Record<string, PriceBasis> = { all: 'total', sqm: 'per_m2', sot: 'per_sotka' };

/** The fields of an answer's listing this adapter reads (others are ignored). */
export interface UyborListing {
  id: number | string;
  price?: number | string | null;
  priceCurrency?: string | null;
  priceType?: string | null;
  prices?: { usd?: number | null; uzs?: number | null } | null;
  room?: string | number | null;
  square?: number | string | null;
  squareGround?: number | string | null;
  floor?: number | string | null;
  floorTotal?: number | string | null;
  isNewBuilding?: boolean | null;
  repair?: string | null;
  foundation?: string | null;
  lat?: number | string | null;
  lng?: number | string | null;
  address?: string | null;
  category?: { id: number } | null;
  categoryId?: number | null;
  district?: { id: number; name?: { ru?: string; uz?: string } } | null;
  createdAt?: string | null;
  upAt?: string | null;
  isActive?: boolean | null;
}

/** `{"total":N,"results":[…]}` */
export interface UyborAnswer {
  total: number;
  results: UyborListing[];
}

export function adaptUyborListing(listing: UyborListing, context: HomeAdaptContext): Collected {
  const id = String(listing.id);
  const skip = (reason: string): Collected => ({ site: 'uybor', id, skip: reason });
  const category = listing.category?.id ?? listing.categoryId ?? null;
  if (category !== UYBOR_CATEGORY.flat && category !== UYBOR_CATEGORY.house) return skip('not_residential');
  const isHouse = category === UYBOR_CATEGORY.house;

  const area = numberOf(listing.square);
  const landSotka = isHouse ? numberOf(listing.squareGround) : null;
  const basis = PRICE_BASIS[listing.priceType ?? 'all'] ?? 'total';
  const currency = (listing.priceCurrency ?? 'usd').toLowerCase() === 'uzs' ? 'UZS' : 'USD';
  const amount = numberOf(listing.price);
  const price =
    amount !== null
      ? totalAskingPrice(amount, currency, basis, { areaM2: area, landSotka }, context.seenOn)
      : numberOf(listing.prices?.usd) !== null
        ? totalAskingPrice(numberOf(listing.prices?.usd)!, 'USD', 'total', { areaM2: area, landSotka }, context.seenOn)
        : null;
  if (price === null) return skip('no_price');
  if (area === null) return skip('no_area');

  const lat = numberOf(listing.lat);
  const lon = numberOf(listing.lng);
  const district = districtOf(context.normaliser, [listing.district?.name?.ru, listing.district?.name?.uz], lat, lon);
  if (district === null) return skip('unknown_district');
  const address = listing.address ?? '';
  const home = cleanedHome({
    source: 'uybor_collected',
    sourceRow: 0,
    period: context.seenOn.slice(0, 7),
    propertyType: isHouse ? 'house' : 'apartment',
    priceUsd: price.priceUsd,
    district,
    mahallaId: /махалл/i.test(address) ? context.normaliser.mahalla(address, district) : null,
    area,
    rooms: roomsOf(listing.room),
    floor: isHouse ? null : numberOf(listing.floor),
    totalFloors: numberOf(listing.floorTotal),
    landAreaSotka: landSotka,
    renovation: listing.repair ? context.normaliser.renovation(listing.repair) : null,
    buildingType: listing.foundation ? context.normaliser.buildingType(listing.foundation) : null,
    furniture: null,
    bathroom: null,
    market: isHouse || typeof listing.isNewBuilding !== 'boolean' ? null : listing.isNewBuilding ? 'new' : 'resale',
    seller: null,
    amenities: null,
    lat,
    lon,
  });
  if ('skip' in home) return skip(home.skip);
  return {
    site: 'uybor',
    id,
    url: null, // the site's page address for an id is not documented; the id is enough to find it again
    postedAt: dayOf(listing.createdAt) ? listing.createdAt! : null,
    bumpedAt: dayOf(listing.upAt) ? listing.upAt! : null,
    active: listing.isActive !== false,
    price,
    pin: lat !== null && lon !== null ? { lat, lon } : null,
    coordinatesBlurred: false,
    home,
    vehicle: null,
  };
}
