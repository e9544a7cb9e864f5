/**
 * What lists cost in the cost check (./limits.ts): the items a list field may return, the items it
 * skips, and the items of a list argument, also when it sits inside an input object. Without this,
 * 20 aliases of `observations(limit: 10000, offset: …)` cost 20 × 14 and answered 86 MB in 19.5 s
 * while the other banks waited (issue 33, finding 3), and `recordObservations(input: { observations:
 * [30,000 items] })` cost 3 (finding 2).
 */
import type { ComplexityEstimator } from 'graphql-query-complexity';

/** Arguments that say how many items a list field returns. */
const SIZE_ARGUMENTS = ['limit', 'n', 'first'] as const;

/**
 * Items a sized list field returns when its size argument is omitted: the subgraphs' defaults.
 * A sized field not listed here is priced at UNKNOWN_DEFAULT_SIZE (a test holds the table to the schema).
 */
export const DEFAULT_LIST_SIZES: Readonly<Record<string, number>> = {
  'Query.observations': 100,
  'Query.valuations': 50,
  'Query.valuationSample': 20,
  'Query.comparableListings': 5,
  'Query.batchJobs': 20,
  'Query.batchResults': 100,
};
const UNKNOWN_DEFAULT_SIZE = 1000;

/**
 * Items skipped per unit of cost. A skipped item is an index step in the store (the file store adds
 * the offset to an index, Redis walks its sorted set), where a returned one is decoded, resolved and
 * serialised; so skipping is priced, lightly: the export's page of 10,000 at an offset of 1,000,000
 * still fits the default limit of 20,000.
 */
export const SKIPPED_ITEMS_PER_UNIT = 1000;

/**
 * The most times one operation may select a heavy field (a sized list, a report over the organisation's
 * observations), aliases and fragment spreads included: a few for a dashboard, not 20 in one request.
 */
export const MAX_HEAVY_SELECTIONS = 4;
/** Heavy fields besides the sized lists: each reads all of the organisation's observations of a kind. */
const HEAVY_REPORT_FIELDS = new Set(['Query.liveAccuracy']);

const integer = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/** Items of the lists in an argument's value: its own, and those of input objects inside it (not those inside list items). */
function listItems(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let items = 0;
  for (const inner of Object.values(value)) items += listItems(inner);
  return items;
}

const coordinate = (type: { name: string }, field: { name: string }) => `${type.name}.${field.name}`;

/** The argument (limit, n, first) that sizes a list field in the schema, if any. */
function sizeArgumentOf(field: { args: readonly { name: string }[] }): string | undefined {
  return field.args.find((arg) => (SIZE_ARGUMENTS as readonly string[]).includes(arg.name))?.name;
}

export const isSizedListField = (field: { args: readonly { name: string }[] }): boolean => sizeArgumentOf(field) !== undefined;

/**
 * A list field's cost: one per item it may return (its size argument, else its default), one per
 * SKIPPED_ITEMS_PER_UNIT it skips, one per item of its list arguments, and its selection once (an
 * item costs one whatever is selected of it, so the largest page of the largest list fits once).
 */
export const listEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const sizeArgument = sizeArgumentOf(field);
  const items = Object.values(args).reduce<number>((sum, value) => sum + listItems(value), 0);
  if (sizeArgument === undefined && items === 0) return undefined;
  // Omitted or null: the subgraph's default.
  const given = sizeArgument === undefined ? 0 : args[sizeArgument];
  const size = given == null ? DEFAULT_LIST_SIZES[coordinate(type, field)] ?? UNKNOWN_DEFAULT_SIZE : integer(given);
  return size + Math.ceil(integer(args.offset) / SKIPPED_ITEMS_PER_UNIT) + items + childComplexity;
};

/**
 * Counts the selections of heavy fields as the complexity walk meets them; prices nothing itself.
 * `refuse` is called with the field's coordinate once it is selected more than MAX_HEAVY_SELECTIONS times.
 */
export function heavySelectionCounter(refuse: (coordinate: string, selections: number) => never): ComplexityEstimator {
  const selections = new Map<string, number>();
  return ({ type, field }) => {
    const name = coordinate(type, field);
    if (!isSizedListField(field) && !HEAVY_REPORT_FIELDS.has(name)) return undefined;
    const count = (selections.get(name) ?? 0) + 1;
    selections.set(name, count);
    if (count > MAX_HEAVY_SELECTIONS) refuse(name, count);
    return undefined;
  };
}
