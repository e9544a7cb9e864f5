/** Deterministic uniform(0, 1) and standard normal draws for tests (Park–Miller; Box–Muller). */
export function random(seed: number): { uniform: () => number; normal: () => number } {
  let state = seed;
  const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}
