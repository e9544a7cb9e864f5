/**
 * The Central Bank of Uzbekistan's official USD rate, one row per published day:
 * data/currency/cbu_usd_uzs_daily.csv (columns `date,uzs_per_usd`; provenance in data/README.md).
 * The service converts a valuation into soʻm at the rate of its date (./rate-of-date.ts).
 *
 * Read once, when the module is first loaded (the file is about 10 kB): a missing or malformed file
 * stops the process at start with what is wrong, rather than a valuation in soʻm later.
 *
 * Updating. The service has no network: at a refresh, append the new days from the CBU archive
 * (cbu.uz) in the same format and update data/SHA256SUMS.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../paths';

/** Relative to DATA_DIR. */
export const CBU_DAILY_PATH = 'currency/cbu_usd_uzs_daily.csv';

export interface DailyRate {
  /** 'YYYY-MM-DD': the day the central bank published the rate for. */
  date: string;
  /** Soʻm per US dollar, as published (two decimals). */
  usdToUzs: number;
}

const HEADER = 'date,uzs_per_usd';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day: '2025-02-30' is not. */
function isDay(text: string): boolean {
  return DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

/** The file's rows, oldest first; throws naming the file and line of the first thing wrong. */
export function parseDailyRates(text: string, origin: string = CBU_DAILY_PATH): DailyRate[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines[0]?.trim() !== HEADER) throw new Error(`${origin}: the first line must be "${HEADER}", not "${lines[0] ?? ''}"`);
  const rates: DailyRate[] = [];
  lines.slice(1).forEach((line, i) => {
    const where = `${origin} line ${i + 2}`;
    const [date, rate, extra] = line.trim().split(',');
    const usdToUzs = Number(rate);
    if (extra !== undefined || !isDay(date) || rate === undefined || rate.trim() === '' || !(usdToUzs > 0) || !Number.isFinite(usdToUzs)) {
      throw new Error(`${where}: expected "YYYY-MM-DD,<soʻm per USD>", got "${line}"`);
    }
    const previous = rates[rates.length - 1];
    if (previous && date <= previous.date) throw new Error(`${where}: ${date} is not after ${previous.date} (one row per day, oldest first)`);
    rates.push({ date, usdToUzs });
  });
  if (rates.length === 0) throw new Error(`${origin}: no rates`);
  return rates;
}

/** The file from data/, parsed; missing is an error that says where it comes from. */
export function loadDailyRates(dataDir: string = DATA_DIR): DailyRate[] {
  let text: string;
  try {
    text = readFileSync(join(dataDir, CBU_DAILY_PATH), 'utf8');
  } catch (error) {
    throw new Error(`data/${CBU_DAILY_PATH} cannot be read (${(error as Error).message}): the official USD/UZS rates come from it (see data/README.md, currency/)`);
  }
  return parseDailyRates(text, `data/${CBU_DAILY_PATH}`);
}

/** Loaded once, at start. */
export const CBU_DAILY_RATES: readonly DailyRate[] = loadDailyRates();

/** The rate published for `day` ('YYYY-MM-DD'), else the newest before it; null before the first day. */
export function dailyRateOn(day: string, table: readonly DailyRate[] = CBU_DAILY_RATES): DailyRate | null {
  let low = 0;
  let high = table.length - 1;
  let found: DailyRate | null = null;
  // Binary search for the last row dated on or before the day.
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (table[mid].date <= day) {
      found = table[mid];
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
