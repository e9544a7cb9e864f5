/**
 * The vehicle model in service, swapped without a restart when a new version is promoted
 * (models/ensemble/serving.ts). Null from `start` when no vehicle version is promoted yet.
 */
import { HotSwappedModel, type HotSwapOptions } from '../ensemble';
import { VEHICLE_DIR } from './manifest';
import { VehicleModelSet } from './runtime';
import type { TypicalVehicles } from './valuation';
import type { InsufficientMarketDataError, VehicleCatalogEntry, VehicleMarketIndexSeries, VehicleModelSummary, VehicleRequest, VehicleRuntime, VehicleValue } from './valuation';

export class VehicleModelService implements VehicleRuntime {
  private constructor(private readonly served: HotSwappedModel<VehicleModelSet>) {}

  static async start(root: string = VEHICLE_DIR, options: HotSwapOptions = {}): Promise<VehicleModelService | null> {
    const served = await HotSwappedModel.start('vehicle', root, (version, dir) => VehicleModelSet.load(version, dir), options);
    return served && new VehicleModelService(served);
  }

  get version(): string {
    return this.served.current.version;
  }

  value(requests: readonly VehicleRequest[]): Promise<(VehicleValue | InsufficientMarketDataError)[]> {
    return this.served.use((set) => set.value(requests));
  }

  summary(): VehicleModelSummary {
    return this.served.current.summary();
  }

  catalog(): VehicleCatalogEntry[] {
    return this.served.current.catalog();
  }

  marketIndex(): VehicleMarketIndexSeries[] {
    return this.served.current.marketIndex();
  }

  typicalVehicles(): TypicalVehicles | null {
    return this.served.current.typicalVehicles();
  }

  reload(): Promise<void> {
    return this.served.reload();
  }

  close(): Promise<void> {
    return this.served.close();
  }
}
