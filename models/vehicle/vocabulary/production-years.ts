/**
 * When each model was made: a request for a model year before production began is refused (a 1985
 * Cobalt is a typo, not collateral). Years are the first and last model years built for sale in
 * Uzbekistan's market (UzAuto for the Asaka cars; the maker's own years for imports); null `to` =
 * still made, or a name the sites still use for a later car. A model not listed here is checked only
 * against the field's own range.
 *
 * Checked against the ingested listings (test/models/vehicle-production-years.test.ts): where many
 * listings fell outside an entry the entry was wrong and was fixed (the Lacetti name came back for the
 * Gentra, so it has no end; the Nexia 3 and the Tico were made longer than their first end dates).
 * What still falls before `from` is the sellers' naming, kept as evidence, not fitted away: Daewoo
 * Nexias listed as Nexia 2 (priced as Daewoo Nexias of their year), Matizes as Matiz Creative, new
 * Monzas with a model year of 1996.
 *
 * Left out: the rear-wheel-drive Zhigulis (2101–2107), the Volgas and the Moskvichs, whose names in
 * the listings do not follow production years: 60 of the 2106s are of 1971–1975 and priced near
 * 2103s of their year, 16 of the 2107s of 1979–1981, 25 of the GAZ 2410s of 1970–1984 and priced as
 * GAZ 24s. A refusal by production year would refuse those cars as the market names them.
 */
import { badgeFamily } from './resolve';

export interface ProductionYears {
  from: number;
  to: number | null;
}

type Table = Readonly<Record<string, Readonly<Record<string, ProductionYears>>>>;
const since = (from: number): ProductionYears => ({ from, to: null });
const span = (from: number, to: number): ProductionYears => ({ from, to });

