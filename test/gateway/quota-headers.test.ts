import { rateLimitHeaders } from '../../gateway/quota/rate-limit-headers';

// 2025-03-14 09:30:10.250 UTC; the minute ends at 09:31:00 = Unix 1741944660.
const NOW = Date.UTC(2025, 2, 14, 9, 30, 10, 250);
const MINUTE_END_UNIX = Date.UTC(2025, 2, 14, 9, 31, 0) / 1000;

test('an allowed request gets both header families and no Retry-After', () => {
  const headers = rateLimitHeaders({ allowed: true, limit: 60, remaining: 41, resetSeconds: 50, window: 'minute' }, NOW);
  expect(headers).toEqual({
    'RateLimit-Limit': '60',
    'RateLimit-Remaining': '41',
    'RateLimit-Reset': '50',
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': '41',
    'X-RateLimit-Reset': String(MINUTE_END_UNIX),
  });
});

test('a denied request also gets Retry-After', () => {
  const headers = rateLimitHeaders(
    { allowed: false, limit: 60, remaining: 0, resetSeconds: 50, retryAfterSeconds: 50, window: 'minute' },
    NOW,
  );
  expect(headers['Retry-After']).toBe('50');
  expect(headers['RateLimit-Remaining']).toBe('0');
  expect(headers['X-RateLimit-Reset']).toBe(String(MINUTE_END_UNIX));
});
