/**
 * Where the checked-in contract files are: the composed supergraph the gateway plans over at run
 * time, and the OpenAPI document. The build scripts in tools/ write them; the processes read them.
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../models/paths';

export const SCHEMA_DIR = join(PROJECT_ROOT, 'schema');
export const SUPERGRAPH_PATH = join(SCHEMA_DIR, 'supergraph.graphql');
export const OPENAPI_PATH = join(SCHEMA_DIR, 'openapi.json');
