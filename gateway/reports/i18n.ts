/**
 * Every word the report prints, one catalogue per language (issue 19), run by i18next (issue 35,
 * item 6): messages with placeholders ({{rate}}) and plurals (one/few/many/other, chosen by the
 * language's CLDR rules through Intl.PluralRules, so "в 21 случае" and "21 месяц" come out right).
 * English, Russian (Cyrillic) and Uzbek (Latin script: oʻ and gʻ with U+02BB MODIFIER LETTER TURNED
 * COMMA, the tutuq belgisi as in eʼlon with U+02BC MODIFIER LETTER APOSTROPHE, as the 1995 alphabet
 * writes them). The Catalogue type makes a missing key a compile error and a test checks each
 * plural has the forms its language needs, so no language falls back to another. Numbers arrive
 * already formatted (format.ts): messages only place them. content.ts reads a Dictionary, the
 * catalogue with its messages bound to i18next.
 */
import i18next, { type TFunction } from 'i18next';
import type { AttributionGroup, HouseAttributionGroup, ReportLanguage, UzsAmounts, VehicleAttribution, VehicleAttributionGroup } from './report-data';

type TypicalCarLevel = VehicleAttribution['level'];

export type SectionId =
  | 'object' | 'estimate' | 'confidence' | 'market' | 'comparables' | 'location' | 'flags' | 'model' | 'adjustment' | 'disclaimer';

export interface FlagText {
  title: string;
  explanation: string;
}

/** A message with a count: the forms CLDR names for the language (en, uz: one, other; ru: one, few, many, other). */
export type Plural = { one: string; few?: string; many?: string; other: string };
/** i18next interpolation: {{name}}. */
type Message = string;
type Months = readonly [string, string, string, string, string, string, string, string, string, string, string, string];

export interface Catalogue {
  title: string;
  preparedFor: string;
  kind: Record<'home' | 'vehicle', string>;
  ids: { valuationId: string; valuationDate: string; createdAt: string; modelVersion: string; organisation: string };
  sections: Record<SectionId, string>;
  /** Labels of the object's canonical keys; a key not here is shown as it is. */
  objectLabels: Readonly<Record<string, string>>;
  /** Canonical codes of the object's values by key (renovation: euro → …); others shown as they are. */
  objectValues: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The object's market when it was not given and the flat was valued as both: {{p}}, the probability of a new build. */
  marketNotGiven: Message;
  yes: string;
  no: string;
  estimate: {
    estimate: string;
    /** {{coverage}} */
    interval: Message;
    low: string;
    high: string;
    inUzs: string;
    /** Which rate the soʻm amounts are at and from where: {{rate}}, {{date}} (its day), {{valuationDate}}; cbu-daily-earlier: a day before the valuation date. */
    rate: Record<UzsAmounts['basis'] | 'cbu-daily-earlier', Message>;
    uzsUnknown: string;
    legend: string;
  };
  confidence: {
    level: string;
    score: string;
    /** The FSD's label: the sd of the log error the interval implies (models/ensemble/fsd.ts). */
    fsd: string;
    levels: Record<'high' | 'medium' | 'low', string>;
    meaning: Record<'high' | 'medium' | 'low', string>;
    drivers: string;
    noDrivers: string;
  };
  /** The figures behind an estimate without an attribution (vehicles, houses). */
  driverLabels: { marketLevel: string; observations: string; score: string };
  /**
   * Without an attribution, the ensemble's members under a label of their own, each with its own
   * estimate and its weight: they are the model, not what drives the estimate.
   */
  members: { heading: string; columns: { name: string; estimate: string; weight: string }; note: string };
  /** What drives a flat's estimate: its field groups against the district's typical flat. */
  attribution: {
    /** Counted by {{listings}} (the district's training listings); {{version}}: the model that valued the variants. */
    note: Plural;
    columns: { factor: string; typical: string; usd: string; share: string };
    groups: Record<AttributionGroup, string>;
    /** The place group's typical value: the district without a mahalla or point. */
    placeTypical: string;
    /** {{formatted}} counted by count. */
    rooms: Plural;
    floors: Plural;
    /** {{floor}} of {{total}}. */
    middleFloor: Message;
    /** A house's: counted by {{listings}} (the district's training houses); {{version}} as for a flat. */
    houseNote: Plural;
    houseTypical: string;
    houseGroups: Record<HouseAttributionGroup, string>;
    /** {{formatted}} sotka counted by count (fractions: the language's form for them). */
    sotka: Plural;
    utilities: { gas: string; water: string; sewerage: string };
    /** A car's: against its make and model's typical car (else its make's, else the market's). */
    vehicle: {
      /** Per level, counted by {{listings}} (the training listings the typical car is drawn from); {{version}} as for a flat. */
      note: Record<TypicalCarLevel, Plural>;
      /** The typical column's title per level. */
      typical: Record<TypicalCarLevel, string>;
      groups: Record<VehicleAttributionGroup, string>;
      /** The engine volume's unit. */
      litres: string;
    };
  };
  market: { area: string; name: string; district: string; mahalla: string; medianPerM2: string; listings: string; dataAge: string; months: Plural };
  comparables: {
    columns: { label: string; area: string; rooms: string; floor: string; period: string; price: string; priceAtDate: string; distance: string };
    note: string;
    none: string;
    /** In the distance column: the listing is in the flat's mahalla, both placed at its centre. */
    sameMahalla: string;
  };
  location: { composite: string; point: string; subindexes: Readonly<Record<string, string>>; mapCaption: string; noOutline: string; noData: string };
  flags: { none: string; known: Readonly<Record<string, FlagText>>; unknown: string };
  model: {
    version: string;
    trainedAt: string;
    headline: string;
    /** The held-out accuracy in one line, counted by {{n}}: {{medianApe}}, {{level}} (the interval's coverage), {{coverage}} (held). */
    headlineText: Plural;
    /** {{group}} */
    accuracyFor: Message;
    medianApe: string;
    intervalCoverage: string;
    n: string;
    accuracyClass: string;
    classes: Readonly<Record<string, string>>;
    noAccuracy: string;
    heldOut: string;
  };
  adjustment: { baseEstimate: string; factor: string; group: string; observations: string; explanation: string };
  /** The three statements the committee must read; interval: {{k}} of {{of}} is the interval's coverage (9 of 10), counted by k. */
  disclaimer: { asking: string; interval: Plural; review: string };
  units: { usd: string; uzs: string; km: string };
  /** A day in words: {{day}}, {{month}} (of monthNames), {{year}}. */
  date: Message;
  monthNames: Months;
  localTime: string;
  /** {{n}} of {{total}}. */
  page: Message;
}

/** The catalogue with its messages bound: what content.ts and format.ts read. */
export interface Dictionary extends Omit<Catalogue, 'marketNotGiven' | 'estimate' | 'market' | 'model' | 'disclaimer' | 'date' | 'page' | 'attribution'> {
  marketNotGiven: (newBuildProbability: string) => string;
  estimate: Omit<Catalogue['estimate'], 'interval' | 'rate'> & {
    interval: (coverage: string) => string;
    rate: Record<UzsAmounts['basis'], (rate: string, date: string, valuationDate: string) => string>;
  };
  market: Omit<Catalogue['market'], 'months'> & { months: (n: number, formatted: string) => string };
  model: Omit<Catalogue['model'], 'accuracyFor' | 'headlineText'> & {
    accuracyFor: (group: string) => string;
    headlineText: (n: number, values: { n: string; medianApe: string; level: string; coverage: string }) => string;
  };
  attribution: Omit<Catalogue['attribution'], 'note' | 'rooms' | 'floors' | 'middleFloor' | 'houseNote' | 'sotka' | 'vehicle'> & {
    vehicle: Omit<Catalogue['attribution']['vehicle'], 'note'> & { note: Record<TypicalCarLevel, (listings: number, values: { listings: string; version: string }) => string> };
    note: (listings: number, values: { listings: string; version: string }) => string;
    houseNote: (listings: number, values: { listings: string; version: string }) => string;
    sotka: (n: number, formatted: string) => string;
    rooms: (n: number, formatted: string) => string;
    floors: (n: number, formatted: string) => string;
    middleFloor: (floor: string, total: string) => string;
  };
  disclaimer: (k: string, of: string) => string[];
  /** A day in words: month is 0–11. */
  date: (day: number, month: number, year: number) => string;
  page: (n: number, total: number) => string;
}

const EN_MONTHS: Months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const RU_MONTHS: Months = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
const UZ_MONTHS: Months = ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avgust', 'sentabr', 'oktabr', 'noyabr', 'dekabr'];

