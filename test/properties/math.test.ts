/**
 * Properties of the arithmetic everything else stands on, checked on many generated inputs
 * (fast-check): the conformal quantile behind every interval, the edit distance behind every typo
 * match, the spelling key behind every name lookup, and the quota windows behind every rate limit.
 */
import fc from 'fast-check';
import { windowsAt } from '../../gateway/quota/fixed-windows';
import { conformalQuantile } from '../../models/intervals/conformal';
import { editDistance } from '../../models/vocabulary/fuzzy';
import { spellingKey } from '../../schema/translit';

const RUNS = { numRuns: 500 };

describe('conformalQuantile', () => {
  const scores = fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 1, maxLength: 200 });
  const coverage = fc.double({ min: 0.05, max: 0.99, noNaN: true });

  it('is the ceil((n+1)·coverage)-th smallest score (the largest when that is past n)', () => {
    fc.assert(fc.property(scores, coverage, (s, c) => {
      const q = conformalQuantile(s, c);
      const k = Math.min(s.length, Math.ceil((s.length + 1) * c));
      expect(s.filter((x) => x <= q).length).toBeGreaterThanOrEqual(k);
      expect(s.filter((x) => x < q).length).toBeLessThan(k);
    }), RUNS);
  });

  it('with every weight 1 gives the unweighted quantile', () => {
    fc.assert(fc.property(scores, coverage, (s, c) => {
      expect(conformalQuantile(s, c, s.map(() => 1))).toBe(conformalQuantile(s, c));
    }), RUNS);
  });

  it('never falls when the coverage rises', () => {
    fc.assert(fc.property(scores, coverage, coverage, (s, a, b) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      expect(conformalQuantile(s, high)).toBeGreaterThanOrEqual(conformalQuantile(s, low));
    }), RUNS);
  });
});

describe('editDistance (optimal string alignment)', () => {
  const word = fc.string({ maxLength: 12 });

  it('is 0 exactly for equal strings, symmetric, and between the length difference and the longer length', () => {
    fc.assert(fc.property(word, word, (a, b) => {
      const d = editDistance(a, b);
      expect(d === 0).toBe(a === b);
      expect(editDistance(b, a)).toBe(d);
      expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
    }), RUNS);
  });

  it('counts one edit as one: an insertion, a deletion, a substitution or an adjacent swap', () => {
    fc.assert(fc.property(fc.string({ minLength: 2, maxLength: 12 }), fc.nat(), fc.char(), (a, at, ch) => {
      const i = at % a.length;
      const swapped = a.slice(0, i) + (a[i + 1] ?? '') + a[i] + a.slice(i + 2);
      for (const edited of [a.slice(0, i) + ch + a.slice(i), a.slice(0, i) + a.slice(i + 1), a.slice(0, i) + ch + a.slice(i + 1), swapped]) {
        expect(editDistance(a, edited)).toBeLessThanOrEqual(1);
      }
    }), RUNS);
  });

  it('with a bound gives the distance when within it, and bound + 1 otherwise', () => {
    fc.assert(fc.property(word, word, fc.nat({ max: 6 }), (a, b, max) => {
      const d = editDistance(a, b);
      expect(editDistance(a, b, max)).toBe(d <= max ? d : max + 1);
    }), RUNS);
  });
});

describe('spellingKey', () => {
  // Letters no spelling rule rewrites in pairs (no y, g, h, j, z, d): only the folds and the repeat collapse act.
  const plain = fc.stringOf(fc.constantFrom('a', 'b', 'e', 'i', 'k', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', ' ', '1', '2'), { maxLength: 16 });

  it('ignores spaces and never keeps a repeated letter', () => {
    fc.assert(fc.property(plain, (s) => {
      const key = spellingKey(s);
      expect(key).not.toMatch(/ /);
      expect(key).not.toMatch(/([^0-9])\1/);
      expect(spellingKey(s.replace(/ /g, ''))).toBe(key);
    }), RUNS);
  });

  it('is unchanged when a letter is typed twice, but keeps repeated digits (house numbers differ)', () => {
    fc.assert(fc.property(plain.filter((s) => /[a-z]/.test(s)), fc.nat(), (s, at) => {
      const letters = [...s.matchAll(/[a-z]/g)];
      const i = letters[at % letters.length].index!;
      expect(spellingKey(s.slice(0, i + 1) + s[i] + s.slice(i + 1))).toBe(spellingKey(s));
    }), RUNS);
    expect(spellingKey('atchapar 11')).not.toBe(spellingKey('atchapar 1'));
  });
});

describe('quota windows', () => {
  it('hold the moment they are asked at, end on a whole minute and a whole UTC day, and number on', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 0, max: 200_000_000 }), (now, later) => {
      const w = windowsAt(now);
      expect(now).toBeLessThan(w.minute.endsAt);
      expect(now).toBeGreaterThanOrEqual(w.minute.endsAt - 60_000);
      expect(now).toBeLessThan(w.day.endsAt);
      expect(now).toBeGreaterThanOrEqual(w.day.endsAt - 86_400_000);
      expect(w.day.endsAt % 86_400_000).toBe(0);
      const next = windowsAt(now + later);
      expect(next.minute.index).toBeGreaterThanOrEqual(w.minute.index);
      expect(next.minute.index === w.minute.index).toBe(now + later < w.minute.endsAt);
    }), RUNS);
  });
});
