/**
 * Issue 36, item 5: docs/ARCHITECTURE.md is the one architecture document of the repository, and it
 * stays true to the tree.
 * - The sources (models, schema, platform, subgraphs, gateway, tools, bench, test) cite it as
 *   docs/ARCHITECTURE.md and by the name of one of its sections, never another architecture file or
 *   a numbered section of the contract the service started from (kept outside the repository).
 * - Every file path written in backticks in it exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../models/paths';

const DOC = 'docs/ARCHITECTURE.md';
const SOURCE_FOLDERS = ['models', 'schema', 'platform', 'subgraphs', 'gateway', 'tools', 'bench', 'test'];
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs|graphql|sh)$/;
/** Built output, installed packages and model artifacts (large generated JSON) are not sources. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'artifacts']);
/** The top-level entries a path in the document may start with. */
const TOP_LEVEL = new Set(readdirSync(PROJECT_ROOT));

function sourceFiles(folder: string): string[] {
  const dir = join(PROJECT_ROOT, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

const doc = readFileSync(join(PROJECT_ROOT, DOC), 'utf8');
/** The document's headings, without the leading #s. */
const headings = new Set([...doc.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]));

interface Citation {
  file: string;
  line: number;
  text: string;
}

/** Every line of the sources matching `pattern`, with where it is. */
function linesMatching(files: readonly string[], pattern: RegExp): Citation[] {
  return files.flatMap((file) =>
    readFileSync(join(PROJECT_ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, i) => (pattern.test(text) ? [{ file, line: i + 1, text: text.trim() }] : [])),
  );
}

/** The spans of `text` in backticks (inline code) outside fenced blocks. */
function inlineCode(text: string): string[] {
  const unfenced = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...unfenced.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
}

/**
 * Whether a backticked span is a file path of the repository: no spaces, not a route or URL, and
 * starting with one of the repository's top-level entries (a folder followed by a slash, or a root
 * file such as package.json). Spans with placeholders (`models/<kind>/`) name no one file.
 */
function isRepoPath(span: string): boolean {
  if (/\s/.test(span) || span.startsWith('/') || span.includes('://') || /[<>*{}]/.test(span)) return false;
  const [first, ...rest] = span.split('/');
  return TOP_LEVEL.has(first) && (rest.length > 0 || /\.\w+$/.test(first));
}

describe('docs/ARCHITECTURE.md', () => {
  const files = SOURCE_FOLDERS.flatMap(sourceFiles);

  it('finds the sources it checks', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files).toContain('test/tools/architecture-doc.test.ts');
  });

  it('is the only architecture document the sources cite', () => {
    // Any mention of an ARCHITECTURE file not written as the path of the one in docs/.
    const stray = linesMatching(files, /architecture\.md/i).filter((c) =>
      [...c.text.matchAll(/architecture\.md/gi)].some((m) => c.text.slice(Math.max(0, m.index! - 5), m.index) !== 'docs/'),
    );
    expect(stray).toEqual([]);
  });

  it('is not cited by the numbered sections of the original contract', () => {
    expect(linesMatching(files, /architecture\s*(§|sections?\s+\d)/i)).toEqual([]);
  });

  it('has every section the sources cite by name', () => {
    // Written as: the document's path, a comma, then one or more headings in double quotes.
    const cited = files.flatMap((file) =>
      [...readFileSync(join(PROJECT_ROOT, file), 'utf8').matchAll(/docs\/ARCHITECTURE\.md,\s*("[^"]+"(?:\s*(?:,|and)\s*"[^"]+")*)/g)].flatMap((m) =>
        [...m[1].matchAll(/"([^"]+)"/g)].map((name) => ({ file, section: name[1] })),
      ),
    );
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter((c) => !headings.has(c.section))).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    const paths = inlineCode(doc).filter(isRepoPath);
    expect(paths.length).toBeGreaterThan(100);
    const missing = [...new Set(paths)].filter((path) => !existsSync(join(PROJECT_ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('recognises paths as the checks above read them', () => {
    expect(isRepoPath('gateway/rest/home.ts')).toBe(true);
    expect(isRepoPath('subgraphs/common/')).toBe(true);
    expect(isRepoPath('package.json')).toBe(true);
    expect(isRepoPath('.dependency-cruiser.cjs')).toBe(true);
    expect(isRepoPath('models/<kind>/index.ts')).toBe(false);
    expect(isRepoPath('npm run layers')).toBe(false);
    expect(isRepoPath('/api/predict/home')).toBe(false);
    expect(isRepoPath('X-API-Key')).toBe(false);
    expect(isRepoPath('application/json')).toBe(false);
  });
});
