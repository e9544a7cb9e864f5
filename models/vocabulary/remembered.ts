/**
 * A pure text matcher that remembers what it answered: a portfolio or a stream of requests repeats
 * the same few spellings (twelve districts, a few hundred mahallas, a handful of renovation words),
 * and normalising and fuzzy-matching one costs tens of microseconds each time. Bounded: past `max`
 * texts, everything is forgotten at once (no eviction bookkeeping per call). Answers are frozen, so
 * that no caller can change what the next one gets.
 */
export function remembered<R>(match: (text: string) => R, max = 10_000): (text: string) => R {
  const answers = new Map<string, R>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined || answers.has(text)) return known as R;
    const answer = match(text);
    if (answers.size >= max) answers.clear();
    answers.set(text, answer !== null && typeof answer === 'object' ? Object.freeze(answer) : answer);
    return answer;
  };
}
