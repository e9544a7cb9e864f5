/** Typo tolerance: edit distance and the "one clear winner" rule every matcher shares. */

/** Three rolling rows of the distance matrix, reused across calls: typo search compares against hundreds of names. */
let rows = new Int32Array(96);

/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions
 * and adjacent transpositions). Stops early and returns max + 1 once the distance must exceed max.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  let twoBack = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j < width; j++) rows[previous + j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    rows[current] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = rows[previous + j - 1] + (ai === bj ? 0 : 1);
      if (rows[previous + j] + 1 < d) d = rows[previous + j] + 1;
      if (rows[current + j - 1] + 1 < d) d = rows[current + j - 1] + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && rows[twoBack + j - 2] + 1 < d) {
        d = rows[twoBack + j - 2] + 1;
      }
      rows[current + j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const oldest = twoBack;
    twoBack = previous;
    previous = current;
    current = oldest;
  }
  // Every row may stay within max while the last cell does not (the distance grows along the last rows).
  return Math.min(rows[previous + b.length], max + 1);
}

const MAX_TYPOS = 2;
const HAS_DIGIT = /\d/;

/**
 * Typos tolerated in a name: 1 for names of up to 6 letters, 2 for longer ones. Keys shorter
 * than 4 characters or containing digits get none: a typo in "da" or "2" is another word.
 */
export function allowedTypos(key: string): number {
  if (key.length < 4 || HAS_DIGIT.test(key)) return 0;
  return key.length <= 6 ? 1 : MAX_TYPOS;
}

export interface FuzzyCandidate<T> {
  key: string;
  value: T;
}

/** Finds, among fixed candidates, the value a typo most likely meant. */
export interface TypoIndex<T> {
  /**
   * The value whose candidate keys come closest to `key` within their typo allowance, provided
   * no other value is equally close; null when nothing is close or the best is a tie.
   */
  closest(key: string): T | null;
}

export function typoIndex<T>(candidates: Iterable<FuzzyCandidate<T>>): TypoIndex<T> {
  // Bucketed by length: only keys within MAX_TYPOS of the query's length can be close enough.
  const byLength: FuzzyCandidate<T>[][] = [];
  for (const candidate of candidates) (byLength[candidate.key.length] ??= []).push(candidate);
  return {
    closest(key) {
      let best = Infinity;
      let winner: T | null = null;
      let tied = false;
      for (let length = Math.max(0, key.length - MAX_TYPOS); length <= key.length + MAX_TYPOS; length++) {
        for (const { key: candidateKey, value } of byLength[length] ?? []) {
          const limit = Math.min(allowedTypos(candidateKey), best);
          const d = editDistance(key, candidateKey, limit);
          if (d > limit) continue;
          if (d < best) {
            best = d;
            winner = value;
            tied = false;
          } else if (value !== winner) {
            tied = true;
          }
        }
      }
      return tied ? null : winner;
    },
  };
}
