/**
 * Issue 37, item 4: `npm run train` takes the collected homes export as sources of their own
 * (uybor_collected, olx_collected), and the forward test stays the newest period. No model is
 * trained here: the tests check what the trainers are given (records, source groups, forward test,
 * which rows the forward fit may learn from), and that without an export it is exactly what it was.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOURCE_FILES } from '../../models/ingest';
import { collectDirectoryOf, newestCollectedHomesExport, readCollectedHomes } from '../../models/ingest/collected-homes';
import { collectedExportFiles } from '../../models/vehicle/ingest/collected-cars';

/** The homes export `npm run train` reads (`--collected` given or not). */
const collectedHomesFile = (given: string | undefined, env: NodeJS.ProcessEnv) => collectedExportFiles(given, env).homes;
import { adaptUyborListing, isSkipped, type Collected, type CollectedListing } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { fittedBeforeForwardTest, FORWARD_TEST_SOURCE, forwardTestOf, MIN_COLLECTED_FORWARD_ROWS, SOURCE_GROUPS, toDataset, trainingRecords, TRAINING_SOURCES } from '../../models/residential/train';
import { exportTrainingSource, LifecycleStore } from '../../platform/collect';
import { uyborFlat } from './support/listings';

// trainingRecords and forwardTestOf ingest the listing files on every call: here each ingestion is
// read once (test/support/ingest-once.ts). What they are compared with is ingested afresh.
jest.mock('../../models/ingest', () => jest.requireActual<typeof import('../support/ingest-once')>('../support/ingest-once').listingsIngestedOnce());
/** The listing files ingested afresh, not through the trainers' shared ingestion. */
const ingestAfresh = jest.requireActual<typeof import('../../models/ingest')>('../../models/ingest').ingestListings;

const normaliser = createNormaliser();
const one = (result: Collected): CollectedListing => {
  if (isSkipped(result)) throw new Error(result.skip);
  return result;
};

/** A collect folder whose export holds `flats` flats last seen on `day` (and `earlier` more last seen a month before). */
function collectFolder(day: string, flats: number, earlier = 0, earlierDay = '2026-10-07'): { directory: string; file: string } {
  const directory = mkdtempSync(join(tmpdir(), 'collected-source-'));
  const store = LifecycleStore.open(directory);
  const list = (from: number, n: number, seenOn: string) => Array.from({ length: n }, (_, i) => one(adaptUyborListing(uyborFlat(from + i), { normaliser, seenOn })));
  if (earlier) store.recordSightings(`r-${earlierDay}`, earlierDay, list(1000, earlier, earlierDay));
  store.recordSightings(`r-${day}`, day, list(1, flats, day));
  return { directory, file: exportTrainingSource(store, day).recordsPath };
}

/** `trainingRecords({})`: the listing files alone, a full ingest of every file; computed once for the file's tests that read it. */
let filesOnly: ReturnType<typeof trainingRecords> | undefined;
const trainingRecordsOfFiles = () => (filesOnly ??= trainingRecords({}));

const folders: string[] = [];
afterAll(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));

describe('without a collected export', () => {
  it('no export is found in an empty collect folder, and training reads the listing files exactly as before', () => {
    const home = mkdtempSync(join(tmpdir(), 'collected-none-'));
    folders.push(home);
    expect(collectedHomesFile(undefined, { VALUATION_HOME: home })).toBeNull();
    expect(collectedHomesFile(undefined, { COLLECT_DIR: join(home, 'nowhere') })).toBeNull();

    const before = ingestAfresh();
    const records = trainingRecordsOfFiles();
    expect(records.collected).toBeNull();
    expect(trainingRecords({ collected: null }).records).toEqual(records.records);
    // The same records in the same order, and the same source list: the listing files' and nothing else.
    expect(JSON.stringify(records.records)).toBe(JSON.stringify(before.records));
    expect([...new Set(records.records.map((r) => r.source))].sort()).toEqual([...new Set(SOURCE_FILES.map((f) => f.source))].filter((s) => before.records.some((r) => r.source === s)).sort());
    expect(records.records.some((r) => r.source.endsWith('_collected'))).toBe(false);
    // The file sources' groups are unchanged; the collected ones are only added.
    expect(TRAINING_SOURCES.slice(0, 8)).toEqual(['olx_2021', 'uybor_2023', 'olx_2024', 'uybor_2025', 'uybor_2025_b', 'uybor_2025_en', 'uybor_2026', 'observations']);

    // The forward test is the newest snapshot, ingested without price fences, as before.
    const snapshot = ingestAfresh({ sources: [FORWARD_TEST_SOURCE], priceFences: false }).records;
    for (const kind of ['apartment', 'house'] as const) {
      const forward = forwardTestOf(records.records, kind);
      expect(forward.source).toBe(FORWARD_TEST_SOURCE);
      expect(forward.label).toBe("uybor's July 2026 snapshot");
      expect(JSON.stringify(forward.records)).toBe(JSON.stringify(snapshot.filter((r) => r.propertyType === kind)));
    }
  });
});

