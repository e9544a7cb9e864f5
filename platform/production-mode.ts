/**
 * Imported first by every entry point. graphql-js checks NODE_ENV when it loads: outside
 * 'production' each instanceof goes through a slow development check (3% of a request's CPU).
 * Set NODE_ENV=development to get those checks back.
 */
process.env.NODE_ENV ??= 'production';
process.env.APOLLO_TELEMETRY_DISABLED ??= '1';
