/**
 * The anomaly flags' readable names and meanings: the reports' own English texts
 * (gateway/reports/i18n.ts), so the page and the PDF never word a flag differently.
 */
import { DICTIONARIES } from '../../../reports/i18n';

const FLAGS = DICTIONARIES.en.flags;

/** A flag's name and meaning; a code the texts do not know keeps its code as its name. */
export function flagText(code: string): { title: string; explanation: string } {
  return Object.hasOwn(FLAGS.known, code) ? FLAGS.known[code] : { title: code, explanation: FLAGS.unknown };
}
