/**
 * A value as JSON in UTF-8 bytes, exactly as `Buffer.from(JSON.stringify(value))` gives them, made a
 * piece at a time: the arrays and plain objects of its first levels are walked, and what lies below
 * them (a bulk answer's items) is stringified and encoded one by one into a buffer reused from call to
 * call. A 100-item answer as one string is 230 thousand characters, two bytes each (its text holds a
 * few non-ASCII characters), made in V8's large-object space, which only a full collection frees;
 * piece by piece, each string is a few kilobytes and dies young (the subgraphs' fast lane, issue 34 item 1).
 */

/**
 * What is walked: plain objects at the first two levels (`{ data: { field } }`) that lead to an array,
 * and arrays down to the third (a field's list of items); anything else is stringified whole.
 */
const WALKED_OBJECT_LEVELS = 2;
const WALKED_ARRAY_LEVELS = 3;

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

/** Whether `value` is a plain object with an array to walk within the levels walked (else it is stringified whole: a single valuation, `{ __typename }`). */
function holdsWalkedArray(value: object, level: number): boolean {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (Array.isArray(field) ? level + 1 < WALKED_ARRAY_LEVELS : typeof field === 'object' && field !== null && level + 1 < WALKED_OBJECT_LEVELS && holdsWalkedArray(field, level + 1)) return true;
  }
  return false;
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
  if (typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) {
      if (level < WALKED_ARRAY_LEVELS) return null;
    } else if (level < WALKED_OBJECT_LEVELS && holdsWalkedArray(value, level)) {
      return null;
    }
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

/**
 * An answer's body: `JSON.stringify(value) + suffix` as a string when it holds no list to walk (a
 * single valuation; node writes a small string body in one write with the head, a Buffer in two), else
 * the same text's bytes made a piece at a time (jsonBytes).
 */
export function jsonBody(value: object, suffix = ''): string | Buffer {
  return holdsWalkedArray(value, 0) ? jsonBytes(value, suffix) : JSON.stringify(value) + suffix;
}

/** `Buffer.from(JSON.stringify(value) + suffix)`, the same bytes, made a piece at a time (see the header). `value` must not be undefined. */
export function jsonBytes(value: object, suffix = ''): Buffer {
  used = 0;
  write(value, 0, '');
  put(suffix);
  return Buffer.from(scratch.subarray(0, used));
}
