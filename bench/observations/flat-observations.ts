/** Observed flat prices for the service benches (./service.ts, ./point-in-time.ts), as a bank would send them. */

export const DISTRICTS = ['Chilanzar', 'Yunusabad', 'Mirzo Ulugbek', 'Yakkasaray', 'Shaykhantakhur', 'Almazar', 'Mirabad', 'Sergeli', 'Uchtepa', 'Yashnabad', 'Bektemir', 'Yangihayot'];

/** The day `back` days before today, YYYY-MM-DD. */
export const daysAgo = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

/** `n` flats across the districts, priced at a plausible 1,100–1,500 USD/m² with scatter, dated over the last `spanDays` days. */
export function flatObservations(n: number, seed: number, spanDays: number) {
  return Array.from({ length: n }, (_, i) => {
    const area = 35 + ((i * 7 + seed) % 90);
    const totalFloors = 4 + (i % 13);
    return {
      kind: 'home', district: DISTRICTS[i % DISTRICTS.length], area, rooms: 1 + Math.min(4, Math.floor(area / 28)), floor: 1 + (i % totalFloors), total_floors: totalFloors,
      market: i % 3 === 0 ? 'new' : 'resale', price_usd: Math.round(area * (1100 + ((i * 37 + seed) % 400))), observed_at: daysAgo(i % spanDays), price_type: 'sale', reference: `bench-${seed}-${i}`,
    };
  });
}
