#!/usr/bin/env node
/**
 * The MCP server over stdio, for desktop assistants that start their tools as processes
 * (`npm run --silent mcp`, or the `tashkent-valuation-mcp` bin). It holds no models: every tool
 * call is a GraphQL operation sent to the running gateway with the organisation's API key, so
 * authentication, quotas and errors are the gateway's.
 *
 * Environment:
 * - VALUATION_API_KEY (required): the organisation's key (npm run keys -- create …).
 * - VALUATION_URL: the gateway. @default http://127.0.0.1:4000
 *
 * stdout carries the protocol: everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { remoteExecutor } from './remote-executor';
import { buildMcpServer, SERVER_INFO } from './server';

const DEFAULT_URL = 'http://127.0.0.1:4000';

async function main(): Promise<void> {
  const log = (message: string) => process.stderr.write(`[${SERVER_INFO.name} mcp] ${message}\n`);
  const apiKey = process.env.VALUATION_API_KEY?.trim();
  if (!apiKey) {
    log('VALUATION_API_KEY is not set: put your organisation\'s API key (npm run keys -- create --org <org>) in the environment the assistant starts this server with');
    process.exit(2);
  }
  const url = process.env.VALUATION_URL?.trim() || DEFAULT_URL;
  try {
    new URL(url);
  } catch {
    log(`VALUATION_URL is not a URL: ${url}`);
    process.exit(2);
  }
  const server = buildMcpServer({ executor: remoteExecutor({ url, apiKey, userAgent: `${SERVER_INFO.name}-mcp-stdio/${SERVER_INFO.version}` }), log });
  const transport = new StdioServerTransport();
  // The assistant ends the session by closing stdin: exit then, whatever keep-alive sockets remain.
  process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
  await server.connect(transport);
  log(`serving over stdio; operations go to ${url}`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
