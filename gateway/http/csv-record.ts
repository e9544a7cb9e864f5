/**
 * The one CSV writer of the gateway's replies: a batch job's results (gateway/rest/batch-result-lines.ts)
 * and a backtest's report (gateway/reports/backtest-csv.ts).
 *
 * RFC 4180, CRLF, through csv-stringify, one record at a time (a route writes page by page).
 * Formula injection (OWASP, CSV Injection): a spreadsheet runs a cell starting with =, +, -,
 * @, tab or carriage return (or their full-width forms) as a formula, so such a cell is prefixed
 * with a single quote and quoted. Only string values are neutralised: they are what came in as text
 * (an address, a name, a message); numbers such as a deviation of -0.12 stay numbers.
 */
import { stringify as stringifyCsv, type Options as StringifyOptions } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const CSV_OPTIONS: StringifyOptions = {
  record_delimiter: '\r\n',
  cast: {
    boolean: (value) => String(value),
    string: (value) => (FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : value),
  },
};

/** One CSV record, CRLF-ended, text cells neutralised against formula injection. */
export function csvRecord(values: readonly unknown[]): string {
  return stringifyCsv([values], CSV_OPTIONS);
}
