/** MCP clients (the SDK's own) over both transports, for the tests in this folder. */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { TOOLS } from '../../gateway/mcp/tools';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import type { TestStack } from '../support/stack';

/** The compiled stdio entry, beside this test's compiled folder (dist/ or any other outDir). */
export const STDIO_MAIN = join(__dirname, '..', '..', 'gateway', 'mcp', 'stdio-main.js');

export interface Connected {
  client: Client;
  /** What the stdio server wrote to stderr (its logs). */
  stderr(): string;
  close(): Promise<void>;
}

const newClient = () => new Client({ name: 'valuation-tests', version: '1.0.0' });

/** Streamable HTTP at the gateway's /mcp, with the given headers (X-API-Key or Authorization). */
export async function connectHttp(stack: Pick<TestStack, 'url'>, headers: Record<string, string>): Promise<Connected> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', stack.url), { requestInit: { headers } }));
  return { client, stderr: () => '', close: () => client.close() };
}

/** The stdio entry as a desktop assistant starts it: a process with the key and the gateway's URL in its environment. */
export async function connectStdio(stack: TestStack, apiKey: string): Promise<Connected> {
  const client = newClient();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [STDIO_MAIN],
    env: { VALUATION_URL: stack.url, VALUATION_API_KEY: apiKey },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export const TRANSPORTS = [
  ['Streamable HTTP', (stack: TestStack, key: string) => connectHttp(stack, { 'x-api-key': key })],
  ['stdio', connectStdio],
] as const;

/** The text of a tool result's blocks. */
export function texts(result: CallToolResult): string[] {
  return result.content.map((c) => (c.type === 'text' ? c.text : ''));
}

/** A tool error's body (the JSON after the first line of its text). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toolErrorBody(result: CallToolResult): any {
  expect(result.isError).toBe(true);
  const [text] = texts(result);
  return JSON.parse(text.slice(text.indexOf('\n') + 1)).error;
}

/** Each tool's full reply schema: tools/list publishes an outline, the tests hold replies to the whole contract. */
const ajv = new Ajv({ strict: false, allowUnionTypes: true });
addFormats(ajv);
const FULL_REPLY = new Map(TOOLS.map((tool) => [tool.name, ajv.compile(tool.output)]));

/** A call that must succeed; its structured reply, checked against the tool's full reply schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<{ reply: any; summary: string; result: CallToolResult }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${texts(result).join('\n')}`);
  const valid = FULL_REPLY.get(name)!;
  if (!valid(result.structuredContent)) throw new Error(`${name}'s reply does not match its schema: ${ajv.errorsText(valid.errors)}`);
  return { reply: result.structuredContent, summary: texts(result)[0], result };
}

/** SAMPLE_HOME_REQUEST in the tool's argument names (the English aliases of qurilish_turi, mebel, sanuzel). */
const { qurilish_turi, mebel, sanuzel, ...SAMPLE_HOME_COMMON } = SAMPLE_HOME_REQUEST;
export const SAMPLE_HOME_ARGUMENTS = { ...SAMPLE_HOME_COMMON, building_type: qurilish_turi, furniture: mebel, bathroom: sanuzel } as const;
