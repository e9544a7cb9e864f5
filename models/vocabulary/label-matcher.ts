/**
 * Builds a matcher from a code → spellings table: a map lookup by spelling key first; only on a
 * miss a typo search, which compares the spellings as written (normalised, spaces removed).
 */
import { typoIndex, type FuzzyCandidate } from './fuzzy';
import { normaliseText, spellingKey } from '../../schema/translit';
import { remembered } from './remembered';

export function labelMatcher<C extends string>(labels: Readonly<Record<C, readonly string[]>>): (text: string) => C | null {
  const byKey = new Map<string, C>();
  const candidates: FuzzyCandidate<C>[] = [];
  for (const code of Object.keys(labels) as C[]) {
    for (const label of [code, ...labels[code]]) {
      const text = normaliseText(label);
      const key = spellingKey(text);
      const clash = byKey.get(key);
      if (clash !== undefined && clash !== code) throw new Error(`label "${label}" is listed for both ${clash} and ${code}`);
      byKey.set(key, code);
      candidates.push({ key: text.replace(/ /g, ''), value: code });
    }
  }
  const typos = typoIndex(candidates);
  return remembered((input) => {
    const text = normaliseText(input);
    if (text === '') return null;
    return byKey.get(spellingKey(text)) ?? typos.closest(text.replace(/ /g, ''));
  });
}
