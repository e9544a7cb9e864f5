/**
 * Text matchers remember their answers (models/vocabulary/remembered.ts, issue 34 item 1): the same
 * text is matched once, answers cannot be changed by a caller, and the memory is bounded.
 */
import { matchDistrict } from '../../models/vocabulary/districts';
import { remembered } from '../../models/vocabulary/remembered';

test('the same text is matched once, null answers included', () => {
  const seen: string[] = [];
  const match = remembered((text) => {
    seen.push(text);
    return text.startsWith('a') ? { text } : null;
  });
  expect(match('abc')).toEqual({ text: 'abc' });
  expect(match('abc')).toEqual({ text: 'abc' });
  expect(match('xyz')).toBeNull();
  expect(match('xyz')).toBeNull();
  expect(seen).toEqual(['abc', 'xyz']);
});

test('an answer is frozen: no caller changes what the next one gets', () => {
  const first = matchDistrict('Chilanzar tumani');
  expect(first).not.toBeNull();
  expect(Object.isFrozen(first)).toBe(true);
  expect(() => {
    (first as { id: string }).id = 'somewhere-else';
  }).toThrow(TypeError);
  expect(matchDistrict('Chilanzar tumani')).toEqual(first);
});

test('past its bound it forgets everything and matches afresh', () => {
  let calls = 0;
  const match = remembered((text) => {
    calls++;
    return text.length;
  }, 3);
  for (const text of ['a', 'bb', 'ccc']) match(text);
  expect(calls).toBe(3);
  match('dddd'); // the fourth text: the memory is cleared, then holds only it
  expect(calls).toBe(4);
  match('a');
  expect(calls).toBe(5);
  match('dddd');
  expect(calls).toBe(5);
});
