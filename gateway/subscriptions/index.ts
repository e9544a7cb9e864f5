/**
 * Subscriptions served by the gateway (graphql-ws on /graphql; not federated): `batchProgress(id)`,
 * read from the batch engine the stack passes in (gateway/index.ts `GatewayOptions.batchProgress`).
 */

export { BATCH_PROGRESS_SDL, SUBSCRIPTIONS_NOTE, batchProgressSchema, type BatchProgressSource, type SubscriptionContext } from './batch-progress-schema';
export { CLOSE_RATE_LIMITED, SUBSCRIPTIONS_PATH, principalOf, startSubscriptionServer, type SubscriptionServer, type SubscriptionServerOptions } from './server';
