/**
 * A value as JSON in UTF-8 bytes, exactly as `Buffer.from(JSON.stringify(value))` gives them, made a
 * piece at a time: the arrays and plain objects of its first levels are walked, and what lies below
 * them (a bulk answer's items) is stringified and encoded one by one into a buffer reused from call to
 * call. A 100-item answer as one string is 230 thousand characters, two bytes each (its text holds a
 * few non-ASCII characters), made in V8's large-object space, which only a full collection frees;
 * piece by piece, each string is a few kilobytes and dies young (the subgraphs' fast lane, issue 34 item 1).
 */

/** Levels of arrays and plain objects walked before the rest is stringified whole. */
const WALKED_LEVELS = 3;

/** Where the bytes are written before they are copied out (grown as an answer needs). */
let scratch = Buffer.allocUnsafeSlow(1 << 20);
let used = 0;

function put(text: string): void {
  // At most 3 bytes of UTF-8 per UTF-16 unit.
  if (used + 3 * text.length > scratch.length) {
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * scratch.length, used + 3 * text.length));
    scratch.copy(grown, 0, 0, used);
    scratch = grown;
  }
  used += scratch.write(text, used);
}

/**
 * The JSON text of `value` held under `key` when it is written whole: a leaf, a value below the levels
 * walked, or one with a toJSON method (called with its key, as JSON.stringify calls it); undefined when
 * JSON.stringify leaves it out (undefined, a function, a symbol); null for an array or a plain object to walk.
 */
function whole(value: unknown, level: number, key: string): string | undefined | null {
  if (value !== null && value !== undefined && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const held = JSON.stringify({ [key]: value });
    return held.length === 2 ? undefined : held.slice(JSON.stringify(key).length + 2, -1);
  }
  if (level < WALKED_LEVELS && typeof value === 'object' && value !== null) {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (Array.isArray(value) || proto === Object.prototype || proto === null) return null;
  }
  return JSON.stringify(value) as string | undefined;
}

/** Writes `value` (held under `key`); false, writing nothing, when JSON.stringify leaves it out. */
function write(value: unknown, level: number, key: string): boolean {
  const text = whole(value, level, key);
  if (text === undefined) return false;
  if (text !== null) {
    put(text);
    return true;
  }
  if (Array.isArray(value)) {
    put('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) put(',');
      if (!write(value[i], level + 1, String(i))) put('null');
    }
    put(']');
    return true;
  }
  const object = value as Record<string, unknown>;
  put('{');
  let first = true;
  for (const name of Object.keys(object)) {
    const field = object[name];
    const fieldText = whole(field, level + 1, name);
    if (fieldText === undefined) continue;
    put(first ? `${JSON.stringify(name)}:` : `,${JSON.stringify(name)}:`);
    first = false;
    if (fieldText !== null) put(fieldText);
    else write(field, level + 1, name);
  }
  put('}');
  return true;
}

/** `Buffer.from(JSON.stringify(value) + suffix)`, the same bytes, made a piece at a time (see the header). `value` must not be undefined. */
export function jsonBytes(value: object, suffix = ''): Buffer {
  used = 0;
  write(value, 0, '');
  put(suffix);
  return Buffer.from(scratch.subarray(0, used));
}
