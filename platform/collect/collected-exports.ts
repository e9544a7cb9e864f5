/**
 * What a serving process reads of the collector's exports (./training-export.ts): the newest
 * `exports/weekly-index-<day>.json` of the collect folder, for the `marketIndex` query's weekly
 * points. Read when asked, at most once a minute (a file written by the daily run is seen within a
 * minute, without a restart); a folder without exports gives null, as does a file that does not parse
 * (logged once).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WeeklyMarketPoint } from '../../models/ingest/collectors';

export interface WeeklyIndexFile {
  /** The export's day, 'YYYY-MM-DD' (the run the weekly points were computed after). */
  day: string;
  path: string;
  weekly: WeeklyMarketPoint[];
}

const WEEKLY_FILE = /^weekly-index-(\d{4}-\d{2}-\d{2})\.json$/;
/** The newest export of each kind: its file name sorts by its day. */
function newestExport(folder: string, pattern: RegExp): { name: string; day: string } | null {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  const found = names.map((name) => ({ name, match: pattern.exec(name) })).filter((f) => f.match !== null).sort((a, b) => (a.name < b.name ? -1 : 1));
  const newest = found[found.length - 1];
  return newest ? { name: newest.name, day: newest.match![1] } : null;
}

export function readNewestWeeklyIndex(collectDirectory: string): WeeklyIndexFile | null {
  const folder = join(collectDirectory, 'exports');
  const newest = newestExport(folder, WEEKLY_FILE);
  if (!newest) return null;
  const path = join(folder, newest.name);
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { weekly?: WeeklyMarketPoint[] };
  if (!Array.isArray(parsed.weekly)) throw new Error(`${path}: no "weekly" list`);
  return { day: newest.day, path, weekly: parsed.weekly };
}

/** The reader a subgraph keeps: the newest weekly index, read again once `refreshMs` has passed. */
export class CollectedWeeklyIndex {
  private cached: { at: number; file: WeeklyIndexFile | null } | null = null;
  private warned = new Set<string>();

  constructor(
    readonly directory: string,
    private readonly log: (message: string) => void = () => {},
    private readonly refreshMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  current(): WeeklyIndexFile | null {
    const at = this.now();
    if (this.cached && at - this.cached.at < this.refreshMs) return this.cached.file;
    let file: WeeklyIndexFile | null = null;
    try {
      file = readNewestWeeklyIndex(this.directory);
    } catch (error) {
      const message = `collected weekly index not read: ${(error as Error).message}`;
      if (!this.warned.has(message)) this.log(message);
      this.warned.add(message);
    }
    this.cached = { at, file };
    return file;
  }
}
