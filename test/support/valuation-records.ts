/** A valuation record as the stores keep one, for the record store suites (test/valuation-records/). */
import { newRecordId, type ValuationRecord } from '../../subgraphs/common/valuation-records';

export const DAY = 86_400_000;
export const at = (iso: string) => Date.parse(iso);

/** A home record made at `made` (ms), kept a year, with nested input and valuation to round-trip. */
export function record(made: number, over: Partial<ValuationRecord> = {}): ValuationRecord {
  return {
    id: newRecordId(made),
    kind: 'home',
    createdAt: new Date(made).toISOString(),
    keepUntil: new Date(made + 365 * DAY).toISOString().slice(0, 10),
    requestId: 'req-1',
    input: { district: 'Chilanzar', area: 65, rooms: 3, nested: { list: [1, 'two', null] } },
    valuation: { estimate: 78_500, interval: { low: 71_000, high: 86_500, coverage: 0.9 }, modelVersion: '2026.11.14' },
    ...over,
  };
}
