/**
 * What a reply of recordObservations (GraphQL) and POST /api/observations (REST) may hold, stated
 * once for the observations subgraph that answers and the gateway's REST door that lists it in parts.
 */

/** The refused items a reply lists, the first ones, beside their count (issue 33, finding 3): a million junk lines do not make a reply of a million errors. */
export const MAX_REJECTED_LISTED = 1_000;
