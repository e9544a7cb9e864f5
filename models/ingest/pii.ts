/**
 * A check that no personal data could leak: counts phone numbers, e-mail addresses and
 * "call <Name>" contacts in a file's free-text cells. Nothing found here is ever copied into a
 * record (titles and addresses are parsed and dropped); the counts go into the report.
 */
import type { RawRow } from './csv';

export interface PersonalDataCounts {
  phones: number;
  emails: number;
  contactNames: number;
}

// Uzbek numbers: optional +998, a two-digit operator or area code, seven digits in any grouping.
const PHONE = /(?<!\d)(?:\+?998[\s\-.]?)?\(?[2-9]\d\)?[\s\-.]?\d{3}[\s\-.]?\d{2}[\s\-.]?\d{2}(?!\d)/g;
const EMAIL = /[\w.+-]+@[\w-]+\.[\w.-]+/g;
// "Звоните Тамара", "спросить Ахмад", "qo'ng'iroq qiling Aziz".
const CONTACT_NAME = /(?:звон\p{L}*|спрос\p{L}*|qo.?ng.?iroq\s+qiling)\s+\p{Lu}\p{Ll}+/giu;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

export function countPersonalData(rows: readonly RawRow[], freeTextColumns: readonly string[]): PersonalDataCounts {
  const counts: PersonalDataCounts = { phones: 0, emails: 0, contactNames: 0 };
  for (const row of rows) {
    for (const column of freeTextColumns) {
      const text = row[column] ?? '';
      counts.phones += count(text, PHONE);
      counts.emails += count(text, EMAIL);
      counts.contactNames += count(text, CONTACT_NAME);
    }
  }
  return counts;
}