/** By canonical make; a badge family's shared names (Damas, Matiz, Nexia 2, Gentra) under its first make, Chevrolet. */
const PRODUCTION_YEARS: Table = {
  Chevrolet: {
    // The Asaka line-up, all badges (Daewoo until 2008, Ravon 2015–2020).
    Cobalt: since(2011), // Brazil 2011; Uzbek production 2012
    Spark: since(2010), // the M300 in Asaka
    Lacetti: since(2003), // Daewoo Lacetti 2003; UzAuto sells the Gentra as Lacetti again, so no end
    Gentra: since(2013),
    'Nexia 2': span(2008, 2016),
    // Said to end in 2020; the 2022 and 2023 files have 151 of model years 2022–2023, at new-car prices.
    'Nexia 3': since(2016),
    Damas: since(1991),
    Labo: since(1991),
    Matiz: since(1998),
    'Matiz Best': since(2005), // the restyled Matiz
    Captiva: since(2006),
    Malibu: since(2012), // sellers also call the Malibu 2 a Malibu
    'Malibu 2': since(2016),
    Tracker: since(2013),
    'Tracker 2': since(2019),
    'Tracker Premier': since(2019),
    Onix: since(2019),
    Monza: since(2019), // the Chinese sedan; 13 listings of 2023 give 1991 or 1996 at new-car prices
    Epica: span(2006, 2011),
    Equinox: since(2005),
    Orlando: span(2011, 2022), // Korean and Uzbek 2011–2018, then the Chinese one
    TrailBlazer: since(2002),
    Cruze: since(2009),
    Niva: span(2002, 2020),
    Tacuma: span(2000, 2008),
    Aveo: since(2002),
    Tahoe: since(1995),
    Traverse: since(2009),
    Suburban: since(1935),
    Blazer: since(1969),
    Impala: since(1958),
    Camaro: since(1967),
    Bolt: since(2017),
    Menlo: since(2020),
    Evanda: span(2004, 2006),
    Lanos: since(1997), // Daewoo 1997–2002, then ZAZ
    Lumina: span(1990, 2001),
    Caprice: since(1965),
  },
  Daewoo: {
    Nexia: span(1995, 2016),
    'Matiz Creative': span(2009, 2011),
    // Korea ended it in 2001; Asaka went on: the 2020 file has 69 of model years 2002–2004.
    Tico: span(1991, 2004),
    Prince: span(1991, 1997),
    Espero: span(1990, 1999),
    Kalos: since(2002),
    Leganza: span(1997, 2002),
    Magnus: span(2000, 2006),
    Nubira: span(1997, 2002),
    Racer: span(1986, 1994),
    Brougham: since(1991),
    Korando: since(1983), // SsangYong's, badged Daewoo 1998–2000
    Musso: span(1993, 2005), // likewise
  },
  Ravon: {
    'Nexia R3': span(2016, 2020), // the Nexia 3
    R2: span(2016, 2020), // the Spark
    R4: span(2016, 2020), // the Cobalt
  },
  Lada: {
    '2108': span(1984, 2003),
    '2109': span(1987, 2004),
    '21099': span(1990, 2004),
    '2110': span(1995, 2007),
    '2111': span(1998, 2009),
    '2112': span(1999, 2008),
    '2113': span(2004, 2013),
    '2114': span(2001, 2013),
    '2115': span(1997, 2012),
    Niva: since(1977),
    'Niva 5-door': since(1993),
    'Niva 2123': since(2002), // the Chevrolet Niva's factory code
    Vesta: since(2015),
    'Vesta Sport': since(2018),
    XRAY: span(2015, 2022),
    Granta: since(2011),
    Largus: since(2012),
    Priora: span(2007, 2018),
    Kalina: span(2004, 2013),
    'Kalina 2': span(2013, 2018),
  },
  Kia: {
    Sportage: since(1993),
    Sorento: since(2002),
    Carnival: since(1998),
    K5: since(2010),
    Optima: since(2000),
    Rio: since(2000),
    Cerato: since(2003),
    Forte: since(2008),
    Seltos: since(2019),
    Sonet: since(2020),
    Soul: since(2008),
    Stinger: span(2017, 2023),
    K8: since(2021),
    K3: since(2012),
    EV6: since(2021),
    Bongo: since(1980),
  },
  Hyundai: {
    Elantra: since(1990),
    Avante: since(1990),
    Sonata: since(1985),
    Tucson: since(2004),
    'Santa Fe': since(2000),
    Creta: since(2014),
    Accent: since(1994),
    Solaris: since(2010),
    Palisade: since(2018),
    Staria: since(2021),
    Starex: since(1997), // the name stayed on the second generation in many markets
    'Grand Starex': span(2007, 2021),
    'H-1': span(1997, 2021),
    Porter: since(1977),
    Grandeur: since(1986),
    i30: since(2007),
    Kona: since(2017),
    Getz: span(2002, 2011),
    Tuscani: span(1996, 2008),
  },
  Toyota: {
    Camry: since(1982),
    Corolla: since(1966),
    RAV4: since(1994),
    'Land Cruiser': since(1951),
    'Land Cruiser Prado': since(1990),
    Highlander: since(2000),
    bZ4X: since(2022),
    HiAce: since(1967),
    Hilux: since(1968),
    Sienna: since(1997),
    Alphard: since(2002),
    Estima: span(1990, 2019),
    Yaris: since(1999),
    Avalon: span(1994, 2022),
    'Carina E': span(1992, 1997),
  },
};

/** The model years the make's model was made in, or null when the catalogue does not know. */
export function productionYears(make: string, model: string): ProductionYears | null {
  return PRODUCTION_YEARS[make]?.[model] ?? PRODUCTION_YEARS[badgeFamily(make)]?.[model] ?? null;
}

/** Every entry, for the check against the listings. */
export function productionYearEntries(): { make: string; model: string; years: ProductionYears }[] {
  return Object.entries(PRODUCTION_YEARS).flatMap(([make, models]) => Object.entries(models).map(([model, years]) => ({ make, model, years })));
}
