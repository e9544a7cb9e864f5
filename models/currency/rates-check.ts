/**
 * The monthly refresh's check of the rate table (issue 19): every listing file that states prices
 * in both currencies implies the rate its site converted at, month by month; the table must hold
 * that month within 0.5%. A month it lacks, or holds otherwise, is reported, so the refresh that
 * brings a new snapshot says which CBU rate to add (the archive is cbu.uz: this machine has no
 * network to fetch it). Training-side: it reads the data files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../ensemble/metrics';
import { loadCsv } from '../ingest/csv';
import { DATA_DIR } from '../paths';
import { USD_UZS_RATES, type UsdUzsRate } from './cbu-rates';

/** How far a table rate may sit from the one a listing file implies. */
export const RATE_TOLERANCE = 0.005;

export interface RateCheck {
  file: string;
  month: string;
  /** The median of price_uzs / price_usd over the month's listings. */
  implied: number;
  listings: number;
  table: UsdUzsRate | null;
  ok: boolean;
}

/** One row per listing file and month with prices in both currencies. */
export function checkRatesAgainstListings(dataDir: string = DATA_DIR, table: readonly UsdUzsRate[] = USD_UZS_RATES): RateCheck[] {
  const files = ['listings', 'vehicles'].flatMap((dir) => readdirSync(join(dataDir, dir)).filter((f) => f.endsWith('.csv')).map((f) => `${dir}/${f}`));
  const checks: RateCheck[] = [];
  for (const file of files) {
    const columns = readFileSync(join(dataDir, file), 'utf8').slice(0, 4096).split(/\r?\n/)[0].replace(/^\uFEFF/, '').split(',');
    if (!columns.includes('price_usd') || !columns.includes('price_uzs')) continue;
    const byMonth = new Map<string, number[]>();
    for (const row of loadCsv(file).rows) {
      const usd = Number(row.price_usd);
      const uzs = Number(row.price_uzs);
      if (!(usd > 0 && uzs > 0)) continue;
      const month = (row.snapshot_date || row.posted_at || '').slice(0, 7);
      if (!/^\d{4}-\d{2}$/.test(month)) continue;
      byMonth.set(month, [...(byMonth.get(month) ?? []), uzs / usd]);
    }
    for (const [month, ratios] of byMonth) {
      const implied = median(ratios);
      const entry = table.find((r) => r.period === month) ?? null;
      checks.push({ file, month, implied, listings: ratios.length, table: entry, ok: entry !== null && Math.abs(entry.usdToUzs / implied - 1) < RATE_TOLERANCE });
    }
  }
  return checks;
}

/** The check in words, one line a row: what the refresh prints. */
export function describeRateCheck(check: RateCheck): string {
  const where = `${check.file} ${check.month} (${check.listings} listings imply ${check.implied.toFixed(2)} soʻm per USD)`;
  if (!check.table) return `rate table: no rate for ${check.month}: add the CBU rate of ${check.month} to models/currency/cbu-rates.ts; ${where}`;
  return check.ok ? `rate table: ${check.month} ${check.table.usdToUzs} agrees with ${where}` : `rate table: ${check.month} ${check.table.usdToUzs} is more than ${RATE_TOLERANCE * 100}% from ${where}: check it against the CBU archive`;
}
