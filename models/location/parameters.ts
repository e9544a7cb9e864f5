/**
 * Every scoring parameter of the location index, in one table, with the reason for each.
 *
 * Scores are absolute: thresholds are metres and counts fixed here, not percentiles of the city, so a
 * score means the same next year. A feature gets full credit up to `dFull` metres (great-circle),
 * none beyond `dZero`, and a smooth cosine fall in between (./scoring.ts `decay`). For several
 * features of one category, the k-th nearest gets `rankWeights[k-1]` (diminishing returns: a second
 * supermarket adds less than the first). A subindex is 100 × min(1, Σ component credit / saturation).
 *
 * Distances for everyday services follow the Soviet planning norm the city's housing estates were
 * laid out to (SNiP 2.07.01-89, table 5 "service radii"; current edition SP 42.13330): kindergartens
 * 300 m, schools 500 m, polyclinics 1,000 m, pharmacies and local shops 500 m.
 *
 * `required`: the subindex is not complete without a layer for this component. A component that is
 * not required only counts where the artifact has a layer for it (bus stops, police): its absence
 * leaves the subindex complete; a layer that exists but is partial still makes it partial.
 */
import type { Category } from './categories';

export const SUBINDEXES = [
  'transport', 'education', 'healthcare', 'daily_needs', 'green', 'culture', 'safety', 'centrality', 'market_liquidity',
] as const;
export type SubindexId = (typeof SUBINDEXES)[number];

interface Reach {
  /** Full credit up to this distance, metres. */
  dFull: number;
  /** No credit from this distance on, metres. */
  dZero: number;
  required: boolean;
  why: string;
}

/** Credit from the nearest features of a category. */
export interface NearestComponent extends Reach {
  kind: 'nearest';
  category: Category;
  /** Weight of the 1st, 2nd, … nearest feature; features beyond the list do not count. */
  rankWeights: readonly number[];
}

/** Credit for being near one fixed point (the city centre). */
export interface CentreComponent extends Reach {
  kind: 'centre';
  weight: number;
}

/** Credit per geocoded listing nearby, each weighted by its distance decay. */
export interface ListingsComponent extends Reach {
  kind: 'listings';
  perListing: number;
}

export type ComponentParameters = NearestComponent | CentreComponent | ListingsComponent;

export interface SubindexParameters {
  /** Weight in the composite; the nine sum to 1. */
  compositeWeight: number;
  /** Component credit that scores 100. */
  saturation: number;
  components: readonly ComponentParameters[];
  why: string;
}

/** Where the main avenues meet, between the old and the new city, over the Amir Temur xiyoboni / Yunus Rajabiy metro interchange. */
export const CITY_CENTRE = { name: 'Amir Timur Square', lat: 41.311151, lon: 69.279737 } as const;