const EN: Catalogue = {
  title: 'Collateral valuation report',
  preparedFor: 'For the credit committee',
  kind: { home: 'Residential property', vehicle: 'Vehicle' },
  ids: { valuationId: 'Valuation ID', valuationDate: 'Valuation date', createdAt: 'Made at', modelVersion: 'Model version', organisation: 'Requesting organisation' },
  sections: {
    object: 'The object',
    estimate: 'Estimate',
    confidence: 'Confidence and what drives the estimate',
    market: 'District and mahalla market',
    comparables: 'Comparable listings',
    location: 'Location index',
    flags: 'Anomaly flags',
    model: 'Model and its held-out accuracy',
    adjustment: 'Market adjustment',
    disclaimer: 'Important',
  },
  objectLabels: {
    district: 'District', mahalla: 'Mahalla', address: 'Address', area_m2: 'Total area, m²', living_area_m2: 'Living area, m²',
    kitchen_area_m2: 'Kitchen area, m²', rooms: 'Rooms', floor: 'Floor', total_floors: 'Floors in the building',
    renovation: 'Renovation', market: 'Market', property_type: 'Property type', building_type: 'Building type',
    bathroom: 'Bathroom', year_built: 'Year built', ceiling_height_m: 'Ceiling height, m', land_area_sotka: 'Plot, sotka',
    seller_type: 'Seller', furnished: 'Furnished', balcony: 'Balcony', asking_price_usd: 'Asking price, USD',
    lat: 'Latitude', lon: 'Longitude', make: 'Make', model: 'Model', year: 'Model year', mileage_km: 'Mileage, km',
    body_type: 'Body', fuel: 'Fuel', transmission: 'Transmission', drive: 'Drive', engine_l: 'Engine, l',
    colour: 'Colour', condition: 'Condition', paint: 'Paint', region: 'Region', trim: 'Trim',
  },
  objectValues: {
    renovation: {
      euro: 'Euro renovation', designer: 'Designer renovation', good: 'Good', average: 'Average', needs_repair: 'Needs repair',
      pre_finish: 'Pre-finish (white box)', rough: 'Shell, no finish',
    },
    market: { new: 'New build', resale: 'Resale' },
    property_type: { apartment: 'Flat', house: 'House' },
    building_type: { panel: 'Panel', brick: 'Brick', monolith: 'Monolithic concrete', block: 'Block', wood: 'Wood', other: 'Other' },
    bathroom: { separate: 'Separate', combined: 'Combined', two_plus: 'Two or more' },
    seller_type: { owner: 'Owner', agency: 'Agency' },
    fuel: { petrol: 'Petrol', gas_petrol: 'Gas and petrol', diesel: 'Diesel', electric: 'Electric', hybrid: 'Hybrid' },
    transmission: { manual: 'Manual', automatic: 'Automatic', robot: 'Automated manual', cvt: 'CVT' },
    drive: { front: 'Front-wheel', rear: 'Rear-wheel', all: 'All-wheel' },
    body_type: {
      sedan: 'Saloon', hatchback: 'Hatchback', wagon: 'Estate', suv: 'SUV or crossover', minivan: 'Minivan', van: 'Van',
      minibus: 'Minibus', pickup: 'Pick-up', coupe: 'Coupé', convertible: 'Convertible', limousine: 'Limousine',
    },
    condition: { good: 'Good', needs_repair: 'Needs repair' },
    region: {
      tashkent_city: 'Tashkent city', tashkent_region: 'Tashkent Region', andijan: 'Andijan Region', bukhara: 'Bukhara Region', fergana: 'Fergana Region',
      jizzakh: 'Jizzakh Region', kashkadarya: 'Kashkadarya Region', khorezm: 'Khorezm Region', namangan: 'Namangan Region', navoi: 'Navoi Region',
      samarkand: 'Samarkand Region', surkhandarya: 'Surkhandarya Region', syrdarya: 'Syrdarya Region', karakalpakstan: 'Republic of Karakalpakstan',
    },
    paint: { original: 'Original paint', spots: 'Painted spots', repainted_partly: 'Partly repainted', fully_repainted: 'Fully repainted' },
    colour: {
      white: 'White', black: 'Black', silver: 'Silver', grey: 'Grey', wet_asphalt: 'Wet asphalt', dolphin: 'Dolphin grey',
      beige: 'Beige', blue: 'Blue', light_blue: 'Light blue', red: 'Red', cherry: 'Cherry', yellow: 'Yellow', orange: 'Orange',
      green: 'Green', brown: 'Brown', gold: 'Gold', bronze: 'Bronze', purple: 'Purple', turquoise: 'Turquoise', chameleon: 'Chameleon',
    },
  },
  marketNotGiven: 'Not given: valued as a new build (probability {{p}}) and as resale, mixed',
  yes: 'Yes',
  no: 'No',
  estimate: {
    estimate: 'Estimate',
    interval: 'Interval ({{coverage}})',
    low: 'Low',
    high: 'High',
    inUzs: 'In soʻm',
    rate: {
      'cbu-daily': 'At the official rate of the Central Bank of Uzbekistan of {{date}}: {{rate}} soʻm per US dollar.',
      'cbu-daily-earlier': 'At the official rate of the Central Bank of Uzbekistan of {{date}}: {{rate}} soʻm per US dollar (the newest it published on or before the valuation date, {{valuationDate}}).',
      'cbu-last-published': 'At the last official rate of the Central Bank of Uzbekistan the service has, of {{date}}: {{rate}} soʻm per US dollar. It is not the rate of the valuation date, {{valuationDate}}.',
      'cbu-monthly': 'At the official rate of the Central Bank of Uzbekistan of {{date}} from the service\'s monthly rate table (the first banking day of the month, rounded to whole soʻm): {{rate}} soʻm per US dollar.',
      client: 'At your organisation\'s own rate, sent with the request: {{rate}} soʻm per US dollar, for {{date}}.',
      recorded: 'At the rate recorded with the valuation: {{rate}} soʻm per US dollar of {{date}}.',
    },
    uzsUnknown: 'The Central Bank rate of the valuation date is not known: no amounts in soʻm.',
    legend: 'The bar runs from the low to the high end of the interval; the mark is the estimate.',
  },
  confidence: {
    level: 'Confidence',
    score: 'Score (0–1): 1 − FSD',
    fsd: 'FSD: the standard deviation of the log error the 90% interval implies (high ≤ 0.15, medium ≤ 0.30); about 68% of prices fall within ±FSD',
    levels: { high: 'High', medium: 'Medium', low: 'Low' },
    meaning: {
      high: 'The estimate can be used as it is.',
      medium: 'Check the estimate against the comparable listings.',
      low: 'The valuation goes to a valuer.',
    },
    drivers: 'What drives the estimate',
    noDrivers: 'No drivers given.',
  },
  members: {
    heading: 'Ensemble members',
    columns: { name: 'Member', estimate: 'Its estimate, USD', weight: 'Weight' },
    note: 'The estimate combines its members’ estimates with these weights, fixed when the model was trained: they are the model itself, not what drives the estimate.',
  },
  driverLabels: { marketLevel: 'Market level at the valuation date (index, newest data = 1)', observations: 'Your organisation’s observed prices (factor)', score: 'Confidence score' },
  attribution: {
    note: {
      one: 'What changes if this were the district’s typical flat: each line is how much the estimate would change were the flat typical of its district in that respect alone (the typical flat: the median of the district’s {{listings}} training listing, and the most usual market, renovation and building type), largest first. Valued when this report was made, by model version {{version}}.',
      other: 'What changes if this were the district’s typical flat: each line is how much the estimate would change were the flat typical of its district in that respect alone (the typical flat: the median of the district’s {{listings}} training listings, and the most usual market, renovation and building type), largest first. Valued when this report was made, by model version {{version}}.',
    },
    columns: { factor: 'Factor', typical: 'The district’s typical flat', usd: 'Change, USD', share: 'Change' },
    groups: { size: 'Area and rooms', place: 'Mahalla and place in the district', market: 'Market (new build or resale)', floor: 'Floor in the building', building: 'Building (floors, type)', renovation: 'Renovation' },
    placeTypical: 'The district as a whole',
    rooms: { one: '{{formatted}} room', other: '{{formatted}} rooms' },
    floors: { one: '{{formatted}} floor', other: '{{formatted}} floors' },
    middleFloor: 'A middle floor ({{floor}} of {{total}})',
    houseNote: {
      one: 'What changes if this were the district’s typical house: each line is how much the estimate would change were the house typical of its district in that respect alone (the typical house: the median of the district’s {{listings}} training house, and the most usual building type, renovation and utilities), largest first. Valued when this report was made, by model version {{version}}.',
      other: 'What changes if this were the district’s typical house: each line is how much the estimate would change were the house typical of its district in that respect alone (the typical house: the median of the district’s {{listings}} training houses, and the most usual building type, renovation and utilities), largest first. Valued when this report was made, by model version {{version}}.',
    },
    houseTypical: 'The district’s typical house',
    houseGroups: { size: 'Floor area and rooms', plot: 'Plot', place: 'Mahalla and place in the district', building: 'Storeys and building type', renovation: 'Renovation', utilities: 'Gas, water and sewerage' },
    sotka: { one: '{{formatted}} sotka', other: '{{formatted}} sotka' },
    utilities: { gas: 'gas', water: 'water', sewerage: 'sewerage' },
    vehicle: {
      note: {
        model: {
          one: 'What changes if this were the make and model’s typical car: each line is how much the estimate would change were the car typical of its make and model in that respect alone (the typical car: the median of its {{listings}} training listing, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
          other: 'What changes if this were the make and model’s typical car: each line is how much the estimate would change were the car typical of its make and model in that respect alone (the typical car: the median of its {{listings}} training listings, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
        },
        make: {
          one: 'What changes if this were the make’s typical car (the model has too few listings of its own): each line is how much the estimate would change were the car typical of its make in that respect alone (the typical car: the median of the make’s {{listings}} training listing, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
          other: 'What changes if this were the make’s typical car (the model has too few listings of its own): each line is how much the estimate would change were the car typical of its make in that respect alone (the typical car: the median of the make’s {{listings}} training listings, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
        },
        market: {
          one: 'What changes if this were the market’s typical car (the make has too few listings of its own): each line is how much the estimate would change were the car typical of the market in that respect alone (the typical car: the median of the {{listings}} training listing, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
          other: 'What changes if this were the market’s typical car (the make has too few listings of its own): each line is how much the estimate would change were the car typical of the market in that respect alone (the typical car: the median of the {{listings}} training listings, and the most usual fuel, transmission, body, drive and region), largest first. Valued when this report was made, by model version {{version}}.',
        },
      },
      typical: { model: 'The make and model’s typical car', make: 'The make’s typical car', market: 'The market’s typical car' },
      groups: { year: 'Model year', mileage: 'Mileage', engine: 'Engine volume', fuel: 'Fuel', transmission: 'Transmission', body: 'Body', drive: 'Drive', trim: 'Trim level', condition: 'Condition', region: 'Region' },
      litres: 'l',
    },
  },
  market: {
    area: 'Area', name: 'Name', district: 'District', mahalla: 'Mahalla', medianPerM2: 'Median asking price per m²', listings: 'Listings',
    dataAge: 'Age of the market data',
    months: { one: '{{formatted}} month', other: '{{formatted}} months' },
  },
  comparables: {
    columns: { label: 'Listing', area: 'Area, m²', rooms: 'Rooms', floor: 'Floor', period: 'Listed', price: 'Price as listed', priceAtDate: 'At valuation date', distance: 'Distance, km' },
    note: 'Prices in US dollars. “At valuation date”: the listed price brought to the valuation date by the market index.',
    none: 'No comparable listings.',
    sameMahalla: 'same mahalla',
  },
  location: {
    composite: 'Composite score (0–100)',
    point: 'Point (latitude, longitude)',
    subindexes: {
      transport: 'Transport', education: 'Education', healthcare: 'Healthcare', daily_needs: 'Daily needs', green: 'Green space',
      culture: 'Culture', safety: 'Safety', centrality: 'Centrality', market_liquidity: 'Market liquidity',
    },
    mapCaption: 'District outline and the object',
    noOutline: 'District outline not available',
    noData: 'no data',
  },
  flags: {
    none: 'No anomaly flags.',
    unknown: 'A flag this report does not describe: see the service documentation.',
    known: {
      AREA_OUTSIDE_DISTRICT_RANGE: { title: 'Area unusual for the district', explanation: 'The area is smaller or larger than that of 98% of the district’s listings: the model has seen few such homes there, and the interval is wider.' },
      TOTAL_FLOORS_ABOVE_DISTRICT_MAX: { title: 'Building taller than any in the district’s data', explanation: 'No listing in the district’s data is in a building this tall.' },
      UNUSUAL_AREA_PER_ROOM: { title: 'Unusual area per room', explanation: 'Under 10 m² or over 90 m² per room: check the area and the number of rooms.' },
      THIN_DISTRICT_DATA: { title: 'Few listings in the district', explanation: 'The district has too few listings for an interval of its own: a wider, city-wide one is used.' },
      TOP_FLOOR_OF_HIGH_RISE: { title: 'Top floor of a high-rise', explanation: 'The top floor of a building of 20 floors or more: such flats sell differently.' },
      FAR_FROM_DISTRICT_MEDIAN: { title: 'Far from the district median', explanation: 'The estimate is more than 60% above or below the district’s median price.' },
      MODELS_DISAGREE: { title: 'The models disagree', explanation: 'The estimates of the ensemble’s models differ by more than 20% of the estimate.' },
      MARKET_DATA_OLDER_THAN_12_MONTHS: { title: 'Market data older than 12 months', explanation: 'The valuation date is more than 12 months after the newest listings the model learned from: the price level is an extrapolation, and the interval is wider for the months since, which raises its FSD and lowers the confidence.' },
      ASKING_PRICE_BELOW_INTERVAL: { title: 'Asking price below the interval', explanation: 'The asking price given is below the interval: the object may be underpriced, or its description incomplete.' },
      ASKING_PRICE_ABOVE_INTERVAL: { title: 'Asking price above the interval', explanation: 'The asking price given is above the interval: the seller may overstate the collateral’s value.' },
      PLOT_NOT_GIVEN: { title: 'Plot size not given', explanation: 'The house was valued without its plot, with a wider interval.' },
      THIN_MODEL_DATA: { title: 'Few listings of this model', explanation: 'The make and model have few listings in the data: the interval is wider.' },
      YEAR_OUTSIDE_MODEL_DATA: { title: 'Model year outside the data', explanation: 'The model year is more than a year outside the years this model’s listings cover.' },
      UNUSUAL_MILEAGE: { title: 'Unusual mileage', explanation: 'More than 60,000 km per year of age.' },
      FAR_FROM_GROUP_MEDIAN: { title: 'Far from the model’s median price', explanation: 'The estimate is more than 50% above or below the median asking price of the same make, model and year.' },
      MODEL_NOT_IN_MARKET_DATA: { title: 'Valued at the make’s level', explanation: 'Too few listings of this model, or a model the catalogue does not list: valued from the make’s prices.' },
      MAKE_NOT_IN_MARKET_DATA: { title: 'Valued at the segment’s level', explanation: 'Too few listings of this make: valued from the prices of cars of the same body, engine and year.' },
    },
  },
  model: {
    version: 'Model version',
    trainedAt: 'Trained',
    headline: 'Overall held-out accuracy',
    headlineText: { one: 'On {{n}} held-out listing newer than its training data: median absolute percentage error (median APE) {{medianApe}}, the {{level}} interval held {{coverage}}.', other: 'On {{n}} held-out listings newer than its training data: median absolute percentage error (median APE) {{medianApe}}, the {{level}} interval held {{coverage}}.' },
    accuracyFor: 'Held-out accuracy: {{group}}',
    medianApe: 'Median absolute percentage error (median APE)',
    intervalCoverage: 'Share of prices inside the interval',
    n: 'Held-out listings',
    accuracyClass: 'Accuracy class',
    classes: { high: 'High', good: 'Good', fair: 'Fair', low: 'Low' },
    noAccuracy: 'No held-out figures for this district.',
    heldOut: 'Held-out: listings the model did not see in training.',
  },
  adjustment: {
    baseEstimate: 'Model estimate before adjustment',
    factor: 'Factor',
    group: 'Group',
    observations: 'Observations',
    explanation: 'Prices your organisation recorded moved the model’s estimate by this factor.',
  },
  disclaimer: {
    asking: 'The estimate is of an asking price (the price of listings on classified sites), not of a transaction price.',
    interval: { one: 'The interval is meant to contain the price {{k}} times in {{of}}.', other: 'The interval is meant to contain the price {{k}} times in {{of}}.' },
    review: 'Valuations of low confidence or with anomaly flags go to a valuer.',
  },
  units: { usd: 'USD', uzs: 'UZS', km: 'km' },
  date: '{{day}} {{month}} {{year}}',
  monthNames: EN_MONTHS,
  localTime: 'Tashkent time',
  page: 'Page {{n}} of {{total}}',
};

