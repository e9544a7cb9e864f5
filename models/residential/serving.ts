/**
 * The residential model in service, swapped without a restart when a new version is promoted
 * (models/ensemble/serving.ts).
 */
import { HotSwappedModel, type HotSwapOptions } from '../ensemble/serving';
import { RESIDENTIAL_DIR } from './manifest';
import type { HomeRequest } from './request';
import { ResidentialModelSet } from './runtime';
import type { DistrictId, Market } from '../vocabulary/codes';
import type { HomeValue, MarketIndexSeries, ResidentialModelSummary, ResidentialRuntime } from './valuation';

export interface ServingOptions extends HotSwapOptions {
  root?: string;
}

export class ResidentialModelService implements ResidentialRuntime {
  private constructor(private readonly served: HotSwappedModel<ResidentialModelSet>) {}

  static async start(options: ServingOptions = {}): Promise<ResidentialModelService> {
    const root = options.root ?? RESIDENTIAL_DIR;
    const served = await HotSwappedModel.start('residential', root, (version, dir) => ResidentialModelSet.load(version, dir), options);
    if (!served) throw new Error(`no residential model is promoted in ${root}: run \`npm run train\``);
    return new ResidentialModelService(served);
  }

  get version(): string {
    return this.served.current.version;
  }

  value(requests: readonly HomeRequest[]): Promise<HomeValue[]> {
    return this.served.use((set) => set.value(requests));
  }

  summary(): ResidentialModelSummary {
    return this.served.current.summary();
  }

  marketIndex(district: DistrictId, market: Market | null): MarketIndexSeries {
    return this.served.current.marketIndex(district, market);
  }

  reload(): Promise<void> {
    return this.served.reload();
  }

  close(): Promise<void> {
    return this.served.close();
  }
}
