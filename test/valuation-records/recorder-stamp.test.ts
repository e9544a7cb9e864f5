/**
 * What the recorder (subgraphs/common/valuation-recorder.ts) gives back and keeps: each valuation
 * answered is exactly its record's valuation (the record is what was answered), stamped with the
 * record's id, in its place among a bulk call's errors; a call's records share their creation time;
 * the valuations it was given are left as they were; without an organisation nothing is kept.
 */
import { ApiError } from '../../schema/errors';
import { ValuationRecorder } from '../../subgraphs/common/valuation-recorder';
import { MemoryRecordStore, recordIdTime } from '../../subgraphs/common/valuation-records';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0, 123);
const item = (estimate: number) => ({ input: { request: { district: 'chilanzar', area: 60 } }, valuation: { estimate, currency: 'USD', warnings: ['w'] } });

test('each answer is its record\'s valuation with the record\'s id; errors stay in their places, unrecorded', async () => {
  const store = new MemoryRecordStore();
  const recorder = new ValuationRecorder('home', store, { clock: () => NOW });
  const given = [item(70_000), new ApiError('INVALID_PARAMETER', 'bad area', 'area'), item(80_000), item(90_000)];
  const answered = await recorder.stamp({ organisation: 'org-a', plan: 'standard', requestId: 'req-1' }, given);
  expect(answered[1]).toBe(given[1]);
  const valued = [answered[0], answered[2], answered[3]] as { estimate: number; valuationId: string }[];
  expect(valued.map((v) => v.estimate)).toEqual([70_000, 80_000, 90_000]);
  const records = await store.list('org-a');
  expect(records).toHaveLength(3);
  for (const v of valued) {
    const record = records.find((r) => r.id === v.valuationId)!;
    expect(record.valuation).toEqual(v);
    expect(JSON.stringify(record.valuation)).toBe(JSON.stringify({ estimate: v.estimate, currency: 'USD', warnings: ['w'], valuationId: record.id }));
    expect(recordIdTime(record.id)).toBe(NOW);
    expect(record).toMatchObject({ kind: 'home', createdAt: new Date(NOW).toISOString(), keepUntil: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), requestId: 'req-1' });
  }
  expect(new Set(valued.map((v) => v.valuationId)).size).toBe(3);
  // What the recorder was given is not changed.
  expect(given[0]).toEqual(item(70_000));
});

test('without an organisation: answered with a null id, nothing kept', async () => {
  const store = new MemoryRecordStore();
  const recorder = new ValuationRecorder('home', store, { clock: () => NOW });
  const [answer] = await recorder.stamp({ organisation: null, plan: null, requestId: null }, [item(70_000)]);
  expect(answer).toEqual({ estimate: 70_000, currency: 'USD', warnings: ['w'], valuationId: null });
  expect(await store.list('org-a')).toEqual([]);
});
