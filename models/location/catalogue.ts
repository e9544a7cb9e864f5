/**
 * The layers the shipped artifact is built from (data/geo, see data/README.md), and what each one
 * covers. Pure data. Coverage is a claim about completeness, made here by hand from what each export
 * is: 'city' = every such feature in the city (as complete as its source); 'partial' = a sample,
 * complete only inside `completeIn` districts when those are given.
 */
import type { DistrictId } from '../vocabulary';
import type { LayerOptions } from './layers';

export type LayerCoverage = 'city' | 'partial';

export interface LayerSpec extends LayerOptions {
  /** Relative to the project root, '/'-separated. */
  file: string;
  /** Default: the licence the file states (OpenStreetMap exports say ODbL), else 'not stated'. */
  licence?: string;
  coverage: LayerCoverage;
  /** A partial layer that is complete inside these districts (and has nothing to say outside them). */
  completeIn?: readonly DistrictId[];
  note: string;
}

const OSM = 'ODbL (OpenStreetMap contributors)';

export const SHIPPED_LAYERS: readonly LayerSpec[] = [
  {
    id: 'metro_stations', file: 'data/geo/tashkent_metro_stations.csv', category: 'metro_station',
    licence: 'none stated (data/README.md)', coverage: 'city',
    note: 'every station of the four lines, Ring Line included; stations only, no entrances',
  },
  {
    id: 'supermarkets_korzinka', file: 'data/geo/poi/supermarkets_korzinka.geojson', keep: ['grocery'],
    licence: OSM, coverage: 'partial',
    note: 'one supermarket chain (Korzinka): other chains, convenience shops and greengrocers are missing',
  },
  {
    id: 'culture_tourism', file: 'data/geo/poi/culture_tourism.geojson', keep: ['cultural_venue', 'heritage'],
    licence: OSM, coverage: 'city',
    note: 'museums, galleries, theatres, libraries, arts centres, attractions, artworks, memorials and places of worship: city-wide OSM export',
  },
  {
    id: 'fire_stations', file: 'data/geo/poi/fire_stations.geojson', keep: ['fire_station'],
    licence: OSM, coverage: 'city',
    note: 'city-wide OSM export of fire stations',
  },
  {
    id: 'cafes_mirabad', file: 'data/geo/poi/cafes_mirabad.geojson', keep: ['cafe'],
    licence: OSM, coverage: 'partial', completeIn: ['mirabad'],
    note: 'cafes in Mirabad district only: no cafes elsewhere, no restaurants anywhere',
  },
  {
    id: 'landmarks_mixed', file: 'data/geo/poi/landmarks_mixed.csv',
    licence: 'none stated (hand-collected with Google Maps links)', coverage: 'partial',
    note: 'a hand-picked sample of well-known places: universities (no schools or kindergartens), large hospitals (no polyclinics or pharmacies), '
      + 'malls and hypermarkets, bazaars, 7 parks, 3 business centres; stations and the airport are not scored',
  },
  {
    id: 'transit_stops_osm', file: 'data/geo/poi/transit_stops_osm.csv', keep: ['surface_stop'],
    licence: OSM, coverage: 'city',
    note: 'every OpenStreetMap bus stop (highway=bus_stop nodes, many unnamed) over a box holding the whole city, some just outside it; '
      + 'stops on both sides of a street are two stops; its 49 metro stations are skipped, the metro_stations layer has them',
  },
];

export const SHIPPED_DISTRICTS = {
  file: 'data/geo/tashkent_districts.geojson',
  licence: 'ODbL (OpenStreetMap contributors) / GPL-3.0 compilation (data/README.md)',
};

/** The geocoded listings behind the market-liquidity subindex. */
export const LISTINGS_LAYER = {
  licence: 'none stated: internal use only, do not republish (data/README.md)',
  coverage: 'city' as LayerCoverage,
  note: 'listings with coordinates from ingestListings() (the olx.uz February 2021 scrape, geocoded): a city-wide sample of one moment; '
    + 'geocodes are street- or mahalla-level, so many listings share a point; only coordinates and counts are kept',
};
