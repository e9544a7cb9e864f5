/**
 * The MCP server of the valuation service, built over a GraphExecutor so it does not know where
 * the operations run: in the gateway for Streamable HTTP (./http.ts, one server per request),
 * or through the gateway's /graphql for stdio (./stdio-main.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GraphExecutor } from '../graph/executor';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerTools } from './tools';

/** What initialize answers; `version` is the MCP surface's own (tools, arguments, replies). */
export const SERVER_INFO = { name: 'tashkent-valuation', title: 'Tashkent collateral valuation', version: '1.0.0' } as const;

/** Sent to the client at initialize: what an assistant should know before its first call. */
export const INSTRUCTIONS = [
  'Collateral valuation for Uzbek banks: flats in Tashkent city (value_home), used vehicles (value_vehicle), how good a Tashkent location is (location_index), addresses to coordinates (geocode_address), the districts and mahallas (list_districts), portfolios in the background (submit_batch, get_batch_status), and the models\' held-out accuracy (get_model_accuracy).',
  'Every valuation has an estimate in USD (in soʻm with currency UZS), a calibrated 90% interval and a confidence level: report all three, never the estimate alone, and send low-confidence or flagged valuations to a valuer.',
  'Tool arguments use the REST API\'s snake_case names. Errors come back as tool errors led by the API\'s error code and the argument at fault; correct the argument rather than guessing. No personal data is accepted.',
  'Resources: the model cards (valuation://model-cards/residential, valuation://model-cards/vehicle) and the district list (valuation://districts). Prompt: revalue_collateral.',
].join(' ');

export interface McpServerDeps {
  executor: GraphExecutor;
  log(message: string): void;
  /** The HTTP request's id, echoed in tool error bodies (Streamable HTTP only). */
  requestId?: string;
  /** Where the model cards are. @default <project>/docs */
  docsDir?: string;
}

export function buildMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerTools(server, deps);
  registerResources(server, deps);
  registerPrompts(server);
  return server;
}
