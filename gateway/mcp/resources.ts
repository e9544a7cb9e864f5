/**
 * MCP resources: context an assistant may attach before it calls a tool.
 * - The model cards (docs/*MODEL_CARD.md): what the models are for, how they were tested, where
 *   they are weak. Read from disk at each read, since retraining regenerates them.
 * - The district list with mahallas, from the API (list_districts' reply), so the names are
 *   the ones value_home accepts.
 * A failed read is a JSON-RPC error (resources have no isError) carrying the API's error body.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../models/paths';
import { ApiError } from '../../schema/errors';
import type { GraphExecutor } from '../graph/executor';
import { DISTRICTS_OPERATION, type DistrictData } from '../operations/location';
import { districtsReply } from './replies';

export const MODEL_CARDS = [
  { name: 'residential-model-card', uri: 'valuation://model-cards/residential', file: 'MODEL_CARD.md', title: 'Model card: residential (flat) valuation model', description: 'Intended use and limits, data, held-out accuracy overall and per district, interval calibration and comparison with the service it replaces, for the residential model in service.' },
  { name: 'vehicle-model-card', uri: 'valuation://model-cards/vehicle', file: 'VEHICLE_MODEL_CARD.md', title: 'Model card: used vehicle valuation model', description: 'Intended use and limits, data, held-out accuracy overall and per make/model group, and interval calibration, for the vehicle model in service.' },
] as const;

export const DISTRICTS_URI = 'valuation://districts';

export interface ResourceDeps {
  executor: GraphExecutor;
  log(message: string): void;
  /** Where the model cards are. @default <project>/docs */
  docsDir?: string;
}

export function registerResources(server: McpServer, deps: ResourceDeps): void {
  const docs = deps.docsDir ?? join(PROJECT_ROOT, 'docs');
  for (const card of MODEL_CARDS) {
    const file = join(docs, card.file);
    // A deployment without the docs (an installed stdio server) lists no card rather than one that cannot be read.
    if (!existsSync(file)) continue;
    server.registerResource(card.name, card.uri, { title: card.title, description: card.description, mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readFileSync(file, 'utf8') }],
    }));
  }

  server.registerResource('districts', DISTRICTS_URI, {
    title: 'Districts and mahallas of Tashkent',
    description: 'The 12 districts with their names in English, Uzbek and Russian, centroids, and mahallas (id, Latin and Cyrillic names, centre), as list_districts returns them: the names value_home accepts.',
    mimeType: 'application/json',
  }, async (uri) => {
    try {
      const data = await deps.executor.execute<{ districts: DistrictData[] }>(DISTRICTS_OPERATION, { withMahallas: true });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(districtsReply(data.districts, true, [])) }] };
    } catch (error) {
      if (!(error instanceof ApiError)) deps.log(`mcp resource ${uri.href} failed: ${(error as Error)?.stack ?? String(error)}`);
      const reply = (error instanceof ApiError ? error : new ApiError('INTERNAL')).toReply();
      throw new McpError(ErrorCode.InternalError, `${reply.error.code}: ${reply.error.message}`, reply);
    }
  });
}
