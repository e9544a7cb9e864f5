/** Reading a listing file: RFC 4180 quoting, BOM and multi-line cells are csv-parse's job. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from '../paths';

export type RawRow = Record<string, string>;

export interface LoadedFile {
  path: string; // relative to DATA_DIR
  sha256: string;
  rows: RawRow[];
}

export function parseCsv(text: string | Buffer): RawRow[] {
  return parse(text, { columns: true, bom: true, skip_empty_lines: true }) as RawRow[];
}

export function loadCsv(path: string): LoadedFile {
  const bytes = readFileSync(join(DATA_DIR, path));
  return { path, sha256: createHash('sha256').update(bytes).digest('hex'), rows: parseCsv(bytes) };
}
