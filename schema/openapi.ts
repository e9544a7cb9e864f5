/** The checked-in OpenAPI document (schema/openapi.json), emitted from the gateway's route modules. */
import { join } from 'node:path';
import { API_VERSION } from '../gateway/http/app';
import { openApiDocument } from '../gateway/ops/openapi';
import { BATCH_PROGRESS_SDL } from '../gateway/subscriptions';
import { SCHEMA_DIR } from './subgraphs';

export const OPENAPI_PATH = join(SCHEMA_DIR, 'openapi.json');

/** Not REST, but clients of /api/batch want to know: progress is pushed over graphql-ws by the gateway itself. */
export const SUBSCRIPTIONS_NOTE = {
  protocol: 'graphql-ws (graphql-transport-ws subprotocol)',
  url: 'ws(s)://<host>/graphql',
  authentication: 'connection_init payload { "x-api-key": "<key>" } or { "authorization": "Bearer <jwt>" }; bad credentials close the socket with 4403, and so does a subscribe (or the next event of a running subscription) once the key is revoked',
  served_by: 'the gateway itself (Apollo Gateway does not federate subscriptions); its types are in /graphql introspection',
  schema: BATCH_PROGRESS_SDL,
  notes: "Events at least once a second while the job runs, then exactly one with final: true, after which the subscription completes. Another organisation's or an unknown id: an error with extensions.code NOT_FOUND and no events.",
};

export function emittedOpenApi(): string {
  return `${JSON.stringify({ 'x-generated': 'GENERATED FILE, DO NOT EDIT: rebuild with `npm run schema`', ...openApiDocument(API_VERSION), 'x-graphql-subscriptions': SUBSCRIPTIONS_NOTE }, null, 2)}\n`;
}
