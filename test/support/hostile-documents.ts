/** GraphQL documents shaped as attacks, for the tests and benches that send them. */

/**
 * A fragment chain where each fragment spreads the next twice: 2^levels fields from about 40 bytes
 * a level (issue 13, finding 1). On `root` (Query or Subscription), as an operation of that kind.
 */
export function fragmentBomb(levels: number, root: 'Query' | 'Subscription' = 'Query'): string {
  let document = `${root.toLowerCase()} { ...F1 }`;
  for (let i = 1; i < levels; i++) document += ` fragment F${i} on ${root} { ...F${i + 1} ...F${i + 1} }`;
  return `${document} fragment F${levels} on ${root} { __typename }`;
}
