/** Records in this process's memory: the tests' store (and a process that keeps nothing across restarts). */
import { RecordIndex } from './record-index';
import { SampleDraw } from './record-sample';
import type { RecordQuery, RecordSample, ValuationRecord, ValuationRecordStore } from './types';

export class MemoryRecordStore implements ValuationRecordStore {
  private readonly index = new RecordIndex<ValuationRecord>();

  async append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    for (const record of records) this.index.add(org, record.id, record);
  }

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    return this.index.get(org, id) ?? null;
  }

  async list(org: string, query?: RecordQuery): Promise<ValuationRecord[]> {
    return this.index.ids(org, query).map((id) => this.index.get(org, id)!);
  }

  async sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample> {
    const ids = this.index.ids(org, { since: period.since, until: period.until });
    const draw = new SampleDraw(seed, n);
    for (const id of ids) draw.offer(id);
    return { population: ids.length, ids: draw.ids() };
  }

  async prune(today: string): Promise<number> {
    return this.index.dropExpired(today);
  }

  async close(): Promise<void> {}
}
