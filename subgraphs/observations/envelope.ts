/** The observation envelope's checks live in subgraphs/common, shared with the batch subgraph's backtests. */
export { checkDate, checkObservation, MAX_PRICE_USD, MAX_REFERENCE_LENGTH, type ForwardedItem } from '../common/observation-envelope';
