/**
 * The libraries' answers in the shape of the GraphQL types: a LocationScore as a
 * LocationIndexResult (subindexes as a list with names and weights, each data layer once), a
 * geocoder answer as a GeocodeResult. Districts and mahallas become catalogue records, which the
 * District and Mahalla field resolvers take from there.
 */
import { SUBINDEXES, type ComponentBasis, type LocationScore, type SubindexId } from '../../models/location';
import type { GeocodeResult as GeocoderAnswer } from '../../models/location/geocode';
import type { DistrictRecord, MahallaRecord, PlaceCatalogue } from './places';
import {
  GeocodePrecision, LayerCoverage, LocationCoverage,
  type ComponentLayer, type GeocodeCandidate, type LocationDataLayer, type Subindex, type SubindexComponent,
} from './types';

/** Where a layer behind the scores comes from. */
export interface LayerSource {
  file: string | null;
  licence: string;
  /** Features in the whole layer (a component counts only those of its category). */
  features: number;
}

export const SUBINDEX_NAMES: Readonly<Record<SubindexId, string>> = {
  transport: 'Transport',
  education: 'Education',
  healthcare: 'Healthcare',
  daily_needs: 'Daily needs',
  green: 'Green space',
  culture: 'Culture',
  safety: 'Safety',
  centrality: 'Centrality',
  market_liquidity: 'Market liquidity',
};

/** A LocationIndexResult as resolvers return it: District fields resolve from the record. */
export interface LocationIndexView {
  lat: number;
  lon: number;
  district: DistrictRecord;
  composite: { score: number | null; complete: boolean; renormalised: boolean; missing: string[] };
  subindexes: Subindex[];
  dataUsed: LocationDataLayer[];
}

/**
 * Builds LocationIndexResult views. The index shares its component bases (what data backs each
 * component, which depends on the district, not the point) between scores, so their views are
 * built once per basis and shared too: a bulk of 10,000 points builds only the scores anew.
 * Views are read, never changed.
 */
export class LocationIndexViews {
  private readonly componentViews = new WeakMap<readonly ComponentBasis[], SubindexComponent[]>();
  private readonly layerViews = new Map<string, LocationDataLayer>();

  constructor(
    private readonly places: PlaceCatalogue,
    private readonly layerSources: ReadonlyMap<string, LayerSource>,
  ) {}

  of(score: LocationScore): LocationIndexView {
    const dataUsed = new Map<string, LocationDataLayer>();
    const subindexes = SUBINDEXES.map((id): Subindex => {
      const s = score.subindexes[id];
      const components = this.componentsView(s.components);
      for (const component of components) {
        for (const { layer } of component.layers) if (!dataUsed.has(layer)) dataUsed.set(layer, this.layerView(layer, s.components));
      }
      return { id, name: SUBINDEX_NAMES[id], score: s.score, weight: score.composite.weights[id] ?? 0, coverage: s.coverage as LocationCoverage, complete: s.complete, components };
    });
    const { score: composite, complete, renormalised, missing } = score.composite;
    return {
      lat: score.lat,
      lon: score.lon,
      district: this.places.district(score.district),
      composite: { score: composite, complete, renormalised, missing: [...missing] },
      subindexes,
      dataUsed: [...dataUsed.values()],
    };
  }

  private componentsView(components: readonly ComponentBasis[]): SubindexComponent[] {
    let view = this.componentViews.get(components);
    if (view === undefined) {
      view = components.map((c) => ({
        feature: c.feature,
        required: c.required,
        used: c.used,
        coverage: c.coverage as LocationCoverage,
        layers: c.layers.map((l): ComponentLayer => ({ layer: l.layer, features: l.features, coverage: l.coverage as LayerCoverage, completeIn: l.completeIn ? [...l.completeIn] : null, note: l.note })),
      }));
      this.componentViews.set(components, view);
    }
    return view;
  }

  /** The layer as a whole (all its features, its source and licence), from the first component basis naming it. */
  private layerView(id: string, components: readonly ComponentBasis[]): LocationDataLayer {
    let view = this.layerViews.get(id);
    if (view === undefined) {
      const basis = components.flatMap((c) => c.layers).find((l) => l.layer === id)!;
      const source = this.layerSources.get(id);
      view = {
        layer: id,
        features: source?.features ?? basis.features,
        coverage: basis.coverage as LayerCoverage,
        completeIn: basis.completeIn ? [...basis.completeIn] : null,
        file: source?.file ?? null,
        licence: source?.licence ?? null,
        note: basis.note,
      };
      this.layerViews.set(id, view);
    }
    return view;
  }
}

/** A GeocodeResult as resolvers return it (its locationIndex is a field resolver on lat/lon). */
export interface GeocodeView {
  address: string;
  lat: number;
  lon: number;
  precision: GeocodePrecision;
  confidence: number;
  matched: { district: DistrictRecord; quarter: string | null; street: string | null; mahalla: MahallaRecord | null };
  candidates: (Omit<GeocodeCandidate, 'district'> & { district: DistrictRecord })[];
}

export function geocodeView(address: string, answer: GeocoderAnswer, places: PlaceCatalogue): GeocodeView {
  const { matched } = answer;
  return {
    address,
    lat: answer.lat,
    lon: answer.lon,
    precision: answer.precision as GeocodePrecision,
    confidence: answer.confidence,
    matched: {
      district: places.district(matched.district),
      quarter: matched.quarter ?? null,
      street: matched.street ?? null,
      mahalla: matched.mahalla === undefined ? null : places.mahallaNamed(matched.mahalla, matched.district),
    },
    candidates: (answer.candidates ?? []).map((c) => ({ ...c, precision: c.precision as GeocodePrecision, district: places.district(c.district) })),
  };
}
