/** The checked-in OpenAPI document (schema/openapi.json), emitted from the gateway's route modules. */
import { join } from 'node:path';
import { API_VERSION } from '../gateway/http/app';
import { openApiDocument } from '../gateway/ops/openapi';
import { SCHEMA_DIR } from './subgraphs';

export const OPENAPI_PATH = join(SCHEMA_DIR, 'openapi.json');

export function emittedOpenApi(): string {
  return `${JSON.stringify({ 'x-generated': 'GENERATED FILE, DO NOT EDIT: rebuild with `npm run schema`', ...openApiDocument(API_VERSION) }, null, 2)}\n`;
}
