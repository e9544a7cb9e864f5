/**
 * The refresh's check of the official rates against the sites (issues 19, 32): every listing file
 * that states prices in both currencies implies, listing by listing, the rate its site converted
 * at (price_uzs / price_usd). Each is divided by the CBU's official rate of the listing's day
 * (./cbu-daily.ts: published that day, or the newest before it); the file's median of that ratio
 * must be within RATE_TOLERANCE of 1. A listing's day is its snapshot_date (the day the site showed
 * both prices), else its posted_at. Training-side: it reads the listing files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, quantile } from '../ensemble/metrics';
import { parseCsv } from '../ingest/csv';
import { DATA_DIR } from '../paths';
import { CBU_DAILY_PATH, CBU_DAILY_RATES, dailyRateOn, type DailyRate } from './cbu-daily';

/**
 * How far a file's median ratio may sit from 1. Sites convert at a rate of a day or so before (uybor.uz's
 * snapshot of 21 July 2026 used the CBU rate of 20 July), and the official rate moves up to about 0.7% a day.
 */
export const RATE_TOLERANCE = 0.02;

export interface RateCheck {
  file: string;
  /** Listings with both prices and a day. */
  listings: number;
  /** 'YYYY-MM-DD': the listings' first and last day. */
  from: string;
  to: string;
  /** The median of price_uzs / price_usd. */
  implied: number;
  /** Over the listings compared, the implied rate / the official rate of the listing's day: median, 10th and 90th percentiles, extremes; null when none was. */
  ratio: { median: number; p10: number; p90: number; min: number; max: number } | null;
  /** Listings dated before the daily rates' first day or past their last: not compared. */
  outside: number;
  /** The published day, in the week up to the last listing day, whose rate is the median implied rate (to 0.01 soʻm): the CBU rate the site used. */
  siteUsedRateOf: string | null;
  ok: boolean;
}

/** The day a listing's two prices were shown on. */
function listingDay(row: Record<string, string>): string | null {
  const day = (row.snapshot_date || row.posted_at || '').slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

/** One row per listing file with prices in both currencies. */
export function checkRatesAgainstListings(dataDir: string = DATA_DIR, daily: readonly DailyRate[] = CBU_DAILY_RATES): RateCheck[] {
  const files = ['listings', 'vehicles'].flatMap((dir) => readdirSync(join(dataDir, dir)).filter((f) => f.endsWith('.csv')).map((f) => `${dir}/${f}`));
  const last = daily[daily.length - 1].date;
  const checks: RateCheck[] = [];
  for (const file of files) {
    // The header alone decides: most files have one price column and are not read whole.
    const columns = readFileSync(join(dataDir, file), 'utf8').slice(0, 4096).split(/\r?\n/)[0].replace(/^\uFEFF/, '').split(',');
    if (!columns.includes('price_usd') || !columns.includes('price_uzs')) continue;
    const implied: number[] = [];
    const ratios: number[] = [];
    const days: string[] = [];
    let outside = 0;
    for (const row of parseCsv(readFileSync(join(dataDir, file)))) {
      const usd = Number(row.price_usd);
      const uzs = Number(row.price_uzs);
      const day = listingDay(row);
      if (!(usd > 0 && uzs > 0) || day === null) continue;
      implied.push(uzs / usd);
      days.push(day);
      // Past the last day the newest rate is not the day's own: not compared.
      const official = day > last ? null : dailyRateOn(day, daily);
      if (official === null) outside++;
      else ratios.push(uzs / usd / official.usdToUzs);
    }
    if (implied.length === 0) continue;
    days.sort();
    const impliedMedian = median(implied);
    const to = days[days.length - 1];
    const weekBefore = new Date(Date.parse(`${to}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    const match = daily.filter((r) => r.date >= weekBefore && r.date <= to && Math.abs(r.usdToUzs - impliedMedian) < 0.01).pop() ?? null;
    const ratio = ratios.length === 0 ? null : { median: median(ratios), p10: quantile(ratios, 0.1), p90: quantile(ratios, 0.9), min: Math.min(...ratios), max: Math.max(...ratios) };
    checks.push({
      file, listings: implied.length, from: days[0], to, implied: impliedMedian, ratio, outside,
      siteUsedRateOf: match?.date ?? null, ok: ratio !== null && Math.abs(ratio.median - 1) <= RATE_TOLERANCE,
    });
  }
  return checks;
}

/** The check in words, one line a file: what the refresh prints. */
export function describeRateCheck(c: RateCheck): string {
  const where = `${c.file} (${c.listings} listings, ${c.from} to ${c.to})`;
  const outside = c.outside > 0 ? `; ${c.outside} listings dated outside the official rates not compared` : '';
  if (c.ratio === null) return `official rates: none for ${where}${outside}: add the CBU's rates up to ${c.to} to data/${CBU_DAILY_PATH} (CBU archive)`;
  const pct = (r: number) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(2)}%`;
  const spread = `10-90%: ${pct(c.ratio.p10)} to ${pct(c.ratio.p90)}, extremes ${pct(c.ratio.min)} to ${pct(c.ratio.max)}`;
  const used = c.siteUsedRateOf ? `; the site's rate is the CBU's of ${c.siteUsedRateOf}` : '';
  const what = `${where}: implied rate ${c.implied.toFixed(2)} soʻm per USD, ${pct(c.ratio.median)} from the CBU official rate of each listing's day (median; ${spread})${used}${outside}`;
  return c.ok ? `official rates: ${what}` : `official rates: more than ${RATE_TOLERANCE * 100}% off: ${what}: check the daily rates against the CBU archive`;
}
