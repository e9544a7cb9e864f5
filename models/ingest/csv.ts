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

export interface CsvOptions {
  /** The cell separator: ',' unless a file says otherwise (avtoelon_2020.csv uses ';'). */
  delimiter?: string;
}

export function parseCsv(text: string | Buffer, options: CsvOptions = {}): RawRow[] {
  return parse(text, { columns: true, bom: true, skip_empty_lines: true, delimiter: options.delimiter ?? ',' }) as RawRow[];
}

export function loadCsv(path: string, options: CsvOptions = {}): LoadedFile {
  const bytes = readFileSync(join(DATA_DIR, path));
  return { path, sha256: createHash('sha256').update(bytes).digest('hex'), rows: parseCsv(bytes, options) };
}
