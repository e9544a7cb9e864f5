/** The production-years table: complete for the models banks ask about, and checked against the listings. */
import { ingestVehicles, type VehicleRecord } from '../../models/vehicle/ingest';
import { modelsOf, productionYears, resolveMake, resolveModel } from '../../models/vehicle/vocabulary';
import { productionYearEntries } from '../../models/vehicle/vocabulary/production-years';

let records: VehicleRecord[];
beforeAll(() => {
  records = ingestVehicles().records;
});

const beforeProduction = (r: VehicleRecord) => {
  const years = productionYears(r.make, r.model);
  return years !== null && r.year < years.from;
};

describe('the table', () => {
  test('every entry names a catalogue model, with a first year not after its last', () => {
    for (const { make, model, years } of productionYearEntries()) {
      expect([make, resolveModel(make, model)]).toEqual([resolveMake(make), model]);
      expect(years.from).toBeGreaterThanOrEqual(1930);
      expect(years.to ?? 2026).toBeGreaterThanOrEqual(years.from);
      expect(years.to ?? 2026).toBeLessThanOrEqual(2026);
    }
  });

  test('every Asaka model under every badge, and the popular Lada, Kia, Hyundai and Toyota models, have years', () => {
    const wanted: Record<string, string[]> = {
      Chevrolet: modelsOf('Chevrolet'), Daewoo: modelsOf('Daewoo'), Ravon: modelsOf('Ravon'),
      Lada: ['Vesta', 'XRAY', 'Granta', 'Largus', 'Priora', 'Kalina', 'Niva'],
      Kia: ['K5', 'Sportage', 'Sorento', 'Seltos', 'Sonet', 'Rio', 'Cerato', 'Carnival'],
      Hyundai: ['Elantra', 'Sonata', 'Tucson', 'Santa Fe', 'Creta', 'Accent', 'Palisade', 'Starex', 'Porter'],
      Toyota: ['Camry', 'Corolla', 'RAV4', 'Land Cruiser', 'Land Cruiser Prado', 'Highlander'],
    };
    const missing = Object.entries(wanted).flatMap(([make, models]) => models.filter((m) => productionYears(make, m) === null).map((m) => `${make} ${m}`));
    expect(missing).toEqual([]);
  });

  test('badges share their car\'s years; a make\'s own model wins over the family\'s', () => {
    expect(productionYears('Chevrolet', 'Cobalt')).toEqual({ from: 2011, to: null });
    expect(productionYears('Daewoo', 'Nexia')).toEqual({ from: 1995, to: 2016 });
    expect(productionYears('Daewoo', 'Nexia 2')).toEqual({ from: 2008, to: 2016 }); // the Chevrolet's
    expect(productionYears('Ravon', 'Gentra')).toEqual({ from: 2013, to: null });
    expect(productionYears('Daewoo', 'Damas')).toEqual({ from: 1991, to: null });
    expect(productionYears('Ravon', 'Nexia R3')).toEqual({ from: 2016, to: 2020 });
    expect(productionYears('Lada', '2106')).toBeNull(); // left out: see the table's header
    expect(productionYears('No Such Make', 'Cobalt')).toBeNull();
  });
});

describe('against the listings', () => {
  test('no more than 0.5% of the ingested records fall before their model\'s first year', () => {
    const early = records.filter(beforeProduction);
    expect(early.length / records.length).toBeLessThanOrEqual(0.005);
    // Where they are: sellers' names (Daewoo Nexias as Nexia 2, Matizes as Matiz Creative, Lacettis as
    // Gentra), and new Monzas given 1991 or 1996; no other model has more than 7.
    const byModel = new Map<string, number>();
    for (const r of early) byModel.set(`${r.make} ${r.model}`, (byModel.get(`${r.make} ${r.model}`) ?? 0) + 1);
    const many = [...byModel].filter(([, n]) => n > 7).sort(([a], [b]) => a.localeCompare(b));
    expect(many).toEqual([['Chevrolet Gentra', 15], ['Chevrolet Monza', 13], ['Chevrolet Nexia 2', 59], ['Daewoo Matiz Creative', 22]]);
  });

  test('the Nexia 2s listed before 2008 are priced as Daewoo Nexias of their year', () => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    // Most are in the Chevrolet-only 2023 file; the 2022 file's Daewoo Nexias are their yardstick.
    const early = records.filter((r) => r.model === 'Nexia 2' && r.year < 2008 && r.source === 'avtoelon_chevrolet_2023');
    const ratios = early.flatMap((r) => {
      const nexias = records.filter((n) => n.make === 'Daewoo' && n.model === 'Nexia' && n.year === r.year && n.source === 'avtoelon_2022');
      return nexias.length >= 5 ? [r.priceUsd / median(nexias.map((n) => n.priceUsd))] : [];
    });
    expect(ratios.length).toBeGreaterThan(20);
    // about the 15–25% the market rose between the scrapes, no more
    expect(median(ratios)).toBeGreaterThan(1);
    expect(median(ratios)).toBeLessThan(1.3);
  });
});
