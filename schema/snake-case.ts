/**
 * GraphQL's camelCase names in REST's snake_case (uzbekLatin → uzbek_latin, maeUsd → mae_usd,
 * pricePerM2 → price_per_m2; ppe10 stays): REST and MCP replies built from graph data speak the
 * names every other REST reply does.
 */
export type Snake<T> = T extends readonly (infer U)[] ? Snake<U>[] : T extends object ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: Snake<T[K]> } : T;
type SnakeKey<S extends string> = S extends `${infer H}${infer R}` ? `${H extends Uppercase<H> ? (H extends Lowercase<H> ? H : `_${Lowercase<H>}`) : H}${SnakeKey<R>}` : S;

export function snakeCaseKeys<T>(value: T): Snake<T> {
  if (Array.isArray(value)) return value.map(snakeCaseKeys) as Snake<T>;
  if (value === null || typeof value !== 'object') return value as Snake<T>;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), snakeCaseKeys(v)])) as Snake<T>;
}
