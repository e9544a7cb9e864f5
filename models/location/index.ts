/**
 * The location index: any coordinate in Tashkent → nine absolute 0–100 subindexes and a composite,
 * each saying which layers back it. Built once from the committed artifact; scoring is in memory.
 */
import type { DistrictId } from '../vocabulary';
import { DEFAULT_ARTIFACT_PATH, readArtifact, type ArtifactPoint, type LayerProvenance, type LayersArtifact, type ListingPoint } from './artifact';
import type { Category } from './categories';
import { basisByDistrict, type DistrictBasis } from './coverage';
import { DistrictLocator } from './districts';
import { OutsideTashkentError } from './errors';
import { CITY_CENTRE, LOCATION_PARAMETERS, SUBINDEXES, type ComponentParameters, type SubindexId } from './parameters';
import { compositeScore, decay, rankedCredit, subindexScore } from './scoring';
import { metresBetween, PointIndex } from './spatial';
import type { LocationScore, SubindexScore } from './types';

export { OutsideTashkentError } from './errors';
export { DEFAULT_ARTIFACT_PATH, readArtifact, type LayersArtifact, type LayerProvenance } from './artifact';
export { CITY_CENTRE, LOCATION_PARAMETERS, SUBINDEXES, type SubindexId } from './parameters';
export type { Category } from './categories';
export type * from './types';

/** Credit of one component at a point, before the subindex's saturation. */
type Credit = (lon: number, lat: number) => number;

const noCredit: Credit = () => 0;

function componentCredit(
  component: ComponentParameters,
  indexes: ReadonlyMap<Category, PointIndex<ArtifactPoint>>,
  listings: PointIndex<ListingPoint>,
): Credit {
  const { dFull, dZero } = component;
  switch (component.kind) {
    case 'centre':
      return (lon, lat) => component.weight * decay(metresBetween(lon, lat, CITY_CENTRE.lon, CITY_CENTRE.lat), dFull, dZero);
    case 'listings':
      return (lon, lat) => {
        let credit = 0;
        listings.forEachWithin(lon, lat, dZero, ([, , count], metres) => {
          credit += count * component.perListing * decay(metres, dFull, dZero);
        });
        return credit;
      };
    case 'nearest': {
      const index = indexes.get(component.category);
      if (index === undefined) return noCredit;
      return (lon, lat) => rankedCredit(index.nearestMetres(lon, lat, component.rankWeights.length, dZero), component);
    }
  }
}

export class LocationIndex {
  private readonly locator: DistrictLocator;
  private readonly basis: Readonly<Record<DistrictId, DistrictBasis>>;
  private readonly credits: Readonly<Record<SubindexId, readonly Credit[]>>;

  private constructor(private readonly artifact: LayersArtifact) {
    this.locator = new DistrictLocator(artifact.districts.districts);
    this.basis = basisByDistrict(artifact);
    const indexes = new Map<Category, PointIndex<ArtifactPoint>>(
      Object.entries(artifact.points).map(([category, points]) => [category as Category, new PointIndex(points)]),
    );
    const listings = new PointIndex(artifact.listings.points);
    const creditOf = (component: ComponentParameters) => componentCredit(component, indexes, listings);
    this.credits = Object.fromEntries(SUBINDEXES.map((id) => [id, LOCATION_PARAMETERS[id].components.map(creditOf)])) as Record<SubindexId, Credit[]>;
  }

  /** Reads the artifact (default: models/artifacts/location/layers.json) and builds the spatial indexes. */
  static load(artifactPath: string = DEFAULT_ARTIFACT_PATH): LocationIndex {
    return new LocationIndex(readArtifact(artifactPath));
  }

  static fromArtifact(artifact: LayersArtifact): LocationIndex {
    return new LocationIndex(artifact);
  }

  /** Where every layer came from: file, licence, feature counts, coverage. */
  get layers(): readonly LayerProvenance[] {
    return this.artifact.layers;
  }

  /** The district whose polygon holds the point; null outside the city. */
  districtOf(lat: number, lon: number): DistrictId | null {
    return this.locator.districtOf(lat, lon);
  }

  /** @throws OutsideTashkentError when no district polygon holds the point. */
  score(lat: number, lon: number): LocationScore {
    return this.scoreAt(lat, lon, undefined);
  }

  /** @throws OutsideTashkentError (with the point's position) at the first point outside the city. */
  scoreMany(points: readonly { lat: number; lon: number }[]): LocationScore[] {
    return points.map(({ lat, lon }, index) => this.scoreAt(lat, lon, index));
  }

  private scoreAt(lat: number, lon: number, index: number | undefined): LocationScore {
    const district = this.locator.districtOf(lat, lon);
    if (district === null) throw new OutsideTashkentError(lat, lon, index, this.locator.districtOf(lon, lat) !== null);
    const basis = this.basis[district];
    const subindexes = {} as Record<SubindexId, SubindexScore>;
    const scores = {} as Record<SubindexId, number | null>;
    for (const id of SUBINDEXES) {
      const { coverage, complete, components } = basis.subindexes[id];
      let score: number | null = null;
      if (coverage !== 'none') {
        let credit = 0;
        for (const creditAt of this.credits[id]) credit += creditAt(lon, lat);
        score = subindexScore(credit, LOCATION_PARAMETERS[id].saturation);
      }
      scores[id] = score;
      subindexes[id] = { score, coverage, complete, components };
    }
    const { weights, missing, renormalised, complete } = basis.composite;
    return { lat, lon, district, composite: { score: compositeScore(scores, weights), weights, renormalised, missing, complete }, subindexes };
  }
}
