/**
 * One line of an NDJSON upload parsed as the JSON routes parse a body: fastify's secure-json-parse,
 * refusing `__proto__` and `constructor.prototype` keys (prototype poisoning) instead of taking
 * them, so a line of a file is held to the same rule as the same object sent as JSON (issue 33).
 * Throws a SyntaxError for a line that is not JSON or carries such a key.
 */
import secureJson from 'secure-json-parse';

export function parseJsonLine(text: string): unknown {
  return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}
