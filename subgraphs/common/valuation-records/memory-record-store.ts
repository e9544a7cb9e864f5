/** Records in this process's memory: the tests' store (and a process that keeps nothing across restarts). */
import { RecordIndex } from './record-index';
import type { RecordQuery, ValuationRecord, ValuationRecordStore } from './types';

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

  async ids(org: string, query?: Pick<RecordQuery, 'since' | 'until'>): Promise<string[]> {
    return this.index.ids(org, query);
  }

  async prune(today: string): Promise<number> {
    return this.index.dropExpired(today);
  }

  async close(): Promise<void> {}
}
