/** What the location index returns: scores, and for each the data that backs it. */
import type { DistrictId } from '../vocabulary';
import type { LayerCoverage } from './catalogue';
import type { Category } from './categories';
import type { SubindexId } from './parameters';

/** 'full': every layer the score needs covers this place; 'partial': some are samples or missing; 'none': no data at all. */
export type Coverage = 'full' | 'partial' | 'none';

/** One layer feeding a component, as the artifact records it. */
export interface LayerBasis {
  layer: string;
  /** Features of this component's category in the layer. */
  features: number;
  coverage: LayerCoverage;
  completeIn?: readonly DistrictId[];
  note: string;
}

export interface ComponentBasis {
  feature: Category | 'city_centre' | 'listings';
  required: boolean;
  /** false: an optional component the artifact has no layer for, left out of the subindex. */
  used: boolean;
  coverage: Coverage;
  layers: readonly LayerBasis[];
}

export interface SubindexScore {
  /** 0–100 on the absolute scale of ./parameters.ts; null when no layer backs this subindex here. */
  score: number | null;
  coverage: Coverage;
  /** coverage === 'full': false whenever a layer behind the score is known to be partial or is missing. */
  complete: boolean;
  components: readonly ComponentBasis[];
}

export interface CompositeScore {
  /** Weighted mean of the subindexes that have a score; null if none has. */
  score: number | null;
  /** The weights used: ./parameters.ts compositeWeight, renormalised over the subindexes with data. */
  weights: Readonly<Record<SubindexId, number>>;
  /** true when some subindex had no data and the weights were renormalised over the rest. */
  renormalised: boolean;
  missing: readonly SubindexId[];
  /** true only when every subindex is complete. */
  complete: boolean;
}

export interface LocationScore {
  lat: number;
  lon: number;
  district: DistrictId;
  composite: CompositeScore;
  subindexes: Readonly<Record<SubindexId, SubindexScore>>;
}
