/** An observation book in memory, for tests that build a valuation subgraph's context or service by hand. */
import { HOME_HIERARCHY, VEHICLE_HIERARCHY } from '../../models/observations';
import { ObservationBook } from '../../subgraphs/common/observation-book';
import { FileObservationStore } from '../../subgraphs/common/observation-store';

export async function memoryObservationBook(kind: 'home' | 'vehicle'): Promise<ObservationBook> {
  const store = await FileObservationStore.open({ directory: null, log: () => undefined });
  return new ObservationBook({ kind, hierarchy: kind === 'home' ? HOME_HIERARCHY : VEHICLE_HIERARCHY, store });
}
