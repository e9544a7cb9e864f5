/**
 * Which data backs each subindex, per district: coverage depends on the layers and on where a place
 * is (a layer complete only in Mirabad is complete there and absent elsewhere), not on the exact
 * point, so it is worked out once per district at load and shared by every score there.
 */
import { DISTRICT_IDS, type DistrictId } from '../vocabulary';
import type { LayerProvenance, LayersArtifact } from './artifact';
import type { Category } from './categories';
import { LOCATION_PARAMETERS, SUBINDEXES, type ComponentParameters, type SubindexId } from './parameters';
import { compositeWeights, type CompositeWeights } from './scoring';
import type { ComponentBasis, Coverage, LayerBasis, SubindexScore } from './types';

export type SubindexBasis = Omit<SubindexScore, 'score'>;

export interface DistrictBasis {
  subindexes: Readonly<Record<SubindexId, SubindexBasis>>;
  composite: CompositeWeights & { complete: boolean };
}

const RANK: Record<Coverage, number> = { none: 0, partial: 1, full: 2 };

function layerCoverageIn(layer: Pick<LayerBasis, 'coverage' | 'completeIn'>, district: DistrictId): Coverage {
  if (layer.coverage === 'city') return 'full';
  if (layer.completeIn === undefined) return 'partial';
  return layer.completeIn.includes(district) ? 'full' : 'none';
}

function layersOf(category: Category, layers: readonly LayerProvenance[]): LayerBasis[] {
  return layers
    .filter((layer) => (layer.points[category] ?? 0) > 0)
    .map((layer) => ({
      layer: layer.id,
      features: layer.points[category]!,
      coverage: layer.coverage,
      ...(layer.completeIn === undefined ? {} : { completeIn: layer.completeIn }),
      note: layer.note,
    }));
}

function componentBasis(component: ComponentParameters, artifact: LayersArtifact, district: DistrictId): ComponentBasis {
  const { required } = component;
  if (component.kind === 'centre') return { feature: 'city_centre', required, used: true, coverage: 'full', layers: [] };
  const layers: LayerBasis[] = component.kind === 'listings'
    ? [{
      layer: 'listings',
      features: Object.values(artifact.listings.records).reduce((sum, n) => sum + (n ?? 0), 0),
      coverage: artifact.listings.coverage,
      note: artifact.listings.note,
    }]
    : layersOf(component.category, artifact.layers);
  const coverage = layers.map((layer) => layerCoverageIn(layer, district)).reduce<Coverage>((best, c) => (RANK[c] > RANK[best] ? c : best), 'none');
  const feature = component.kind === 'listings' ? 'listings' : component.category;
  return { feature, required, used: required || layers.length > 0, coverage, layers };
}

/** 'none' when no used component has data here, 'full' when all have complete data, else 'partial'. */
function subindexCoverage(components: readonly ComponentBasis[]): Coverage {
  const used = components.filter((c) => c.used);
  if (used.every((c) => c.coverage === 'none')) return 'none';
  return used.every((c) => c.coverage === 'full') ? 'full' : 'partial';
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

function districtBasis(artifact: LayersArtifact, district: DistrictId): DistrictBasis {
  const subindexes = Object.fromEntries(SUBINDEXES.map((id) => {
    const components = LOCATION_PARAMETERS[id].components.map((c) => componentBasis(c, artifact, district));
    const coverage = subindexCoverage(components);
    const basis: SubindexBasis = { coverage, complete: coverage === 'full', components };
    return [id, basis];
  })) as Record<SubindexId, SubindexBasis>;
  const available = new Set(SUBINDEXES.filter((id) => subindexes[id].coverage !== 'none'));
  const complete = SUBINDEXES.every((id) => subindexes[id].complete);
  return { subindexes, composite: { ...compositeWeights(available), complete } };
}

/** The basis of every subindex in every district, frozen: shared by all the scores returned there. */
export function basisByDistrict(artifact: LayersArtifact): Readonly<Record<DistrictId, DistrictBasis>> {
  return deepFreeze(Object.fromEntries(DISTRICT_IDS.map((district) => [district, districtBasis(artifact, district)])) as Record<DistrictId, DistrictBasis>);
}
