/**
 * Issue 37, item 1: the three collectors' adapters on fixtures. uybor and olx answers are built from
 * the documented shapes (test/collect/fixtures/); avtoelon's are the two recorded pages in
 * ../shared/fixtures/avtoelon/ (skipped when that folder is not beside the repository).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  adaptOlxOffer, adaptUyborListing, isSkipped, parseAvtoelonDetailPage, parseAvtoelonSearchPage, uzsPerUsdOn,
  type Collected, type CollectedListing, type OlxAnswer, type UyborAnswer,
} from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { PROJECT_ROOT } from '../../models/paths';
import { createVehicleLookups } from '../../models/vehicle/ingest/lookups';

const FIXTURES = join(PROJECT_ROOT, 'test', 'collect', 'fixtures');
const RECORDED = join(PROJECT_ROOT, '..', 'shared', 'fixtures', 'avtoelon');
const SEEN_ON = '2026-06-30';
const normaliser = createNormaliser();

function byId(results: Collected[]): Map<string, Collected> {
  return new Map(results.map((r) => [r.id, r]));
}

function listing(result: Collected | undefined): CollectedListing {
  if (!result || isSkipped(result)) throw new Error(`expected a listing, got ${JSON.stringify(result)}`);
  return result;
}

describe('uybor adapter', () => {
  const answer = JSON.parse(readFileSync(join(FIXTURES, 'uybor-listings.json'), 'utf8')) as UyborAnswer;
  const results = byId(answer.results.map((l) => adaptUyborListing(l, { normaliser, seenOn: SEEN_ON })));

  it('reads a plain USD flat into the canonical record', () => {
    const flat = listing(results.get('910001'));
    expect(flat.price).toEqual({ amount: 68000, currency: 'USD', priceUsd: 68000 });
    expect(flat.home).toMatchObject({
      source: 'uybor_collected', period: '2026-06', propertyType: 'apartment', priceUsd: 68000, district: 'chilanzar',
      area: 58, rooms: 2, floor: 4, totalFloors: 9, market: 'resale', lat: 41.2856, lon: 69.2034,
    });
    expect(flat.bumpedAt).toBe('2026-06-30T06:00:00Z');
    expect(flat.coordinatesBlurred).toBe(false);
  });

  it('multiplies a price per m² by the area, and reads a studio as one room', () => {
    const studio = listing(results.get('910002'));
    expect(studio.price).toEqual({ amount: 46000, currency: 'USD', priceUsd: 46000 });
    expect(studio.home).toMatchObject({ rooms: 1, area: 40, market: 'new', district: 'yunusabad' });
  });

  it('converts a soʻm price at the day’s official rate and reads "6+" as 6 rooms', () => {
    const big = listing(results.get('910003'));
    const rate = uzsPerUsdOn(SEEN_ON);
    expect(big.price.currency).toBe('UZS');
    expect(big.price.amount).toBe(2_560_000_000);
    expect(big.price.priceUsd).toBeCloseTo(2_560_000_000 / rate, 1);
    expect(big.home).toMatchObject({ rooms: 6, district: 'mirabad' });
  });

  it('multiplies a house price per sotka by the plot', () => {
    const house = listing(results.get('910004'));
    expect(house.price).toEqual({ amount: 90000, currency: 'USD', priceUsd: 90000 });
    expect(house.home).toMatchObject({ propertyType: 'house', landAreaSotka: 6, area: 140, floor: null, district: 'sergeli' });
  });

  it('skips land, places a listing without a district by its coordinates, and skips an unpriced one', () => {
    expect(results.get('910005')).toEqual({ site: 'uybor', id: '910005', skip: 'not_residential' });
    expect(listing(results.get('910006')).home?.district).toBe('mirzo_ulugbek');
    expect(results.get('910007')).toEqual({ site: 'uybor', id: '910007', skip: 'no_price' });
  });
});

describe('olx adapter', () => {
  const answer = JSON.parse(readFileSync(join(FIXTURES, 'olx-offers.json'), 'utf8')) as OlxAnswer;
  const results = byId(answer.data.map((o) => adaptOlxOffer(o, 'apartment', { normaliser, seenOn: SEEN_ON })));

  it('reads a "у.е." (USD) offer; its blurred pin is flagged and kept off the record', () => {
    const flat = listing(results.get('50000001'));
    expect(flat.price).toEqual({ amount: 68500, currency: 'USD', priceUsd: 68500 });
    expect(flat.coordinatesBlurred).toBe(true);
    expect(flat.pin).toEqual({ lat: 41.3, lon: 69.19 });
    expect(flat.home).toMatchObject({ source: 'olx_collected', district: 'chilanzar', rooms: 2, area: 58, floor: 4, totalFloors: 9, seller: 'owner', lat: null, lon: null });
    expect(flat.bumpedAt).toBe('2026-06-29T08:00:00+05:00');
    expect(flat.active).toBe(true);
  });

  it('converts a soʻm offer at the day’s rate; a studio is one room; no district name → the pin’s district', () => {
    const studio = listing(results.get('50000002'));
    expect(studio.price.currency).toBe('UZS');
    expect(studio.price.priceUsd).toBeCloseTo(512_000_000 / uzsPerUsdOn(SEEN_ON), 1);
    expect(studio.home).toMatchObject({ rooms: 1, seller: 'agency', district: 'yunusabad' });
  });

  it('reads "6+" rooms and an archived offer as inactive; a negotiable price is skipped', () => {
    const archived = listing(results.get('50000003'));
    expect(archived.home?.rooms).toBe(6);
    expect(archived.active).toBe(false);
    expect(results.get('50000004')).toEqual({ site: 'olx', id: '50000004', skip: 'no_price' });
  });
});

const describeRecorded = existsSync(RECORDED) ? describe : describe.skip;

describeRecorded('avtoelon adapter on the recorded pages', () => {
  const lookups = createVehicleLookups();

  it('reads all 20 cards of the recorded search page with their cars and the pager', () => {
    const page = parseAvtoelonSearchPage(readFileSync(join(RECORDED, 'search-2025-11-11.html'), 'utf8'), 1, { lookups, seenOn: '2025-11-11' });
    expect(page.listings).toHaveLength(20);
    expect(page.listings.filter(isSkipped)).toEqual([]);
    expect(page.nextPage).toBe(2);
    expect(page.offerCount).toBe(183);
    const first = listing(page.listings[0]);
    expect(first).toMatchObject({ site: 'avtoelon', id: '6754214', url: 'https://avtoelon.uz/a/show/6754214', active: true, bumpedAt: '2025-11-11T19:30:52+05:00' });
    expect(first.vehicle).toEqual({
      source: 'avtoelon_collected', sourceRow: 0, period: '2025-11', make: 'Chevrolet', model: 'Cobalt', year: 2022,
      mileageKm: 98000, engineLitres: 1.5, fuel: 'petrol', transmission: 'automatic', body: 'sedan', drive: null, colour: null,
      trim: 4, defects: null, region: 'samarkand', priceUsd: 11000,
    });
  });

  it('reads the recorded detail page: live, its price and its specs', () => {
    const detail = parseAvtoelonDetailPage(readFileSync(join(RECORDED, 'ad.html'), 'utf8'));
    expect(detail).toMatchObject({ id: '6736801', active: true, priceUsd: 10400, title: 'Chevrolet Cobalt, 2 позиция' });
    expect(detail?.specs['Пробег']).toBe('128 000 км');
    expect(detail?.specs['Год']).toBe('2021');
  });
});
