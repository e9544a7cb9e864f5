/**
 * The checked examples of a markdown file, and how a shown output is compared with a real one.
 *
 * Convention (README.md, "Checked examples"):
 *   <!-- example: NAME -->               the next fenced block is run, in order, in one shell session
 *   <!-- example: NAME, background -->   the next fenced block is run as a process of its own (a second terminal)
 *   <!-- output: NAME -->                the next fenced block is what NAME has printed by then
 *                                        (```json: a stream of JSON values; ```text: lines)
 *   <!-- not run: WHY -->                (docs/API.md) the next block is not run, for the reason given; a `curl` block
 *                                        there is either run or so marked
 * A shown output keeps only what is stable: an object lists some of the keys (the reply may have more), a string
 * "…" stands for any value, "obs_…" for any string of that shape, an array ending in "…" for more items, and a
 * number matches the real one rounded to the digits shown (1632 exactly, 0.1544 for 0.15436…).
 */

export interface MarkdownBlock {
  /** The fence's info string (`sh`, `json`, …). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `<!-- … -->` comment right before the block (blank lines between allowed), if any. */
  marker?: string;
}

export type Step =
  | { kind: 'run'; name: string; background: boolean; code: string; line: number }
  | { kind: 'output'; name: string; format: 'json' | 'text'; shown: string; line: number };

/** Every fenced block of `markdown`, with the HTML comment just before it. */
export function fencedBlocks(markdown: string): MarkdownBlock[] {
  const lines = markdown.split('\n');
  const blocks: MarkdownBlock[] = [];
  let marker: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    // Fences may be indented (inside a list item); the indentation is removed from the code.
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (fence) {
      const indent = fence[1].length;
      const start = i;
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) code.push(lines[i].slice(indent));
      blocks.push({ lang: fence[2], code: code.join('\n'), line: start + 1, marker });
      marker = undefined;
      continue;
    }
    const comment = /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[i]);
    if (comment) marker = comment[1];
    else if (lines[i].trim() !== '') marker = undefined;
  }
  return blocks;
}

/** The checked examples and shown outputs, in the file's order; a malformed marker throws, naming its line. */
export function exampleSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const block of fencedBlocks(markdown)) {
    if (!block.marker) continue;
    const example = /^example:\s*([\w-]+)(,\s*background)?$/.exec(block.marker);
    const output = /^output:\s*([\w-]+)$/.exec(block.marker);
    if (example) {
      steps.push({ kind: 'run', name: example[1], background: Boolean(example[2]), code: block.code, line: block.line });
    } else if (output) {
      if (block.lang !== 'json' && block.lang !== 'text') throw new Error(`line ${block.line}: an output block is \`\`\`json or \`\`\`text, not ${block.lang}`);
      steps.push({ kind: 'output', name: output[1], format: block.lang, shown: block.code, line: block.line });
    } else if (/^(example|output)\b/.test(block.marker)) {
      throw new Error(`line ${block.line}: unreadable marker <!-- ${block.marker} -->`);
    }
  }
  return steps;
}

/** The JSON values of `text`, one after another (curl prints bodies without a newline, NDJSON one a line). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  for (skipSpace(); i < text.length; skipSpace()) {
    const start = i;
    if (text[i] === '{' || text[i] === '[') {
      let depth = 0;
      let inString = false;
      for (; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && --depth === 0) {
          i++;
          break;
        }
      }
    } else {
      while (i < text.length && !/\s/.test(text[i])) i++;
    }
    const piece = text.slice(start, i);
    try {
      values.push(JSON.parse(piece));
    } catch {
      throw new Error(`not JSON: ${piece.slice(0, 200)}`);
    }
  }
  return values;
}

const ANY = '…';

/** Where `actual` differs from what `shown` shows of it (empty: it matches), each as `path: why`. */
export function mismatches(shown: unknown, actual: unknown, path = '$'): string[] {
  if (shown === ANY) return [];
  if (typeof shown === 'string') {
    if (typeof actual !== 'string') return [`${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
    return globMatches(shown, actual) ? [] : [`${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
  }
  if (typeof shown === 'number') {
    if (typeof actual !== 'number') return [`${path}: shown ${shown}, got ${JSON.stringify(actual)}`];
    return numberMatches(shown, actual) ? [] : [`${path}: shown ${shown}, got ${actual}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: shown an array, got ${JSON.stringify(actual)?.slice(0, 100)}`];
    const open = shown.length > 0 && shown[shown.length - 1] === ANY;
    const items = open ? shown.slice(0, -1) : shown;
    if (open ? actual.length < items.length : actual.length !== items.length) {
      return [`${path}: shown ${items.length}${open ? ' or more' : ''} items, got ${actual.length}`];
    }
    return items.flatMap((item, n) => mismatches(item, actual[n], `${path}[${n}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: shown an object, got ${JSON.stringify(actual)?.slice(0, 100)}`];
    return Object.entries(shown).flatMap(([key, value]) => {
      if (key === ANY) return []; // `"…": "…"` only tells the reader that keys were left out
      if (!(key in actual)) return [`${path}.${key}: shown, but not in the reply`];
      return mismatches(value, (actual as Record<string, unknown>)[key], `${path}.${key}`);
    });
  }
  return shown === actual ? [] : [`${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}

/** `shown` with each "…" standing for any run of characters. */
export function globMatches(shown: string, actual: string): boolean {
  const pattern = shown.split(ANY).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** `actual` rounded to the decimals `shown` is written with equals it (an integer: exactly). */
function numberMatches(shown: number, actual: number): boolean {
  const decimals = (String(shown).split('.')[1] ?? '').length;
  const half = 0.5 * 10 ** -decimals;
  return decimals === 0 ? shown === actual : Math.abs(actual - shown) <= half + 1e-12;
}

/** Lines shown against lines printed: the same count, each a glob ("…" for any run of characters). */
export function textMismatches(shown: string, actual: string): string[] {
  const want = shown.trimEnd().split('\n');
  const got = actual.trimEnd().split('\n');
  if (want.length !== got.length) return [`shown ${want.length} lines, got ${got.length}:\n${actual}`];
  return want.flatMap((line, n) => (globMatches(line, got[n]) ? [] : [`line ${n + 1}: shown ${JSON.stringify(line)}, got ${JSON.stringify(got[n])}`]));
}