const RU: Catalogue = {
  title: 'Отчёт об оценке залогового имущества',
  preparedFor: 'Для кредитного комитета',
  kind: { home: 'Жилая недвижимость', vehicle: 'Транспортное средство' },
  ids: { valuationId: 'Идентификатор оценки', valuationDate: 'Дата оценки', createdAt: 'Время создания', modelVersion: 'Версия модели', organisation: 'Организация-заявитель' },
  sections: {
    object: 'Объект оценки',
    estimate: 'Оценка стоимости',
    confidence: 'Уверенность и факторы оценки',
    market: 'Рынок района и махалли',
    comparables: 'Сопоставимые объявления',
    location: 'Индекс локации',
    flags: 'Флаги аномалий',
    model: 'Модель и её точность на отложенной выборке',
    adjustment: 'Рыночная корректировка',
    disclaimer: 'Важно',
  },
  objectLabels: {
    district: 'Район', mahalla: 'Махалля', address: 'Адрес', area_m2: 'Общая площадь, м²', living_area_m2: 'Жилая площадь, м²',
    kitchen_area_m2: 'Площадь кухни, м²', rooms: 'Комнат', floor: 'Этаж', total_floors: 'Этажность дома',
    renovation: 'Ремонт', market: 'Рынок', property_type: 'Тип недвижимости', building_type: 'Тип дома',
    bathroom: 'Санузел', year_built: 'Год постройки', ceiling_height_m: 'Высота потолков, м', land_area_sotka: 'Участок, соток',
    seller_type: 'Продавец', furnished: 'С мебелью', balcony: 'Балкон', asking_price_usd: 'Цена в объявлении, USD',
    lat: 'Широта', lon: 'Долгота', make: 'Марка', model: 'Модель', year: 'Год выпуска', mileage_km: 'Пробег, км',
    body_type: 'Кузов', fuel: 'Топливо', transmission: 'Коробка передач', drive: 'Привод', engine_l: 'Объём двигателя, л',
    colour: 'Цвет', condition: 'Состояние', paint: 'Окраска', region: 'Регион', trim: 'Комплектация',
  },
  objectValues: {
    renovation: {
      euro: 'Евроремонт', designer: 'Дизайнерский ремонт', good: 'Хороший', average: 'Средний', needs_repair: 'Требует ремонта',
      pre_finish: 'Предчистовая отделка', rough: 'Черновая отделка',
    },
    market: { new: 'Новостройка', resale: 'Вторичный рынок' },
    property_type: { apartment: 'Квартира', house: 'Дом' },
    building_type: { panel: 'Панельный', brick: 'Кирпичный', monolith: 'Монолитный', block: 'Блочный', wood: 'Деревянный', other: 'Другой' },
    bathroom: { separate: 'Раздельный', combined: 'Совмещённый', two_plus: 'Два и более' },
    seller_type: { owner: 'Собственник', agency: 'Агентство' },
    fuel: { petrol: 'Бензин', gas_petrol: 'Газ и бензин', diesel: 'Дизель', electric: 'Электро', hybrid: 'Гибрид' },
    transmission: { manual: 'Механика', automatic: 'Автомат', robot: 'Робот', cvt: 'Вариатор' },
    drive: { front: 'Передний', rear: 'Задний', all: 'Полный' },
    body_type: {
      sedan: 'Седан', hatchback: 'Хэтчбек', wagon: 'Универсал', suv: 'Внедорожник или кроссовер', minivan: 'Минивэн', van: 'Фургон',
      minibus: 'Микроавтобус', pickup: 'Пикап', coupe: 'Купе', convertible: 'Кабриолет', limousine: 'Лимузин',
    },
    condition: { good: 'Хорошее', needs_repair: 'Требует ремонта' },
    region: {
      tashkent_city: 'г. Ташкент', tashkent_region: 'Ташкентская область', andijan: 'Андижанская область', bukhara: 'Бухарская область', fergana: 'Ферганская область',
      jizzakh: 'Джизакская область', kashkadarya: 'Кашкадарьинская область', khorezm: 'Хорезмская область', namangan: 'Наманганская область', navoi: 'Навоийская область',
      samarkand: 'Самаркандская область', surkhandarya: 'Сурхандарьинская область', syrdarya: 'Сырдарьинская область', karakalpakstan: 'Республика Каракалпакстан',
    },
    paint: { original: 'Родная краска', spots: 'Есть пятна', repainted_partly: 'Частично окрашен', fully_repainted: 'Полностью окрашен' },
    colour: {
      white: 'Белый', black: 'Чёрный', silver: 'Серебристый', grey: 'Серый', wet_asphalt: 'Мокрый асфальт', dolphin: 'Дельфин',
      beige: 'Бежевый', blue: 'Синий', light_blue: 'Голубой', red: 'Красный', cherry: 'Вишнёвый', yellow: 'Жёлтый', orange: 'Оранжевый',
      green: 'Зелёный', brown: 'Коричневый', gold: 'Золотистый', bronze: 'Бронзовый', purple: 'Фиолетовый', turquoise: 'Бирюзовый', chameleon: 'Хамелеон',
    },
  },
  marketNotGiven: 'Не указан: оценена как новостройка (вероятность {{p}}) и как вторичное жильё, оценки смешаны',
  yes: 'Да',
  no: 'Нет',
  estimate: {
    estimate: 'Оценка',
    interval: 'Интервал ({{coverage}})',
    low: 'Нижняя граница',
    high: 'Верхняя граница',
    inUzs: 'В сумах',
    rate: {
      'cbu-daily': 'По официальному курсу Центрального банка Республики Узбекистан на {{date}}: {{rate}} сум за доллар США.',
      'cbu-daily-earlier': 'По официальному курсу Центрального банка Республики Узбекистан на {{date}}: {{rate}} сум за доллар США (последний установленный на дату оценки, {{valuationDate}}).',
      'cbu-last-published': 'По последнему имеющемуся в сервисе официальному курсу Центрального банка Республики Узбекистан, на {{date}}: {{rate}} сум за доллар США. Это не курс на дату оценки ({{valuationDate}}).',
      'cbu-monthly': 'По официальному курсу Центрального банка Республики Узбекистан на {{date}} из месячной таблицы курсов сервиса (первый банковский день месяца, округлён до целых сумов): {{rate}} сум за доллар США.',
      client: 'По курсу вашей организации, переданному с запросом: {{rate}} сум за доллар США на {{date}}.',
      recorded: 'По курсу, записанному вместе с оценкой: {{rate}} сум за доллар США на {{date}}.',
    },
    uzsUnknown: 'Курс Центрального банка на дату оценки неизвестен: суммы в сумах не приводятся.',
    legend: 'Полоса — интервал от нижней до верхней границы; отметка — оценка.',
  },
  confidence: {
    level: 'Уверенность',
    score: 'Балл (0–1): 1 − FSD',
    fsd: 'FSD: стандартное отклонение логарифмической ошибки, которое следует из 90\u00a0% интервала (высокий ≤ 0,15, средний ≤ 0,30); около 68\u00a0% цен лежат в пределах ±FSD',
    levels: { high: 'Высокая', medium: 'Средняя', low: 'Низкая' },
    meaning: {
      high: 'Оценку можно использовать как есть.',
      medium: 'Сверьте оценку с сопоставимыми объявлениями.',
      low: 'Оценка передаётся оценщику.',
    },
    drivers: 'Что определяет оценку',
    noDrivers: 'Факторы не указаны.',
  },
  members: {
    heading: 'Модели ансамбля',
    columns: { name: 'Модель', estimate: 'Её оценка, USD', weight: 'Вес' },
    note: 'Оценка объединяет оценки моделей ансамбля с этими весами, заданными при обучении: это сама модель, а не то, что определяет оценку.',
  },
  driverLabels: { marketLevel: 'Уровень рынка на дату оценки (индекс, последние данные = 1)', observations: 'Наблюдённые цены вашей организации (коэффициент)', score: 'Балл уверенности' },
  attribution: {
    note: {
      one: 'Что изменится, если бы это была типичная квартира района: каждая строка — насколько изменилась бы оценка, будь квартира типичной для своего района только в этом отношении (типичная квартира: медиана {{listings}} обучающего объявления района, самые частые рынок, ремонт и тип дома); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      few: 'Что изменится, если бы это была типичная квартира района: каждая строка — насколько изменилась бы оценка, будь квартира типичной для своего района только в этом отношении (типичная квартира: медиана {{listings}} обучающих объявлений района, самые частые рынок, ремонт и тип дома); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      many: 'Что изменится, если бы это была типичная квартира района: каждая строка — насколько изменилась бы оценка, будь квартира типичной для своего района только в этом отношении (типичная квартира: медиана {{listings}} обучающих объявлений района, самые частые рынок, ремонт и тип дома); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      other: 'Что изменится, если бы это была типичная квартира района: каждая строка — насколько изменилась бы оценка, будь квартира типичной для своего района только в этом отношении (типичная квартира: медиана {{listings}} обучающего объявления района, самые частые рынок, ремонт и тип дома); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
    },
    columns: { factor: 'Фактор', typical: 'Типичная квартира района', usd: 'Изменение, USD', share: 'Изменение' },
    groups: { size: 'Площадь и комнаты', place: 'Махалля и место в районе', market: 'Рынок (новостройка или вторичный)', floor: 'Этаж в доме', building: 'Дом (этажность, тип)', renovation: 'Ремонт' },
    placeTypical: 'Район в целом',
    rooms: { one: '{{formatted}} комната', few: '{{formatted}} комнаты', many: '{{formatted}} комнат', other: '{{formatted}} комнаты' },
    floors: { one: '{{formatted}} этаж', few: '{{formatted}} этажа', many: '{{formatted}} этажей', other: '{{formatted}} этажа' },
    middleFloor: 'Средний этаж ({{floor}} из {{total}})',
    houseNote: {
      one: 'Что изменится, если бы это был типичный дом района: каждая строка — насколько изменилась бы оценка, будь дом типичным для своего района только в этом отношении (типичный дом: медиана {{listings}} обучающего дома района, самые частые тип постройки, ремонт и коммуникации); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      few: 'Что изменится, если бы это был типичный дом района: каждая строка — насколько изменилась бы оценка, будь дом типичным для своего района только в этом отношении (типичный дом: медиана {{listings}} обучающих домов района, самые частые тип постройки, ремонт и коммуникации); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      many: 'Что изменится, если бы это был типичный дом района: каждая строка — насколько изменилась бы оценка, будь дом типичным для своего района только в этом отношении (типичный дом: медиана {{listings}} обучающих домов района, самые частые тип постройки, ремонт и коммуникации); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
      other: 'Что изменится, если бы это был типичный дом района: каждая строка — насколько изменилась бы оценка, будь дом типичным для своего района только в этом отношении (типичный дом: медиана {{listings}} обучающего дома района, самые частые тип постройки, ремонт и коммуникации); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
    },
    houseTypical: 'Типичный дом района',
    houseGroups: { size: 'Площадь и комнаты', plot: 'Участок', place: 'Махалля и место в районе', building: 'Этажность и тип постройки', renovation: 'Ремонт', utilities: 'Газ, вода и канализация' },
    sotka: { one: '{{formatted}} сотка', few: '{{formatted}} сотки', many: '{{formatted}} соток', other: '{{formatted}} сотки' },
    utilities: { gas: 'газ', water: 'вода', sewerage: 'канализация' },
    vehicle: {
      note: {
        model: {
          one: 'Что изменится, если бы это был типичный автомобиль этой марки и модели: каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки и модели только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          few: 'Что изменится, если бы это был типичный автомобиль этой марки и модели: каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки и модели только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          many: 'Что изменится, если бы это был типичный автомобиль этой марки и модели: каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки и модели только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          other: 'Что изменится, если бы это был типичный автомобиль этой марки и модели: каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки и модели только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
        },
        make: {
          one: 'Что изменится, если бы это был типичный автомобиль этой марки (у модели слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления марки, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          few: 'Что изменится, если бы это был типичный автомобиль этой марки (у модели слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений марки, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          many: 'Что изменится, если бы это был типичный автомобиль этой марки (у модели слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений марки, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          other: 'Что изменится, если бы это был типичный автомобиль этой марки (у модели слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для своей марки только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления марки, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
        },
        market: {
          one: 'Что изменится, если бы это был типичный автомобиль рынка (у марки слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для рынка только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          few: 'Что изменится, если бы это был типичный автомобиль рынка (у марки слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для рынка только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          many: 'Что изменится, если бы это был типичный автомобиль рынка (у марки слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для рынка только в этом отношении (типичный автомобиль: медиана {{listings}} обучающих объявлений, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
          other: 'Что изменится, если бы это был типичный автомобиль рынка (у марки слишком мало своих объявлений): каждая строка — насколько изменилась бы оценка, будь автомобиль типичным для рынка только в этом отношении (типичный автомобиль: медиана {{listings}} обучающего объявления, самые частые топливо, коробка передач, кузов, привод и регион); по убыванию. Рассчитано при составлении отчёта моделью версии {{version}}.',
        },
      },
      typical: { model: 'Типичный автомобиль этой марки и модели', make: 'Типичный автомобиль этой марки', market: 'Типичный автомобиль рынка' },
      groups: { year: 'Год выпуска', mileage: 'Пробег', engine: 'Объём двигателя', fuel: 'Топливо', transmission: 'Коробка передач', body: 'Кузов', drive: 'Привод', trim: 'Комплектация', condition: 'Состояние', region: 'Регион' },
      litres: 'л',
    },
  },
  market: {
    area: 'Территория', name: 'Название', district: 'Район', mahalla: 'Махалля', medianPerM2: 'Медианная цена предложения за 1\u00a0м²', listings: 'Объявлений',
    dataAge: 'Возраст рыночных данных',
    months: { one: '{{formatted}} месяц', few: '{{formatted}} месяца', many: '{{formatted}} месяцев', other: '{{formatted}} месяца' },
  },
  comparables: {
    columns: { label: 'Объявление', area: 'Площадь, м²', rooms: 'Комнат', floor: 'Этаж', period: 'Период', price: 'Цена в объявлении', priceAtDate: 'На дату оценки', distance: 'Расст., км' },
    note: 'Цены в долларах США. «На дату оценки» — цена объявления, приведённая к дате оценки по рыночному индексу.',
    none: 'Сопоставимых объявлений нет.',
    sameMahalla: 'та же махалля',
  },
  location: {
    composite: 'Итоговый балл (0–100)',
    point: 'Точка (широта, долгота)',
    subindexes: {
      transport: 'Транспорт', education: 'Образование', healthcare: 'Здравоохранение', daily_needs: 'Повседневные нужды', green: 'Зелёные зоны',
      culture: 'Культура', safety: 'Безопасность', centrality: 'Близость к центру', market_liquidity: 'Ликвидность рынка',
    },
    mapCaption: 'Граница района и объект',
    noOutline: 'Граница района недоступна',
    noData: 'нет данных',
  },
  flags: {
    none: 'Флагов аномалий нет.',
    unknown: 'Флаг, не описанный в этом отчёте: см. документацию сервиса.',
    known: {
      AREA_OUTSIDE_DISTRICT_RANGE: { title: 'Площадь нетипична для района', explanation: 'Площадь меньше или больше, чем у 98\u00a0% объявлений района: таких объектов там в данных мало, интервал шире.' },
      TOTAL_FLOORS_ABOVE_DISTRICT_MAX: { title: 'Дом выше всех в данных района', explanation: 'В данных района нет объявлений в домах такой этажности.' },
      UNUSUAL_AREA_PER_ROOM: { title: 'Нетипичная площадь на комнату', explanation: 'Меньше 10\u00a0м² или больше 90\u00a0м² на комнату: проверьте площадь и число комнат.' },
      THIN_DISTRICT_DATA: { title: 'Мало объявлений в районе', explanation: 'Для собственного интервала района объявлений мало: используется более широкий общегородской.' },
      TOP_FLOOR_OF_HIGH_RISE: { title: 'Последний этаж высотного дома', explanation: 'Последний этаж дома в 20 этажей и выше: такие квартиры продаются иначе.' },
      FAR_FROM_DISTRICT_MEDIAN: { title: 'Далеко от медианы района', explanation: 'Оценка более чем на 60\u00a0% выше или ниже медианной цены района.' },
      MODELS_DISAGREE: { title: 'Модели расходятся', explanation: 'Оценки моделей ансамбля расходятся более чем на 20\u00a0% от оценки.' },
      MARKET_DATA_OLDER_THAN_12_MONTHS: { title: 'Рыночные данные старше 12 месяцев', explanation: 'Дата оценки более чем на 12 месяцев позже самых новых объявлений, на которых обучена модель: уровень цен экстраполирован, а интервал шире на прошедшие месяцы, что повышает FSD и снижает уверенность.' },
      ASKING_PRICE_BELOW_INTERVAL: { title: 'Цена предложения ниже интервала', explanation: 'Указанная цена предложения ниже интервала: объект может быть недооценён продавцом или описан неполно.' },
      ASKING_PRICE_ABOVE_INTERVAL: { title: 'Цена предложения выше интервала', explanation: 'Указанная цена предложения выше интервала: продавец может завышать стоимость залога.' },
      PLOT_NOT_GIVEN: { title: 'Не указан участок', explanation: 'Дом оценён без участка, интервал шире.' },
      THIN_MODEL_DATA: { title: 'Мало объявлений этой модели', explanation: 'По марке и модели в данных мало объявлений: интервал шире.' },
      YEAR_OUTSIDE_MODEL_DATA: { title: 'Год выпуска вне данных', explanation: 'Год выпуска более чем на год выходит за годы, которые покрывают объявления этой модели.' },
      UNUSUAL_MILEAGE: { title: 'Нетипичный пробег', explanation: 'Более 60\u00a0000\u00a0км на год возраста.' },
      FAR_FROM_GROUP_MEDIAN: { title: 'Далеко от медианы модели', explanation: 'Оценка более чем на 50\u00a0% выше или ниже медианной цены предложения той же марки, модели и года.' },
      MODEL_NOT_IN_MARKET_DATA: { title: 'Оценено по уровню марки', explanation: 'Объявлений этой модели мало или её нет в каталоге: оценка по ценам марки.' },
      MAKE_NOT_IN_MARKET_DATA: { title: 'Оценено по уровню сегмента', explanation: 'Объявлений этой марки мало: оценка по ценам автомобилей того же кузова, двигателя и года.' },
    },
  },
  model: {
    version: 'Версия модели',
    trainedAt: 'Дата обучения',
    headline: 'Общая точность на отложенной выборке',
    headlineText: { one: 'На {{n}} отложенном объявлении новее обучающих данных: медианная абсолютная процентная ошибка (медианная APE) {{medianApe}}, {{level}} интервал охватил {{coverage}}.', few: 'На {{n}} отложенных объявлениях новее обучающих данных: медианная абсолютная процентная ошибка (медианная APE) {{medianApe}}, {{level}} интервал охватил {{coverage}}.', many: 'На {{n}} отложенных объявлениях новее обучающих данных: медианная абсолютная процентная ошибка (медианная APE) {{medianApe}}, {{level}} интервал охватил {{coverage}}.', other: 'На {{n}} отложенных объявлениях новее обучающих данных: медианная абсолютная процентная ошибка (медианная APE) {{medianApe}}, {{level}} интервал охватил {{coverage}}.' },
    accuracyFor: 'Точность на отложенной выборке: {{group}}',
    medianApe: 'Медианная абсолютная процентная ошибка (медианная APE)',
    intervalCoverage: 'Доля цен внутри интервала',
    n: 'Объявлений в проверке',
    accuracyClass: 'Класс точности',
    classes: { high: 'Высокий', good: 'Хороший', fair: 'Удовлетворительный', low: 'Низкий' },
    noAccuracy: 'Для этого района нет данных о точности.',
    heldOut: 'Отложенная выборка — объявления, которых модель не видела при обучении.',
  },
  adjustment: {
    baseEstimate: 'Оценка модели до корректировки',
    factor: 'Коэффициент',
    group: 'Группа',
    observations: 'Наблюдений',
    explanation: 'Цены, записанные вашей организацией, сдвинули оценку модели на этот коэффициент.',
  },
  disclaimer: {
    asking: 'Это оценка цены предложения (цены объявлений на сайтах), а не цены сделки.',
    interval: { one: 'Интервал должен содержать цену в {{k}} случае из {{of}}.', few: 'Интервал должен содержать цену в {{k}} случаях из {{of}}.', many: 'Интервал должен содержать цену в {{k}} случаях из {{of}}.', other: 'Интервал должен содержать цену в {{k}} случаях из {{of}}.' },
    review: 'Оценки с низкой уверенностью или с флагами аномалий направляются оценщику.',
  },
  units: { usd: 'USD', uzs: 'сум', km: 'км' },
  date: '{{day}} {{month}} {{year}} г.',
  monthNames: RU_MONTHS,
  localTime: 'ташкентское время',
  page: 'Страница {{n}} из {{total}}',
};

const UZ: Catalogue = {
  title: 'Garov mulkini baholash hisoboti',
  preparedFor: 'Kredit qoʻmitasi uchun',
  kind: { home: 'Turar joy koʻchmas mulki', vehicle: 'Transport vositasi' },
  ids: { valuationId: 'Baholash identifikatori', valuationDate: 'Baholash sanasi', createdAt: 'Yaratilgan vaqti', modelVersion: 'Model versiyasi', organisation: 'Soʻrov yuborgan tashkilot' },
  sections: {
    object: 'Baholash obyekti',
    estimate: 'Baholangan qiymat',
    confidence: 'Ishonchlilik va bahoga taʼsir etuvchi omillar',
    market: 'Tuman va mahalla bozori',
    comparables: 'Taqqoslanadigan eʼlonlar',
    location: 'Joylashuv indeksi',
    flags: 'Ogohlantirish belgilari',
    model: 'Model va uning ajratilgan maʼlumotlardagi aniqligi',
    adjustment: 'Bozor tuzatmasi',
    disclaimer: 'Muhim',
  },
  objectLabels: {
    district: 'Tuman', mahalla: 'Mahalla', address: 'Manzil', area_m2: 'Umumiy maydon, m²', living_area_m2: 'Yashash maydoni, m²',
    kitchen_area_m2: 'Oshxona maydoni, m²', rooms: 'Xonalar soni', floor: 'Qavat', total_floors: 'Binoning qavatlari soni',
    renovation: 'Taʼmir', market: 'Bozor', property_type: 'Mulk turi', building_type: 'Bino turi',
    bathroom: 'Sanuzel', year_built: 'Qurilgan yili', ceiling_height_m: 'Shift balandligi, m', land_area_sotka: 'Yer maydoni, sotix',
    seller_type: 'Sotuvchi', furnished: 'Mebelli', balcony: 'Balkon', asking_price_usd: 'Eʼlondagi narx, USD',
    lat: 'Kenglik', lon: 'Uzunlik', make: 'Marka', model: 'Model', year: 'Ishlab chiqarilgan yili', mileage_km: 'Yurgan masofasi, km',
    body_type: 'Kuzov', fuel: 'Yoqilgʻi', transmission: 'Uzatmalar qutisi', drive: 'Yuritma', engine_l: 'Dvigatel hajmi, l',
    colour: 'Rangi', condition: 'Holati', paint: 'Boʻyoq', region: 'Hudud', trim: 'Komplektatsiya',
  },
  objectValues: {
    renovation: {
      euro: 'Yevrotaʼmir', designer: 'Dizaynerlik taʼmiri', good: 'Yaxshi', average: 'Oʻrtacha', needs_repair: 'Taʼmirtalab',
      pre_finish: 'Oq suvoq', rough: 'Qora suvoq',
    },
    market: { new: 'Yangi bino (birlamchi bozor)', resale: 'Ikkilamchi bozor' },
    property_type: { apartment: 'Kvartira', house: 'Hovli uy' },
    building_type: { panel: 'Panel', brick: 'Gʻisht', monolith: 'Monolit', block: 'Blok', wood: 'Yogʻoch', other: 'Boshqa' },
    bathroom: { separate: 'Alohida', combined: 'Birlashgan', two_plus: 'Ikkita va undan koʻp' },
    seller_type: { owner: 'Mulk egasi', agency: 'Agentlik' },
    fuel: { petrol: 'Benzin', gas_petrol: 'Gaz va benzin', diesel: 'Dizel', electric: 'Elektr', hybrid: 'Gibrid' },
    transmission: { manual: 'Mexanik', automatic: 'Avtomat', robot: 'Robot', cvt: 'Variator' },
    drive: { front: 'Old gʻildirak', rear: 'Orqa gʻildirak', all: 'Toʻliq' },
    body_type: {
      sedan: 'Sedan', hatchback: 'Xetchbek', wagon: 'Universal', suv: 'Yoʻltanlamas yoki krossover', minivan: 'Miniven', van: 'Furgon',
      minibus: 'Mikroavtobus', pickup: 'Pikap', coupe: 'Kupe', convertible: 'Kabriolet', limousine: 'Limuzin',
    },
    condition: { good: 'Yaxshi', needs_repair: 'Taʼmirtalab' },
    region: {
      tashkent_city: 'Toshkent shahri', tashkent_region: 'Toshkent viloyati', andijan: 'Andijon viloyati', bukhara: 'Buxoro viloyati', fergana: 'Fargʻona viloyati',
      jizzakh: 'Jizzax viloyati', kashkadarya: 'Qashqadaryo viloyati', khorezm: 'Xorazm viloyati', namangan: 'Namangan viloyati', navoi: 'Navoiy viloyati',
      samarkand: 'Samarqand viloyati', surkhandarya: 'Surxondaryo viloyati', syrdarya: 'Sirdaryo viloyati', karakalpakstan: 'Qoraqalpogʻiston Respublikasi',
    },
    paint: { original: 'Zavod boʻyogʻi', spots: 'Dogʻlar bor', repainted_partly: 'Qisman boʻyalgan', fully_repainted: 'Toʻliq boʻyalgan' },
    colour: {
      white: 'Oq', black: 'Qora', silver: 'Kumushrang', grey: 'Kulrang', wet_asphalt: 'Hoʻl asfalt', dolphin: 'Delfin',
      beige: 'Bej', blue: 'Koʻk', light_blue: 'Havorang', red: 'Qizil', cherry: 'Olcharang', yellow: 'Sariq', orange: 'Toʻq sariq',
      green: 'Yashil', brown: 'Jigarrang', gold: 'Tillarang', bronze: 'Bronza', purple: 'Binafsharang', turquoise: 'Feruzarang', chameleon: 'Xameleon',
    },
  },
  marketNotGiven: 'Koʻrsatilmagan: yangi bino (ehtimoli {{p}}) va ikkilamchi bozor sifatida baholanib, baholar aralashtirildi',
  yes: 'Ha',
  no: 'Yoʻq',
  estimate: {
    estimate: 'Baho',
    interval: 'Narx oraligʻi ({{coverage}})',
    low: 'Quyi chegara',
    high: 'Yuqori chegara',
    inUzs: 'Soʻmda',
    rate: {
      'cbu-daily': 'Oʻzbekiston Respublikasi Markaziy bankining {{date}} sanasidagi rasmiy kursi boʻyicha: 1 AQSH dollari = {{rate}} soʻm.',
      'cbu-daily-earlier': 'Oʻzbekiston Respublikasi Markaziy bankining {{date}} sanasidagi rasmiy kursi boʻyicha: 1 AQSH dollari = {{rate}} soʻm (baholash sanasi, {{valuationDate}}, yoki undan oldin eʼlon qilingan eng soʻnggi kurs).',
      'cbu-last-published': 'Oʻzbekiston Respublikasi Markaziy bankining xizmatdagi eng soʻnggi rasmiy kursi boʻyicha, {{date}}: 1 AQSH dollari = {{rate}} soʻm. Bu baholash sanasining ({{valuationDate}}) kursi emas.',
      'cbu-monthly': 'Oʻzbekiston Respublikasi Markaziy bankining {{date}} sanasidagi rasmiy kursi boʻyicha, xizmatning oylik kurslar jadvalidan (oyning birinchi bank kuni, butun soʻmgacha yaxlitlangan): 1 AQSH dollari = {{rate}} soʻm.',
      client: 'Tashkilotingiz soʻrov bilan yuborgan kurs boʻyicha: 1 AQSH dollari = {{rate}} soʻm, {{date}}.',
      recorded: 'Baholash bilan birga yozilgan kurs boʻyicha: 1 AQSH dollari = {{rate}} soʻm, {{date}}.',
    },
    uzsUnknown: 'Baholash sanasidagi Markaziy bank kursi nomaʼlum: soʻmdagi qiymatlar keltirilmagan.',
    legend: 'Chiziq — oraliqning quyi chegarasidan yuqori chegarasigacha; belgi — baho.',
  },
  confidence: {
    level: 'Ishonchlilik',
    score: 'Ball (0–1): 1 − FSD',
    fsd: 'FSD: 90% oraliqdan kelib chiqadigan logarifmik xatoning standart chetlanishi (yuqori ≤ 0,15, oʻrta ≤ 0,30); narxlarning taxminan 68% ±FSD ichida',
    levels: { high: 'Yuqori', medium: 'Oʻrtacha', low: 'Past' },
    meaning: {
      high: 'Bahoni shundayligicha qoʻllash mumkin.',
      medium: 'Bahoni taqqoslanadigan eʼlonlar bilan solishtiring.',
      low: 'Baho baholovchiga yuboriladi.',
    },
    drivers: 'Bahoni belgilovchi omillar',
    noDrivers: 'Omillar koʻrsatilmagan.',
  },
  members: {
    heading: 'Ansambl modellari',
    columns: { name: 'Model', estimate: 'Uning bahosi, USD', weight: 'Vazn' },
    note: 'Baho ansambl modellarining baholarini oʻqitishda belgilangan shu vaznlar bilan birlashtiradi: bu modelning oʻzi, bahoni belgilovchi omillar emas.',
  },
  driverLabels: { marketLevel: 'Baholash sanasidagi bozor darajasi (indeks, eng yangi maʼlumot = 1)', observations: 'Tashkilotingiz kuzatgan narxlar (koeffitsiyent)', score: 'Ishonch bali' },
  attribution: {
    note: {
      one: 'Bu tumanning odatiy kvartirasi boʻlsa nima oʻzgaradi: har bir qator — kvartira faqat shu jihatdan oʻz tumanining odatiy kvartirasi boʻlganida baho qanchaga oʻzgarishi (odatiy kvartira: tumanning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan bozor, taʼmir va bino turi), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
      other: 'Bu tumanning odatiy kvartirasi boʻlsa nima oʻzgaradi: har bir qator — kvartira faqat shu jihatdan oʻz tumanining odatiy kvartirasi boʻlganida baho qanchaga oʻzgarishi (odatiy kvartira: tumanning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan bozor, taʼmir va bino turi), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
    },
    columns: { factor: 'Omil', typical: 'Tumanning odatiy kvartirasi', usd: 'Oʻzgarish, USD', share: 'Oʻzgarish' },
    groups: { size: 'Maydon va xonalar', place: 'Mahalla va tumandagi joy', market: 'Bozor (yangi bino yoki ikkilamchi)', floor: 'Binodagi qavat', building: 'Bino (qavatlar soni, turi)', renovation: 'Taʼmir' },
    placeTypical: 'Butun tuman',
    rooms: { one: '{{formatted}} xona', other: '{{formatted}} xona' },
    floors: { one: '{{formatted}} qavatli', other: '{{formatted}} qavatli' },
    middleFloor: 'Oʻrta qavat ({{total}} dan {{floor}}-qavat)',
    houseNote: {
      one: 'Bu tumanning odatiy uyi boʻlsa nima oʻzgaradi: har bir qator — uy faqat shu jihatdan oʻz tumanining odatiy uyi boʻlganida baho qanchaga oʻzgarishi (odatiy uy: tumanning {{listings}} ta oʻquv uyining medianasi, eng koʻp uchraydigan bino turi, taʼmir va kommunikatsiyalar), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
      other: 'Bu tumanning odatiy uyi boʻlsa nima oʻzgaradi: har bir qator — uy faqat shu jihatdan oʻz tumanining odatiy uyi boʻlganida baho qanchaga oʻzgarishi (odatiy uy: tumanning {{listings}} ta oʻquv uyining medianasi, eng koʻp uchraydigan bino turi, taʼmir va kommunikatsiyalar), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
    },
    houseTypical: 'Tumanning odatiy uyi',
    houseGroups: { size: 'Maydon va xonalar', plot: 'Yer maydoni', place: 'Mahalla va tumandagi joy', building: 'Qavatlar soni va bino turi', renovation: 'Taʼmir', utilities: 'Gaz, suv va kanalizatsiya' },
    sotka: { one: '{{formatted}} sotix', other: '{{formatted}} sotix' },
    utilities: { gas: 'gaz', water: 'suv', sewerage: 'kanalizatsiya' },
    vehicle: {
      note: {
        model: {
          one: 'Bu shu marka va modelning odatiy avtomobili boʻlsa nima oʻzgaradi: har bir qator — avtomobil faqat shu jihatdan oʻz marka va modelining odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: uning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
          other: 'Bu shu marka va modelning odatiy avtomobili boʻlsa nima oʻzgaradi: har bir qator — avtomobil faqat shu jihatdan oʻz marka va modelining odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: uning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
        },
        make: {
          one: 'Bu shu markaning odatiy avtomobili boʻlsa nima oʻzgaradi (modelning oʻz eʼlonlari juda kam): har bir qator — avtomobil faqat shu jihatdan oʻz markasining odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: markaning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
          other: 'Bu shu markaning odatiy avtomobili boʻlsa nima oʻzgaradi (modelning oʻz eʼlonlari juda kam): har bir qator — avtomobil faqat shu jihatdan oʻz markasining odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: markaning {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
        },
        market: {
          one: 'Bu bozorning odatiy avtomobili boʻlsa nima oʻzgaradi (markaning oʻz eʼlonlari juda kam): har bir qator — avtomobil faqat shu jihatdan bozorning odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
          other: 'Bu bozorning odatiy avtomobili boʻlsa nima oʻzgaradi (markaning oʻz eʼlonlari juda kam): har bir qator — avtomobil faqat shu jihatdan bozorning odatiy avtomobili boʻlganida baho qanchaga oʻzgarishi (odatiy avtomobil: {{listings}} ta oʻquv eʼlonining medianasi, eng koʻp uchraydigan yoqilgʻi, uzatmalar qutisi, kuzov, yuritma va hudud), kattasidan boshlab. Hisobot tuzilayotganda {{version}} versiyali model bilan hisoblangan.',
        },
      },
      typical: { model: 'Shu marka va modelning odatiy avtomobili', make: 'Shu markaning odatiy avtomobili', market: 'Bozorning odatiy avtomobili' },
      groups: { year: 'Ishlab chiqarilgan yili', mileage: 'Yurgan masofasi', engine: 'Dvigatel hajmi', fuel: 'Yoqilgʻi', transmission: 'Uzatmalar qutisi', body: 'Kuzov', drive: 'Yuritma', trim: 'Komplektatsiya', condition: 'Holati', region: 'Hudud' },
      litres: 'l',
    },
  },
  market: {
    area: 'Hudud', name: 'Nomi', district: 'Tuman', mahalla: 'Mahalla', medianPerM2: '1\u00a0m² uchun soʻralgan narx medianasi', listings: 'Eʼlonlar soni',
    dataAge: 'Bozor maʼlumotlarining yoshi',
    months: { one: '{{formatted}} oy', other: '{{formatted}} oy' },
  },
  comparables: {
    columns: { label: 'Eʼlon', area: 'Maydon, m²', rooms: 'Xona', floor: 'Qavat', period: 'Davr', price: 'Eʼlondagi narx', priceAtDate: 'Baholash sanasiga', distance: 'Masofa, km' },
    note: 'Narxlar AQSH dollarida. «Baholash sanasiga» — eʼlon narxi bozor indeksi boʻyicha baholash sanasiga keltirilgan.',
    none: 'Taqqoslanadigan eʼlonlar yoʻq.',
    sameMahalla: 'shu mahalla',
  },
  location: {
    composite: 'Umumiy ball (0–100)',
    point: 'Nuqta (kenglik, uzunlik)',
    subindexes: {
      transport: 'Transport', education: 'Taʼlim', healthcare: 'Sogʻliqni saqlash', daily_needs: 'Kundalik ehtiyojlar', green: 'Yashil hududlar',
      culture: 'Madaniyat', safety: 'Xavfsizlik', centrality: 'Markazga yaqinlik', market_liquidity: 'Bozor likvidligi',
    },
    mapCaption: 'Tuman chegarasi va obyekt',
    noOutline: 'Tuman chegarasi mavjud emas',
    noData: 'maʼlumot yoʻq',
  },
  flags: {
    none: 'Ogohlantirish belgilari yoʻq.',
    unknown: 'Bu hisobotda tavsiflanmagan belgi: xizmat hujjatlariga qarang.',
    known: {
      AREA_OUTSIDE_DISTRICT_RANGE: { title: 'Maydon tuman uchun odatiy emas', explanation: 'Maydon tuman eʼlonlarining 98 foizi joylashgan oraliqdan tashqarida: model u yerda bunday uylarni kam koʻrgan, oraliq kengroq.' },
      TOTAL_FLOORS_ABOVE_DISTRICT_MAX: { title: 'Bino tuman maʼlumotlaridagi barcha binolardan baland', explanation: 'Tuman maʼlumotlarida bunchalik koʻp qavatli binodagi eʼlon yoʻq.' },
      UNUSUAL_AREA_PER_ROOM: { title: 'Bir xonaga toʻgʻri keladigan maydon odatiy emas', explanation: 'Bir xonaga 10\u00a0m² dan kam yoki 90\u00a0m² dan koʻp: maydon va xonalar sonini tekshiring.' },
      THIN_DISTRICT_DATA: { title: 'Tumanda eʼlonlar kam', explanation: 'Tumanning oʻz oraligʻi uchun eʼlonlar yetarli emas: butun shahar boʻyicha kengroq oraliq qoʻllanadi.' },
      TOP_FLOOR_OF_HIGH_RISE: { title: 'Koʻp qavatli binoning oxirgi qavati', explanation: '20 va undan ortiq qavatli binoning oxirgi qavati: bunday kvartiralar boshqacha sotiladi.' },
      FAR_FROM_DISTRICT_MEDIAN: { title: 'Tuman medianasidan uzoq', explanation: 'Baho tumandagi median narxdan 60 foizdan koʻproq yuqori yoki past.' },
      MODELS_DISAGREE: { title: 'Modellar bir-biriga mos kelmaydi', explanation: 'Ansambl modellarining baholari bahoning 20 foizidan koʻproq farq qiladi.' },
      MARKET_DATA_OLDER_THAN_12_MONTHS: { title: 'Bozor maʼlumotlari 12 oydan eski', explanation: 'Baholash sanasi model oʻrgangan eng yangi eʼlonlardan 12 oydan koʻproq keyin: narx darajasi ekstrapolyatsiya qilingan, interval oʻtgan oylar uchun kengroq, bu FSD ni oshiradi va ishonchni pasaytiradi.' },
      ASKING_PRICE_BELOW_INTERVAL: { title: 'Soʻralgan narx oraliqdan past', explanation: 'Koʻrsatilgan soʻralgan narx oraliqdan past: obyekt arzon baholangan yoki toʻliq tavsiflanmagan boʻlishi mumkin.' },
      ASKING_PRICE_ABOVE_INTERVAL: { title: 'Soʻralgan narx oraliqdan yuqori', explanation: 'Koʻrsatilgan soʻralgan narx oraliqdan yuqori: sotuvchi garov qiymatini oshirib koʻrsatayotgan boʻlishi mumkin.' },
      PLOT_NOT_GIVEN: { title: 'Yer maydoni koʻrsatilmagan', explanation: 'Uy yer uchastkasisiz baholandi, oraliq kengroq.' },
      THIN_MODEL_DATA: { title: 'Bu model boʻyicha eʼlonlar kam', explanation: 'Maʼlumotlarda ushbu marka va model eʼlonlari kam: oraliq kengroq.' },
      YEAR_OUTSIDE_MODEL_DATA: { title: 'Ishlab chiqarilgan yil maʼlumotlardan tashqarida', explanation: 'Ishlab chiqarilgan yil ushbu model eʼlonlari qamrab olgan yillardan bir yildan koʻproq farq qiladi.' },
      UNUSUAL_MILEAGE: { title: 'Yurgan masofasi odatiy emas', explanation: 'Yoshining har bir yiliga 60\u00a0000\u00a0km dan ortiq.' },
      FAR_FROM_GROUP_MEDIAN: { title: 'Model medianasidan uzoq', explanation: 'Baho xuddi shu marka, model va yildagi avtomobillarning median soʻralgan narxidan 50 foizdan koʻproq yuqori yoki past.' },
      MODEL_NOT_IN_MARKET_DATA: { title: 'Marka darajasida baholangan', explanation: 'Bu model eʼlonlari kam yoki model katalogda yoʻq: marka narxlari boʻyicha baholandi.' },
      MAKE_NOT_IN_MARKET_DATA: { title: 'Segment darajasida baholangan', explanation: 'Bu marka eʼlonlari kam: kuzovi, dvigateli va yili bir xil avtomobillar narxlari boʻyicha baholandi.' },
    },
  },
  model: {
    version: 'Model versiyasi',
    trainedAt: 'Oʻqitilgan sana',
    headline: 'Ajratilgan maʼlumotlardagi umumiy aniqlik',
    headlineText: { one: 'Oʻqitish maʼlumotlaridan yangiroq {{n}} ta eʼlonda: median mutlaq foiz xatosi (median APE) {{medianApe}}, {{level}} oraliq {{coverage}} ni qamradi.', other: 'Oʻqitish maʼlumotlaridan yangiroq {{n}} ta eʼlonda: median mutlaq foiz xatosi (median APE) {{medianApe}}, {{level}} oraliq {{coverage}} ni qamradi.' },
    accuracyFor: 'Ajratilgan maʼlumotlardagi aniqlik: {{group}}',
    medianApe: 'Median mutlaq foiz xatosi (median APE)',
    intervalCoverage: 'Oraliq ichidagi narxlar ulushi',
    n: 'Tekshiruvdagi eʼlonlar',
    accuracyClass: 'Aniqlik sinfi',
    classes: { high: 'Yuqori', good: 'Yaxshi', fair: 'Qoniqarli', low: 'Past' },
    noAccuracy: 'Bu tuman uchun aniqlik koʻrsatkichlari yoʻq.',
    heldOut: 'Ajratilgan maʼlumotlar — model oʻqitishda koʻrmagan eʼlonlar.',
  },
  adjustment: {
    baseEstimate: 'Tuzatishgacha model bahosi',
    factor: 'Koeffitsient',
    group: 'Guruh',
    observations: 'Kuzatuvlar soni',
    explanation: 'Tashkilotingiz qayd etgan narxlar model bahosini shu koeffitsientga oʻzgartirdi.',
  },
  disclaimer: {
    asking: 'Baho bitim narxi emas, balki soʻralgan narx (eʼlonlar saytlaridagi eʼlon narxi) bahosidir.',
    interval: { one: 'Oraliq narxni {{of}} holatdan {{k}} tasida oʻz ichiga olishi moʻljallangan.', other: 'Oraliq narxni {{of}} holatdan {{k}} tasida oʻz ichiga olishi moʻljallangan.' },
    review: 'Ishonchliligi past yoki ogohlantirish belgisi bor baholar baholovchiga yuboriladi.',
  },
  units: { usd: 'USD', uzs: 'soʻm', km: 'km' },
  date: '{{year}}-yil {{day}}-{{month}}',
  monthNames: UZ_MONTHS,
  localTime: 'Toshkent vaqti',
  page: '{{n}}-sahifa, jami {{total}}',
};

export const CATALOGUES: Readonly<Record<ReportLanguage, Catalogue>> = { en: EN, ru: RU, uz: UZ };

const NAMESPACE = 'report';

/** A plural message as i18next keeps it: one key per form, suffixed (months_one, months_few, …). */
const isPlural = (value: unknown): value is Plural =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Plural).one === 'string' && typeof (value as Plural).other === 'string';

/** A catalogue as i18next resources: nested keys kept, each plural spread into its suffixed forms. */
export function toResources(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (isPlural(value)) for (const [form, text] of Object.entries(value)) out[`${key}_${form}`] = text;
    else out[key] = typeof value === 'object' && value !== null && !Array.isArray(value) ? toResources(value as Record<string, unknown>) : value;
  }
  return out;
}

/** Every message path missing from i18next's answer, collected (a test holds it empty). */
export const missingMessages: string[] = [];

/** One i18next instance for the reports, made synchronously (resources inline, no backend); the backtest report adds its namespace (backtest-i18n.ts). */
export const reportI18n = i18next.createInstance();
void reportI18n.init({
  initAsync: false,
  resources: Object.fromEntries(Object.entries(CATALOGUES).map(([lang, catalogue]) => [lang, { [NAMESPACE]: toResources(catalogue as unknown as Record<string, unknown>) }])),
  ns: [NAMESPACE],
  defaultNS: NAMESPACE,
  // No language falls back to another: a missing message is a bug, seen in missingMessages.
  fallbackLng: false,
  supportedLngs: [...Object.keys(CATALOGUES)],
  // Keys hold '-' and '.' never: cbu-daily is one key.
  keySeparator: '.',
  nsSeparator: false,
  // The renderers escape (html.ts) or draw text (pdf.ts): i18next must not HTML-escape.
  interpolation: { escapeValue: false },
  returnNull: false,
  saveMissing: true,
  missingKeyHandler: (lngs, _ns, key) => missingMessages.push(`${lngs.join(',')}:${key}`),
  showSupportNotice: false,
} as Parameters<typeof reportI18n.init>[0]);

function bind(lang: ReportLanguage): Dictionary {
  const catalogue = CATALOGUES[lang];
  const t: TFunction = reportI18n.getFixedT(lang, NAMESPACE);
  const say = (key: string, values: Record<string, unknown> = {}): string => t(key, values) as string;
  return {
    ...catalogue,
    marketNotGiven: (p) => say('marketNotGiven', { p }),
    estimate: {
      ...catalogue.estimate,
      interval: (coverage) => say('estimate.interval', { coverage }),
      rate: {
        'cbu-daily': (rate, date, valuationDate) => say(date === valuationDate ? 'estimate.rate.cbu-daily' : 'estimate.rate.cbu-daily-earlier', { rate, date, valuationDate }),
        'cbu-last-published': (rate, date, valuationDate) => say('estimate.rate.cbu-last-published', { rate, date, valuationDate }),
        'cbu-monthly': (rate, date, valuationDate) => say('estimate.rate.cbu-monthly', { rate, date, valuationDate }),
        client: (rate, date, valuationDate) => say('estimate.rate.client', { rate, date, valuationDate }),
        recorded: (rate, date, valuationDate) => say('estimate.rate.recorded', { rate, date, valuationDate }),
      },
    },
    market: { ...catalogue.market, months: (count, formatted) => say('market.months', { count, formatted }) },
    model: {
      ...catalogue.model,
      accuracyFor: (group) => say('model.accuracyFor', { group }),
      headlineText: (count, values) => say('model.headlineText', { count, ...values }),
    },
    attribution: {
      ...catalogue.attribution,
      note: (count, values) => say('attribution.note', { count, ...values }),
      rooms: (count, formatted) => say('attribution.rooms', { count, formatted }),
      floors: (count, formatted) => say('attribution.floors', { count, formatted }),
      middleFloor: (floor, total) => say('attribution.middleFloor', { floor, total }),
      houseNote: (count, values) => say('attribution.houseNote', { count, ...values }),
      sotka: (count, formatted) => say('attribution.sotka', { count, formatted }),
      vehicle: {
        ...catalogue.attribution.vehicle,
        note: {
          model: (count, values) => say('attribution.vehicle.note.model', { count, ...values }),
          make: (count, values) => say('attribution.vehicle.note.make', { count, ...values }),
          market: (count, values) => say('attribution.vehicle.note.market', { count, ...values }),
        },
      },
    },
    disclaimer: (k, of) => [say('disclaimer.asking'), say('disclaimer.interval', { count: Number(k), k, of }), say('disclaimer.review')],
    date: (day, month, year) => say('date', { day, month: catalogue.monthNames[month], year }),
    page: (n, total) => say('page', { n, total }),
  };
}

export const DICTIONARIES: Readonly<Record<ReportLanguage, Dictionary>> = { en: bind('en'), ru: bind('ru'), uz: bind('uz') };

export function dictionary(lang: ReportLanguage): Dictionary {
  const found = DICTIONARIES[lang];
  if (!found) throw new RangeError(`Unknown report language "${String(lang)}": en, ru or uz`);
  return found;
}
