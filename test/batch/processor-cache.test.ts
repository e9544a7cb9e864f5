/**
 * The chunk processor keeps the location index of the points it scored: with that kept (even in a
 * cache of two points, always evicting), every result is the one a processor scoring from scratch
 * gives. The location subgraph's schema answers in process; homes are echoed.
 */
import { loadGazetteer } from '../../models/location/geocode';
import type { ChunkContext, ChunkProcessor, ItemResult } from '../../platform/batch-engine';
import { createChunkProcessor, GEOCODES_QUERY } from '../../subgraphs/batch/processor';
import { inProcessGraphClient, type GraphClient } from '../../platform/graph-client';
import { buildLocationSchema, loadLocationServices } from '../../subgraphs/location';
import { createLocationContext } from '../../subgraphs/location/context';

const context = (chunkIndex: number, firstIndex: number): ChunkContext => ({ jobId: 'cache-test', organisation: 'test', chunkIndex, firstIndex, attempt: 1 });
/** Echoes each home's input, so that results show which district and mahalla each item sent. */
const echo: GraphClient = {
  request: async <T>(_query: string, variables: Record<string, unknown>) =>
    ({ homeValuations: (variables.inputs as Record<string, unknown>[]).map((input) => ({ valuation: { echo: input }, error: null })) }) as T,
};

describe('the chunk processor with its caches', () => {
  const real = loadLocationServices();
  // Points the geocoder never gives: outside the city, and with latitude and longitude swapped.
  const stubbed: Record<string, { lat: number; lon: number }> = { 'stub: outside': { lat: 41.0, lon: 60.0 }, 'stub: swapped': { lat: 69.25, lon: 41.3 } };
  let location: GraphClient;
  beforeAll(async () => {
    const served = inProcessGraphClient({ schema: await buildLocationSchema(), context: () => createLocationContext(real) });
    // The real subgraph, with the stubs' answers put in place of its errors for them.
    location = {
      async request<T>(query: string, variables: Record<string, unknown>, caller: Parameters<GraphClient['request']>[2]): Promise<T> {
        const data = await served.request<Record<string, { result: unknown; error: unknown }[]>>(query, variables, caller);
        if (query !== GEOCODES_QUERY) return data as T;
        const addresses = variables.addresses as string[];
        return {
          geocodes: data.geocodes.map((answer, i) => {
            const stub = stubbed[addresses[i]];
            return stub ? { result: { ...stub, precision: 'district', matched: { district: { name: 'Chilanzar' }, mahalla: null } }, error: null } : answer;
          }),
        } as T;
      },
    };
  });

  const gazetteer = loadGazetteer();
  const district = new Map(gazetteer.districts.map((d) => [d.id, d.names]));
  const items: unknown[] = gazetteer.places
    .filter((_, i) => i % 5 === 0)
    .flatMap((p, i) => [
      { address: `${district.get(p.district)![i % 3]}, ${p.name}, ${1 + (i % 97)}-uy` },
      { address: `${p.name}, ${3 + (i % 9)}-uy`, ...(i % 4 === 0 && { home: { area: 40 + i, rooms: 2, floor: 3, totalFloors: 9 } }) },
    ]);
  items.push(
    { address: 'город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал', home: { area: 50, rooms: 2, floor: 1, totalFloors: 4 } },
    { address: 'stub: outside' }, { address: 'stub: swapped' }, { address: 'stub: outside' },
    { address: 'qwzx blorf' }, { address: '' }, {}, { address: 'Yunusobod 8 kvartal', home: { district: 'x' } },
  );

  /** From scratch: a new processor for every item. */
  async function uncached(): Promise<unknown[]> {
    const results: unknown[] = [];
    for (const [i, item] of items.entries()) {
      const processor = createChunkProcessor({ location, residential: echo });
      results.push(...(await processor([item], context(i, i))));
    }
    return JSON.parse(JSON.stringify(results));
  }

  async function chunked(processor: ChunkProcessor, order: 'forwards' | 'backwards'): Promise<unknown[]> {
    const size = 37;
    const starts = Array.from({ length: Math.ceil(items.length / size) }, (_, c) => c * size);
    const results: ItemResult[][] = [];
    for (const start of order === 'forwards' ? starts : [...starts].reverse()) {
      results[start / size] = [...(await processor(items.slice(start, start + size), context(start / size, start)))];
    }
    return JSON.parse(JSON.stringify(results.flat()));
  }

  test("values a home at the geocoded point when the address places it finer than a mahalla, and at the item's own point when it has one", async () => {
    const processor = createChunkProcessor({ location, residential: echo });
    const home = { area: 50, rooms: 2, floor: 1, totalFloors: 4 };
    const fine = items.filter((item) => (item as { home?: unknown }).home).map((item) => (item as { address: string }).address)
      .find((address) => ['street', 'quarter'].includes(real.geocode(address).precision))!;
    expect(fine).toBeDefined();
    const geocode = real.geocode(fine);
    const [placed, own] = (await processor([{ address: fine, home }, { address: fine, home: { ...home, lat: 41.3, lon: 69.25 } }], context(0, 0))) as unknown as { result: { home: { echo: Record<string, unknown> } } }[];
    expect(placed.result.home.echo).toMatchObject({ lat: geocode.lat, lon: geocode.lon });
    expect(own.result.home.echo).toMatchObject({ lat: 41.3, lon: 69.25 });
  });

  test('gives the results of a processor scoring from scratch, with the default cache and with one of two points', async () => {
    const expected = await uncached();
    expect(expected.filter((r) => (r as ItemResult).ok).length).toBeGreaterThan(items.length / 2);
    const codes = expected.flatMap((r) => ((r as ItemResult).ok ? [] : [(r as { error: { code: string } }).error.code]));
    expect(new Set(codes).size).toBeGreaterThanOrEqual(3); // unresolvable, outside the city or out of range, invalid items
    for (const scoreCacheSize of [undefined, 2]) {
      // One processor, pass after pass: its caches warm.
      const processor = createChunkProcessor({ location, residential: echo, scoreCacheSize });
      for (const order of ['forwards', 'backwards', 'forwards'] as const) expect(await chunked(processor, order)).toEqual(expected);
    }
  });
});