describe('with a collected export', () => {
  it('finds the newest export of the collect folder (COLLECT_DIR, else VALUATION_HOME/collect, or --collected)', () => {
    const { directory, file } = collectFolder('2026-11-18', 3);
    folders.push(directory);
    // An older export beside it is not taken.
    writeFileSync(join(directory, 'exports', 'collected-homes-2026-10-01.ndjson'), '');
    expect(newestCollectedHomesExport(directory)).toBe(file);
    expect(collectedHomesFile(undefined, { COLLECT_DIR: directory })).toBe(file);
    expect(collectDirectoryOf({ VALUATION_HOME: '/var/valuation' })).toBe('/var/valuation/collect');
    expect(collectedHomesFile(directory, {})).toBe(file);
    expect(collectedHomesFile(file, {})).toBe(file);
    const empty = mkdtempSync(join(tmpdir(), 'collected-empty-'));
    folders.push(empty);
    expect(() => collectedHomesFile(empty, {})).toThrow(/no exports\/collected-homes/);
  });

  it('a malformed line stops the run before training, naming its line', () => {
    const directory = mkdtempSync(join(tmpdir(), 'collected-bad-'));
    folders.push(directory);
    mkdirSync(join(directory, 'exports'));
    const file = join(directory, 'exports', 'collected-homes-2026-11-18.ndjson');
    writeFileSync(file, `${JSON.stringify({ source: 'uybor_2026', period: '2026-11', propertyType: 'apartment', district: 'chilanzar', priceUsd: 1, area: 50 })}\n`);
    expect(() => readCollectedHomes(file)).toThrow(/line 1: source must be one of uybor_collected, olx_collected/);
    writeFileSync(file, '{"source":');
    expect(() => readCollectedHomes(file)).toThrow(/line 1: not JSON/);
  });

  it('its homes join the listing files as dated sources of their own, and its newest month is the forward test', () => {
    const { directory, file } = collectFolder('2026-11-18', MIN_COLLECTED_FORWARD_ROWS + 5, 12);
    folders.push(directory);
    const collected = readCollectedHomes(file);
    expect(collected.report).toMatchObject({ file, lines: MIN_COLLECTED_FORWARD_ROWS + 17, kept: MIN_COLLECTED_FORWARD_ROWS + 17, bySource: { uybor_collected: MIN_COLLECTED_FORWARD_ROWS + 17 }, periods: { from: '2026-10', to: '2026-11' } });

    const files = trainingRecordsOfFiles();
    const withCollected = trainingRecords({ collected });
    expect(withCollected.collected).toEqual(collected.report);
    // The listing files' records first, unchanged, then the collected ones.
    expect(withCollected.records.slice(0, files.records.length)).toEqual(files.records);
    expect(withCollected.records.slice(files.records.length)).toEqual(collected.records);
    const data = toDataset(withCollected.records.filter((r) => r.propertyType === 'apartment' && TRAINING_SOURCES.includes(r.source)));
    expect(data.source.filter((s) => s === SOURCE_GROUPS.uybor_collected)).toHaveLength(MIN_COLLECTED_FORWARD_ROWS + 17);
    expect(SOURCE_GROUPS.uybor_collected).toBe('uybor collected');
    expect(SOURCE_GROUPS.olx_collected).toBe('olx collected');

    // The newest period is the forward test: November's collected flats.
    const forward = forwardTestOf(withCollected.records, 'apartment');
    expect(forward.source).toBeNull();
    expect(forward.label).toMatch(/collected in 2026-11/);
    expect(forward.records).toHaveLength(MIN_COLLECTED_FORWARD_ROWS + 5);
    expect(forward.records.every((r) => r.source === 'uybor_collected' && r.period === '2026-11')).toBe(true);
    // Its fit learns from every row before November: the July 2026 snapshot and October's collected flats, not November's.
    const fits = fittedBeforeForwardTest(forward.records, forward.source);
    const rows = data.rows;
    expect(rows.filter((r) => r.source === SOURCE_GROUPS.uybor_2026).every(fits)).toBe(true);
    expect(rows.filter((r) => r.source === 'uybor collected' && r.period === '2026-10')).toHaveLength(12);
    expect(rows.filter((r) => r.source === 'uybor collected' && r.period === '2026-10').every(fits)).toBe(true);
    expect(rows.filter((r) => r.period === '2026-11').some(fits)).toBe(false);
    // No collected houses: the houses' forward test is still the snapshot's.
    expect(forwardTestOf(withCollected.records, 'house').source).toBe(FORWARD_TEST_SOURCE);
  });

  it('a newest collected month with too few listings leaves the forward test on the snapshot, whose fit then leaves the collected rows out as newer', () => {
    const { directory, file } = collectFolder('2026-11-18', MIN_COLLECTED_FORWARD_ROWS - 1);
    folders.push(directory);
    const records = trainingRecords({ collected: readCollectedHomes(file) }).records;
    const forward = forwardTestOf(records, 'apartment');
    expect(forward.source).toBe(FORWARD_TEST_SOURCE);
    const fits = fittedBeforeForwardTest(forward.records, forward.source);
    const collectedRows = toDataset(records.filter((r) => r.source === 'uybor_collected')).rows;
    expect(collectedRows.length).toBe(MIN_COLLECTED_FORWARD_ROWS - 1);
    expect(collectedRows.some(fits)).toBe(false);
  });
});
