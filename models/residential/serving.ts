/**
 * The residential models in service: the flat model and the house model (models/house), each
 * swapped without a restart when a new version is promoted (models/ensemble/serving.ts). A request
 * goes to the model of its property type; a batch of both is answered in input order.
 */
import { HotSwappedModel, type HotSwapOptions } from '../ensemble';
import { HOUSE_DIR } from '../house/manifest';
import { HouseModelSet } from '../house/runtime';
import { InsufficientHouseDataError, type HouseRequest, type HouseValue } from '../house/valuation';
import { RESIDENTIAL_DIR } from './manifest';
import { isHouseRequest, type ApartmentRequest, type HomeRequest } from './request';
import { ResidentialModelSet } from './runtime';
import { DISTRICT_NAMES, type DistrictId, type Market } from '../vocabulary/codes';
import type { HomeValue, MarketIndexSeries, ResidentialModelSummary, ResidentialRuntime } from './valuation';
import type { ComparableListing } from './comparables';
import type { TypicalHouse } from '../house/attribution';

export interface ServingOptions extends HotSwapOptions {
  /** The flat model's version store. @default models/artifacts/residential */
  root?: string;
  /** The house model's version store. @default models/artifacts/house */
  houseRoot?: string;
}

export class ResidentialModelService implements ResidentialRuntime {
  private constructor(
    private readonly flats: HotSwappedModel<ResidentialModelSet>,
    private readonly houses: HotSwappedModel<HouseModelSet> | null,
  ) {}

  static async start(options: ServingOptions = {}): Promise<ResidentialModelService> {
    const root = options.root ?? RESIDENTIAL_DIR;
    const flats = await HotSwappedModel.start('residential', root, (version, dir) => ResidentialModelSet.load(version, dir), options);
    if (!flats) throw new Error(`no residential model is promoted in ${root}: run \`npm run train\``);
    const houses = await HotSwappedModel.start('house', options.houseRoot ?? HOUSE_DIR, (version, dir) => HouseModelSet.load(version, dir), options);
    return new ResidentialModelService(flats, houses);
  }

  get version(): string {
    return this.flats.current.version;
  }

  async value(requests: readonly HomeRequest[]): Promise<(HomeValue | InsufficientHouseDataError)[]> {
    const flatIdx: number[] = [];
    const houseIdx: number[] = [];
    requests.forEach((r, i) => (isHouseRequest(r) ? houseIdx : flatIdx).push(i));
    const [flatValues, houseValues] = await Promise.all([
      flatIdx.length ? this.flats.use((set) => set.value(flatIdx.map((i) => requests[i] as ApartmentRequest))) : [],
      houseIdx.length ? this.valueHouses(houseIdx.map((i) => requests[i] as HouseRequest)) : [],
    ]);
    const out: (HomeValue | InsufficientHouseDataError)[] = new Array(requests.length);
    flatIdx.forEach((i, k) => (out[i] = flatValues[k]));
    houseIdx.forEach((i, k) => (out[i] = houseValues[k]));
    return out;
  }

  private valueHouses(requests: HouseRequest[]): Promise<(HouseValue | InsufficientHouseDataError)[]> {
    if (!this.houses) return Promise.resolve(requests.map((r) => InsufficientHouseDataError.noModel(DISTRICT_NAMES[r.district])));
    return this.houses.use((set) => set.value(requests));
  }

  summary(): ResidentialModelSummary {
    return { ...this.flats.current.summary(), houses: this.houses?.current.summary() ?? null };
  }

  marketIndex(district: DistrictId, market: Market | null): MarketIndexSeries {
    return this.flats.current.marketIndex(district, market);
  }

  typicalHouse(district: DistrictId): TypicalHouse | null {
    return this.houses?.current.manifest.market[district]?.typical ?? null;
  }

  /** Comparable listings of a flat from the flat model in service; a house has none here ([]: house comparables are not in scope). */
  comparables(request: HomeRequest, n?: number): ComparableListing[] {
    if (isHouseRequest(request)) return [];
    return this.flats.current.comparables(request, n);
  }

  async reload(): Promise<void> {
    await Promise.all([this.flats.reload(), this.houses?.reload()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.flats.close(), this.houses?.close()]);
  }
}
