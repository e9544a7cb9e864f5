/**
 * What the location subgraph serves from, loaded once at start: the location index, the district
 * and mahalla catalogue, the geocoder, and the views of scores (with the provenance of the layers).
 */
import { LocationIndex } from '../../models/location';
import { DEFAULT_ARTIFACT_PATH, readArtifact } from '../../models/location';
import { geocode, type GeocodeResult } from '../../models/location/geocode';
import { PlaceCatalogue } from './places';
import { LocationIndexViews, type LayerSource } from './views';

export interface LocationServices {
  index: LocationIndex;
  places: PlaceCatalogue;
  /** Scores as LocationIndexResult views. */
  views: LocationIndexViews;
  /** @throws UnresolvableAddressError */
  geocode(address: string): GeocodeResult;
}

/** The listings layer's id in the index's component bases. */
const LISTINGS_LAYER = 'listings';

export function loadLocationServices(artifactPath: string = DEFAULT_ARTIFACT_PATH): LocationServices {
  const artifact = readArtifact(artifactPath);
  const layerSources = new Map<string, LayerSource>(artifact.layers.map((l) => [l.id, { file: l.file, licence: l.licence, features: l.features }]));
  const listings = Object.values(artifact.listings.records).reduce((sum, n) => sum + (n ?? 0), 0);
  layerSources.set(LISTINGS_LAYER, { file: null, licence: artifact.listings.licence, features: listings });
  const places = PlaceCatalogue.load();
  return { index: LocationIndex.fromArtifact(artifact), places, views: new LocationIndexViews(places, layerSources), geocode };
}
