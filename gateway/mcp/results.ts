/**
 * Tool results on the wire. Success: the reply as `structuredContent`, a sentence to quote, and
 * the reply's JSON as text too (MCP asks for it, for clients that read no structured content).
 * Failure: an MCP tool error (`isError: true`, so the agent sees it and can correct itself, not a
 * protocol error) whose text leads with the catalogue code and the argument at fault, then the
 * API's error body. Anything that is not an ApiError is a bug: logged, and answered INTERNAL.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../schema/errors';

export function toolSuccess(reply: object, summary: string): CallToolResult {
  return {
    structuredContent: reply as Record<string, unknown>,
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(reply) },
    ],
  };
}

export interface ToolErrorOptions {
  /** The API's field names → the tool's argument names, where they differ (name → district). */
  argumentNames?: Readonly<Record<string, string>>;
  requestId?: string;
  log(message: string): void;
}

/**
 * The gateway request an error came back from, where the tool's own request is not the gateway's
 * (the stdio server: each of its operations is a request of its own, ./remote-executor.ts).
 */
const gatewayRequestIds = new WeakMap<ApiError, string>();

/** Marks `error` as the answer of the gateway's request `requestId`; returns it. */
export function fromGatewayRequest(error: ApiError, requestId: string): ApiError {
  gatewayRequestIds.set(error, requestId);
  return error;
}

export function toolError(error: unknown, options: ToolErrorOptions): CallToolResult {
  const apiError = error instanceof ApiError ? renamed(error, options.argumentNames ?? {}) : internal(error, options.log);
  const reply = apiError.toReply(options.requestId ?? (error instanceof ApiError ? gatewayRequestIds.get(error) : undefined));
  const { code, field, message, suggestions } = reply.error;
  const at = field ? ` (argument ${field})` : '';
  const suggested = suggestions?.length ? ` Suggestions: ${suggestions.join(', ')}.` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}${at}: ${message}${suggested}\n${JSON.stringify(reply)}` }],
  };
}

function internal(error: unknown, log: (message: string) => void): ApiError {
  log(`mcp tool failed: ${(error as Error)?.stack ?? String(error)}`);
  return new ApiError('INTERNAL');
}

/**
 * The API names fields as its REST routes do; a tool argument may be named otherwise (the home
 * fields' English aliases, list_districts' district). Renames the field, or its last segment
 * (items[0].home.mebel), and the name where the message uses it.
 */
function renamed(error: ApiError, names: Readonly<Record<string, string>>): ApiError {
  if (!error.field) return error;
  const segments = error.field.split('.');
  const last = segments[segments.length - 1];
  const name = names[last];
  if (!name) return error;
  const field = [...segments.slice(0, -1), name].join('.');
  const message = error.message.replace(new RegExp(`(^|[^\\w.])${last}\\b`, 'g'), `$1${name}`);
  return new ApiError(error.code, message, field, error.suggestions);
}
