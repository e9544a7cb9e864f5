/**
 * GraphQL's camelCase names in REST's snake_case (uzbekLatin → uzbek_latin, maeUsd → mae_usd,
 * pricePerM2 → price_per_m2; ppe10 stays): REST and MCP replies built from graph data speak the
 * names every other REST reply does.
 */
export type Snake<T> = T extends readonly (infer U)[] ? Snake<U>[] : T extends object ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: Snake<T[K]> } : T;
type SnakeKey<S extends string> = S extends `${infer H}${infer R}` ? `${H extends Uppercase<H> ? (H extends Lowercase<H> ? H : `_${Lowercase<H>}`) : H}${SnakeKey<R>}` : S;

/** Names converted so far: a results export converts the same few dozen keys on every line. Bounded, since keys can be data. */
const converted = new Map<string, string>();
const MAX_REMEMBERED = 10_000;

function snakeKey(key: string): string {
  let snake = converted.get(key);
  if (snake === undefined) {
    snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    if (converted.size < MAX_REMEMBERED) converted.set(key, snake);
  }
  return snake;
}

export function snakeCaseKeys<T>(value: T): Snake<T> {
  if (Array.isArray(value)) return value.map(snakeCaseKeys) as Snake<T>;
  if (value === null || typeof value !== 'object') return value as Snake<T>;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeKey(k), snakeCaseKeys(v)])) as Snake<T>;
}
