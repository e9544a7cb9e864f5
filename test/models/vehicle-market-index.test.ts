/** The vehicle market index (matched cells per segment), on rows with known moves (the drift allowance: intervals.test.ts). */
import { fitVehicleMarketIndex, monthsPastIndex, vehicleLevelAt, vehicleSegment, type VehicleIndexRow } from '../../models/vehicle/market-index';

/** Listings of `cells` make/model/year cells in three snapshots, each snapshot's price × its level. */
function market(levels: Record<string, Record<string, number>>, makes: Record<string, string[]>): { rows: VehicleIndexRow[]; y: number[] } {
  const rows: VehicleIndexRow[] = [];
  const y: number[] = [];
  for (const [segment, byPeriod] of Object.entries(levels)) {
    for (const [period, level] of Object.entries(byPeriod)) {
      for (const [m, make] of makes[segment].entries()) {
        for (let cell = 0; cell < 12; cell++) {
          for (let k = 0; k < 4; k++) {
            rows.push({ make, model: `M${cell}`, year: 2005 + cell, period });
            // The cell's own price, the period's level, a cell-and-period wobble that averages out over the cells.
            const wobble = 0.01 * Math.sin(cell * 7 + period.length * 3 + Number(period.slice(2, 4)));
            y.push(8 + 0.1 * cell + 0.05 * m + Math.log(level) + wobble + (k % 2 === 0 ? 0.02 : -0.02));
          }
        }
      }
    }
  }
  return { rows, y };
}

describe('vehicle market index', () => {
  it('names the segments: Asaka badges, Soviet and Russian makes, the rest', () => {
    expect(['Chevrolet', 'Daewoo', 'Ravon', 'Lada', 'GAZ', 'Toyota'].map(vehicleSegment)).toEqual(['domestic', 'domestic', 'domestic', 'russian', 'russian', 'foreign']);
  });

  it('recovers each segment\'s moves from matched cells, and gives a segment without cells the market-wide step', () => {
    const { rows, y } = market(
      { domestic: { '2020-11': 1, '2022-06': 1.3, '2023-08': 1.56 }, russian: { '2020-11': 1, '2022-06': 1.1 }, foreign: { '2020-11': 1, '2022-06': 1.2 } },
      { domestic: ['Chevrolet', 'Daewoo'], russian: ['Lada'], foreign: ['Toyota'] },
    );
    // Pad the periods to the minimum size the index reads.
    const index = fitVehicleMarketIndex([...rows, ...rows, ...rows], [...y, ...y, ...y]);
    expect(index.newestPeriod).toBe('2023-08');
    const domestic = index.segments.domestic;
    expect(domestic.points.map((p) => p.period)).toEqual(['2020-11', '2022-06', '2023-08']);
    expect(domestic.steps[0].change).toBeCloseTo(Math.log(1.3), 2);
    expect(domestic.steps[1].change).toBeCloseTo(Math.log(1.2), 2);
    expect(domestic.points[0].logLevel).toBeCloseTo(-Math.log(1.56), 2);
    expect(index.segments.russian.steps[0].change).toBeCloseTo(Math.log(1.1), 2);
    // No Russian car in 2023: the market-wide (here the domestic) step, less certain than a measured one.
    expect(index.segments.russian.steps[1].cells).toBe(0);
    expect(index.segments.russian.steps[1].change).toBeCloseTo(Math.log(1.2), 2);
    expect(index.segments.russian.steps[1].se).toBeGreaterThan(domestic.steps[1].se);
  });

  it('reads the level between snapshots linearly, flat before the first and from the newest on', () => {
    const { rows, y } = market({ domestic: { '2020-11': 1, '2022-06': 1.3, '2023-08': 1.56 } }, { domestic: ['Chevrolet'] });
    const times = 5;
    const index = fitVehicleMarketIndex(Array.from({ length: times }, () => rows).flat(), Array.from({ length: times }, () => y).flat());
    expect(vehicleLevelAt(index, 'Chevrolet', '2019-01')).toBeCloseTo(-Math.log(1.56), 2);
    expect(vehicleLevelAt(index, 'Chevrolet', '2023-08')).toBe(0);
    expect(vehicleLevelAt(index, 'Chevrolet', '2026-03')).toBe(0);
    const mid = vehicleLevelAt(index, 'Chevrolet', '2023-01');
    expect(mid).toBeGreaterThan(-Math.log(1.2));
    expect(mid).toBeLessThan(0);
    expect(monthsPastIndex(index, '2026-03')).toBe(31);
    expect(monthsPastIndex(index, '2022-01')).toBe(0);
  });
});