export const LOCATION_PARAMETERS: Readonly<Record<SubindexId, SubindexParameters>> = {
  transport: {
    compositeWeight: 0.18,
    saturation: 1.2,
    why: 'One station within 500 m scores 83; an interchange or a second station within reach reaches 100.',
    components: [
      {
        kind: 'nearest', category: 'metro_station', dFull: 500, dZero: 2000, rankWeights: [1, 0.3, 0.1], required: true,
        why: '500 m is a 6-minute walk, the usual rail-station catchment; beyond 2 km (25 minutes) people ride a bus to the metro. '
          + 'A second station adds another line or direction, a third little more.',
      },
      {
        kind: 'nearest', category: 'surface_stop', dFull: 150, dZero: 600, rankWeights: [0.3, 0.1], required: false,
        why: 'Stops stand 300–500 m apart along a route, so one is normally within 150 m in the built-up city; '
          + 'a bus or tram stop is worth under a third of a metro station (slower, less regular).',
      },
    ],
  },
  education: {
    compositeWeight: 0.12,
    saturation: 1.6,
    why: 'A school and a kindergarten within the planning norms score 100 (1 + 0.6).',
    components: [
      {
        kind: 'nearest', category: 'school', dFull: 500, dZero: 1500, rankWeights: [1, 0.3], required: true,
        why: 'Planning norm: a school within 500 m; past 1.5 km children need transport. A second school gives a choice.',
      },
      {
        kind: 'nearest', category: 'kindergarten', dFull: 300, dZero: 1000, rankWeights: [0.6, 0.2], required: true,
        why: 'Planning norm: a kindergarten within 300 m (walked twice a day with small children).',
      },
      {
        kind: 'nearest', category: 'higher_education', dFull: 1500, dZero: 5000, rankWeights: [0.3, 0.1], required: false,
        why: 'Universities and lyceums draw students and staff renting nearby; a modest share, reached by metro or bus.',
      },
    ],
  },
  healthcare: {
    compositeWeight: 0.10,
    saturation: 1.8,
    why: 'A polyclinic, a pharmacy and a hospital in reach (1 + 0.5 + 0.6 = 2.1) saturate with room to spare.',
    components: [
      {
        kind: 'nearest', category: 'clinic', dFull: 1000, dZero: 3000, rankWeights: [1, 0.3], required: true,
        why: 'Planning norm: a polyclinic within 1,000 m; primary care is where residents go most.',
      },
      {
        kind: 'nearest', category: 'pharmacy', dFull: 500, dZero: 1500, rankWeights: [0.5, 0.2], required: true,
        why: 'Planning norm: a pharmacy within 500 m.',
      },
      {
        kind: 'nearest', category: 'hospital', dFull: 2000, dZero: 6000, rankWeights: [0.6, 0.2], required: true,
        why: 'Hospitals are reached by ambulance or car: distance matters over several kilometres, not metres.',
      },
    ],
  },
  daily_needs: {
    compositeWeight: 0.14,
    saturation: 1.8,
    why: 'Two supermarkets and a bazaar in walking reach score 100 (1 + 0.4 + 0.6 = 2.0).',
    components: [
      {
        kind: 'nearest', category: 'grocery', dFull: 500, dZero: 1500, rankWeights: [1, 0.4, 0.2], required: true,
        why: 'Planning norm: local shops within 500 m; groceries are carried home on foot.',
      },
      {
        kind: 'nearest', category: 'marketplace', dFull: 1000, dZero: 3000, rankWeights: [0.6, 0.2], required: true,
        why: 'Tashkent households buy fresh food at the bazaar weekly, often by bus: a wider reach than the corner shop.',
      },
      {
        kind: 'nearest', category: 'shopping_centre', dFull: 1000, dZero: 4000, rankWeights: [0.3, 0.1], required: false,
        why: 'Malls and hypermarkets are occasional trips; a small share.',
      },
    ],
  },
  green: {
    compositeWeight: 0.08,
    saturation: 1.2,
    why: 'One park within 400 m scores 83; a second in reach reaches 100.',
    components: [
      {
        kind: 'nearest', category: 'park', dFull: 400, dZero: 2000, rankWeights: [1, 0.4, 0.2], required: true,
        why: 'WHO Europe asks for public green space within 300 m in a straight line (about 400 m walked); a large park still draws from 2 km.',
      },
      {
        kind: 'nearest', category: 'playground', dFull: 200, dZero: 600, rankWeights: [0.3, 0.1], required: false,
        why: 'Courtyard playgrounds serve the blocks around them only.',
      },
    ],
  },
  culture: {
    compositeWeight: 0.06,
    saturation: 2.5,
    why: 'Three venues nearby, monuments and a few cafes (1.75 + 0.6 + 1.0 = 3.35) saturate; venues alone reach 70.',
    components: [
      {
        kind: 'nearest', category: 'cultural_venue', dFull: 1000, dZero: 4000, rankWeights: [1, 0.5, 0.25], required: true,
        why: 'Museums, theatres, cinemas and libraries are visited monthly, by metro as often as on foot.',
      },
      {
        kind: 'nearest', category: 'heritage', dFull: 500, dZero: 2000, rankWeights: [0.3, 0.2, 0.1], required: false,
        why: 'Monuments, memorials and historic sights make a pleasant neighbourhood but count for less than a venue.',
      },
      {
        kind: 'nearest', category: 'cafe', dFull: 300, dZero: 1000, rankWeights: [0.4, 0.3, 0.2, 0.1], required: true,
        why: 'Several cafes within a short walk make a lively street (Walk Score counts coffee shops the same way).',
      },
      {
        kind: 'nearest', category: 'restaurant', dFull: 400, dZero: 1200, rankWeights: [0.4, 0.2, 0.1], required: false,
        why: 'As cafes, with a slightly longer walk for a meal out.',
      },
    ],
  },
  safety: {
    compositeWeight: 0.07,
    saturation: 1.3,
    why: 'A fire station within 2 km scores 77; a second one or emergency care in reach reaches 100.',
    components: [
      {
        kind: 'nearest', category: 'fire_station', dFull: 2000, dZero: 6000, rankWeights: [1, 0.3], required: true,
        why: 'Russian fire-safety law (123-FZ, art. 76), typical of CIS norms, asks for arrival within 10 minutes in cities, '
          + 'about 3 km of urban driving: full credit to 2 km, none past 6 km.',
      },
      {
        kind: 'nearest', category: 'police', dFull: 1000, dZero: 3000, rankWeights: [0.5, 0.2], required: false,
        why: 'A police station nearby shortens response and deters crime locally.',
      },
      {
        kind: 'nearest', category: 'hospital', dFull: 2000, dZero: 6000, rankWeights: [0.5], required: false,
        why: 'Emergency care: the nearest hospital with an admissions department, reached by ambulance.',
      },
    ],
  },
  centrality: {
    compositeWeight: 0.13,
    saturation: 1.2,
    why: 'The centre alone scores 83; near the centre and the business hubs, 100.',
    components: [
      {
        kind: 'centre', dFull: 1500, dZero: 12000, weight: 1, required: true,
        why: 'Within 1.5 km of Amir Timur Square is the centre itself; 12 km is about the distance to the city edge (Sergeli, Bektemir), '
          + 'so credit falls steadily across the whole city.',
      },
      {
        kind: 'nearest', category: 'business_centre', dFull: 1000, dZero: 5000, rankWeights: [0.5, 0.2, 0.1], required: false,
        why: 'Office hubs are where jobs are: a short commute adds value beyond the single centre point.',
      },
    ],
  },
  market_liquidity: {
    compositeWeight: 0.12,
    saturation: 150,
    why: '150 listings within about 1 km in the February 2021 olx.uz scrape score 100: an active resale market (the typical listing then '
      + 'had about 190 others within reach) where a flat sells without a deep discount; 30 (score 20) still give a comparables valuation '
      + 'material; under 10 (score below 7) a forced sale would be slow. Counts are in that scrape, a sample of the market: '
      + 'a larger listing snapshot needs this threshold scaled with it.',
    components: [
      {
        kind: 'listings', dFull: 750, dZero: 1250, perListing: 1, required: true,
        why: 'Listings within about 1 km (a soft edge from 750 to 1,250 m, so a score does not jump when one listing crosses the line).',
      },
    ],
  },
};
