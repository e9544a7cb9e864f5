/**
 * A batch job's results as GET /api/batch/{id}/results writes them (docs/ARCHITECTURE.md, "A batch job"):
 * an NDJSON line of the REST form of a result (restResultItem), or a CSV row of the result columns
 * (RESULT_CSV_COLUMNS, resultCsvValues), both of the batch contract (schema/batch-contract.ts).
 */
import { RESULT_CSV_COLUMNS, restResultItem, resultCsvValues, type BatchItemResultView } from '../../schema/batch-contract';
import { csvRecord } from '../http/csv-record';

/** The NDJSON line of a result (without the newline). */
export function resultNdjsonLine(item: BatchItemResultView): string {
  return JSON.stringify(restResultItem(item));
}

export function resultCsvHeader(): string {
  return csvRecord(RESULT_CSV_COLUMNS);
}

/** The CSV row of a result (with CRLF). */
export function resultCsvRow(item: BatchItemResultView): string {
  return csvRecord(resultCsvValues(item));
}
