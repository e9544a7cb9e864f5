/**
 * Completion webhooks against a real HTTP receiver on a loopback port (the policy allows loopback
 * for it), verified with the Standard Webhooks reference library, so "any receiver can verify"
 * is tested, not assumed. Waits between attempts go through a recording timer: no real minutes.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  backoffBound,
  CallbackUrlError,
  DEFAULT_RETRY,
  deliverWebhook,
  newWebhookSecret,
  refusedRange,
  signWebhook,
  validateCallbackUrl,
  webhookId,
  type BatchCompletedEvent,
  type CallbackUrlPolicy,
  type DeliveryAttempt,
  type HostLookup,
  type Timer,
} from '../../subgraphs/batch/webhooks';

const INTERNAL: CallbackUrlPolicy = { allowPrivateNetworks: true };

const event: BatchCompletedEvent = {
  type: 'batch.completed',
  id: 'job_01HZX3',
  status: 'completed',
  total: 120,
  succeeded: 118,
  failed: 2,
  results_url: 'https://api.example.uz/api/batch/job_01HZX3/results',
  completed_at: '2026-11-21T12:00:00.000Z',
};

type Reply = { status: number; headers?: Record<string, string> } | 'hang';

interface Receiver {
  url: string;
  port: number;
  requests: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** Answers request n with script[n] (the last entry repeats); 'hang' never answers. */
async function startReceiver(script: readonly Reply[]): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = script[Math.min(requests.length, script.length) - 1];
      if (reply !== 'hang') res.writeHead(reply.status, reply.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/batch`,
    port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Records each wait and moves a virtual clock forward by it (plus a second, so timestamps differ). */
function recordingTimer() {
  const delays: number[] = [];
  let skewMs = 0;
  const timer: Timer = {
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      delays.push(ms);
      skewMs += ms + 1000;
    },
  };
  return { timer, delays, now: () => Date.now() + skewMs };
}

const receivers: Receiver[] = [];
async function receiver(script: readonly Reply[]): Promise<Receiver> {
  const started = await startReceiver(script);
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('signatures', () => {
  test('a signature verifies with the Standard Webhooks library, and a tampered body does not', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify(event);
    const headers = signWebhook(secret, 'msg_abc', Date.now() / 1000, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(event);
    expect(() => new Webhook(secret).verify(body.replace('118', '119'), { ...headers })).toThrow('No matching signature');
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow('No matching signature');
  });

  test('matches the published example of the scheme (Svix docs, the reference implementation)', () => {
    const headers = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  test('secrets are whsec_ + base64 of 32 random bytes; malformed secrets are refused', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    for (const bad of ['', 'whsec_', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_not base64!']) {
      expect(() => signWebhook(bad, 'msg_1', 1, '{}')).toThrow(TypeError);
    }
  });

  test('the webhook-id is stable per job and event type, and free of the "." separator', () => {
    const id = webhookId(event);
    expect(id).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(webhookId({ type: 'batch.completed', id: event.id })).toBe(id);
    expect(webhookId({ type: 'batch.completed', id: 'job_other' })).not.toBe(id);
  });
});

describe('delivery', () => {
  test('500, then a hang past the timeout, then 200: three signed attempts under one webhook-id, all recorded', async () => {
    const target = await receiver([{ status: 500 }, 'hang', { status: 200 }]);
    const secret = newWebhookSecret();
    const { timer, delays, now } = recordingTimer();
    const seen: DeliveryAttempt[] = [];
    const outcome = await deliverWebhook({
      url: target.url,
      secret,
      event,
      policy: INTERNAL,
      retry: { maxAttempts: 5, baseDelayMs: 50, maxDelayMs: 1000, timeoutMs: 1500 },
      onAttempt: (attempt) => void seen.push(attempt),
      timer,
      now,
    });

    expect(outcome.status).toBe('delivered');
    expect(outcome.webhookId).toBe(webhookId(event));
    expect(seen).toEqual(outcome.attempts);
    const [first, second, third] = outcome.attempts;
    expect(outcome.attempts.map((a) => a.number)).toEqual([1, 2, 3]);
    expect(first).toMatchObject({ statusCode: 500 });
    expect(first.error).toBeUndefined();
    expect(second.statusCode).toBeUndefined();
    expect(second.error).toEqual({ kind: 'timeout', message: 'No response within 1500 ms' });
    expect(second.durationMs).toBeGreaterThanOrEqual(250);
    expect(third).toMatchObject({ statusCode: 200 });
    expect(third.nextDelayMs).toBeUndefined();
    expect(delays).toEqual([first.nextDelayMs, second.nextDelayMs]);
    for (const attempt of outcome.attempts) expect(Date.parse(attempt.at)).not.toBeNaN();

    // The receiver saw every attempt, the hung one included; each verifies on its own.
    expect(target.requests).toHaveLength(3);
    const ids = new Set(target.requests.map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([outcome.webhookId]);
    const stamps = target.requests.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[1]).toBeGreaterThan(stamps[0]);
    expect(stamps[2]).toBeGreaterThan(stamps[1]);
    expect(new Set(target.requests.map((r) => r.headers['webhook-signature'])).size).toBe(3);
    for (const request of target.requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(event);
    }
  });

  test('a receiver that always fails: failed after maxAttempts, every attempt recorded, waits within the jitter bounds', async () => {
    const target = await receiver([{ status: 502 }]);
    const retry = { maxAttempts: 6, baseDelayMs: 4, maxDelayMs: 20, timeoutMs: 2000 };
    const seen: DeliveryAttempt[] = [];
    // The real timer, with waits of a few milliseconds.
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret(), event, policy: INTERNAL, retry, onAttempt: (a) => void seen.push(a) });

    expect(outcome.status).toBe('failed');
    expect(outcome.attempts).toHaveLength(6);
    expect(seen).toEqual(outcome.attempts);
    expect(target.requests).toHaveLength(6);
    expect(outcome.attempts.map((a) => a.statusCode)).toEqual([502, 502, 502, 502, 502, 502]);
    expect(outcome.attempts.map((a) => a.webhookId)).toEqual(Array(6).fill(outcome.webhookId));
    outcome.attempts.slice(0, -1).forEach((attempt, i) => {
      expect(attempt.nextDelayMs).toBeGreaterThanOrEqual(0);
      expect(attempt.nextDelayMs).toBeLessThanOrEqual(Math.min(20, 4 * 2 ** i));
    });
    expect(outcome.attempts[5].nextDelayMs).toBeUndefined();
  });

  test('the wait bounds double up to maxDelayMs (full jitter at its top: random() = 1)', async () => {
    const target = await receiver([{ status: 500 }]);
    const { timer, delays, now } = recordingTimer();
    const outcome = await deliverWebhook({
      url: target.url,
      secret: newWebhookSecret(),
      event,
      policy: INTERNAL,
      retry: { maxAttempts: 7, baseDelayMs: 10, maxDelayMs: 100, timeoutMs: 2000 },
      timer,
      now,
      random: () => 1,
    });
    expect(outcome.status).toBe('failed');
    expect(delays).toEqual([10, 20, 40, 80, 100, 100]);
    // The default schedule: bounds of 1, 2, 4, 8 … minutes, capped at an hour.
    expect([1, 2, 3, 4].map((n) => backoffBound(n, DEFAULT_RETRY) / 60_000)).toEqual([1, 2, 4, 8]);
    expect(backoffBound(7, DEFAULT_RETRY)).toBe(DEFAULT_RETRY.maxDelayMs);
  });

  test('410 Gone stops the retries', async () => {
    const target = await receiver([{ status: 500 }, { status: 410 }, { status: 200 }]);
    const { timer, now } = recordingTimer();
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret(), event, policy: INTERNAL, retry: { baseDelayMs: 5, timeoutMs: 2000 }, timer, now });
    expect(outcome.status).toBe('gone');
    expect(outcome.attempts.map((a) => a.statusCode)).toEqual([500, 410]);
    expect(outcome.attempts[1].nextDelayMs).toBeUndefined();
    expect(target.requests).toHaveLength(2);
  });

  test('Retry-After on 429 and 503 replaces the schedule, capped at maxDelayMs', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const target = await receiver([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 503, headers: { 'retry-after': inAMinute } },
      { status: 500, headers: { 'retry-after': '1' } },
      { status: 204 },
    ]);
    const { timer, delays } = recordingTimer();
    const outcome = await deliverWebhook({
      url: target.url,
      secret: newWebhookSecret(),
      event,
      policy: INTERNAL,
      retry: { baseDelayMs: 100, maxDelayMs: 30_000, timeoutMs: 2000 },
      timer,
      random: () => 0.5,
    });
    expect(outcome.status).toBe('delivered');
    expect(outcome.attempts[0]).toMatchObject({ statusCode: 429, retryAfterMs: 2000, nextDelayMs: 2000 });
    expect(outcome.attempts[1]).toMatchObject({ statusCode: 503, nextDelayMs: 30_000 });
    expect(outcome.attempts[1].retryAfterMs).toBeGreaterThan(55_000);
    // A 500's Retry-After is not a promise to honour: the schedule applies (0.5 × 100 × 2²).
    expect(outcome.attempts[2]).toMatchObject({ statusCode: 500, nextDelayMs: 200 });
    expect(outcome.attempts[2].retryAfterMs).toBeUndefined();
    expect(delays).toEqual([2000, 30_000, 200]);
  });

  test('network errors are retried and recorded as such', async () => {
    const closed = await startReceiver([{ status: 200 }]);
    await closed.close(); // its port is now (almost certainly) refusing connections
    const { timer, now } = recordingTimer();
    const outcome = await deliverWebhook({ url: closed.url, secret: newWebhookSecret(), event, policy: INTERNAL, retry: { maxAttempts: 2, timeoutMs: 2000 }, timer, now });
    expect(outcome.status).toBe('failed');
    expect(outcome.attempts.map((a) => a.error?.kind)).toEqual(['network', 'network']);
    expect(outcome.attempts[0].error?.message).toMatch(/ECONNREFUSED/);
  });

  test('a refused address is never connected to, and is not retried', async () => {
    const target = await receiver([{ status: 200 }]);
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret(), event, retry: { timeoutMs: 2000 } });
    expect(outcome.status).toBe('refused');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0].error).toEqual({ kind: 'refused', message: expect.stringContaining('loopback') });
    expect(target.requests).toHaveLength(0);
  });

  test('DNS rebinding: a host that passed validation but resolves to loopback at delivery is refused at connect', async () => {
    const target = await receiver([{ status: 200 }]);
    const answers = ['93.184.216.34', '127.0.0.1'];
    const rebinding: HostLookup = async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }];
    const url = `http://hooks.rebind.test:${target.port}/hooks`;
    expect((await validateCallbackUrl(url, { lookup: rebinding })).ok).toBe(true);
    const outcome = await deliverWebhook({ url, secret: newWebhookSecret(), event, policy: { lookup: rebinding }, retry: { timeoutMs: 2000 } });
    expect(outcome.status).toBe('refused');
    expect(outcome.attempts[0].error).toEqual({ kind: 'refused', message: 'hooks.rebind.test resolves to a loopback address' });
    expect(target.requests).toHaveLength(0);
  });

  test('the connection goes to the address that was checked (pinned), with the original Host', async () => {
    const target = await receiver([{ status: 200 }]);
    const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const outcome = await deliverWebhook({ url: `http://receiver.internal.test:${target.port}/x`, secret: newWebhookSecret(), event, policy: { ...INTERNAL, lookup } });
    expect(outcome.status).toBe('delivered');
    expect(target.requests[0].headers.host).toBe(`receiver.internal.test:${target.port}`);
  });

  test('aborting the signal during a wait ends the delivery as cancelled', async () => {
    const target = await receiver([{ status: 500 }]);
    const controller = new AbortController();
    const outcome = await deliverWebhook({
      url: target.url,
      secret: newWebhookSecret(),
      event,
      policy: INTERNAL,
      retry: { baseDelayMs: 60_000, timeoutMs: 2000 },
      random: () => 1,
      onAttempt: () => controller.abort(),
      signal: controller.signal,
    });
    expect(outcome.status).toBe('cancelled');
    expect(outcome.attempts).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });
});

describe('callback URL validation', () => {
  const refused = async (url: string, policy: CallbackUrlPolicy = {}) => {
    const check = await validateCallbackUrl(url, policy);
    if (check.ok) throw new Error(`${url} was accepted`);
    return check.error;
  };

  test('errors are the catalogue INVALID_PARAMETER on callback_url, with a reason', async () => {
    const error = await refused('ftp://example.com/hook');
    expect(error).toBeInstanceOf(CallbackUrlError);
    expect(error.status).toBe(400);
    expect(error.reason).toBe('scheme');
    expect(error.toBody()).toEqual({ code: 'INVALID_PARAMETER', field: 'callback_url', message: 'callback_url must use https or http, not ftp' });
  });

  test.each([
    ['ftp://example.com/hook', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['not a url', 'malformed'],
    ['https://example.com/aaa… (2,100 characters)', 'too_long'],
    ['https://user:pass@example.com/hook', 'credentials'],
    ['https://token@example.com/hook', 'credentials'],
  ])('%s is refused (%s)', async (label, reason) => {
    const url = label.endsWith('characters)') ? `https://example.com/${'a'.repeat(2100)}` : label;
    expect((await refused(url, INTERNAL)).reason).toBe(reason);
  });

  test.each([
    ['http://127.0.0.1:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://2130706433/', 'loopback'], // 127.0.0.1 as one number
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'loopback'], // NAT64
    ['http://10.1.2.3/hook', 'private'],
    ['http://172.20.0.5/hook', 'private'],
    ['http://192.168.1.10/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1/hook', 'cgnat'],
    ['http://[fc00::1]/hook', 'ula'],
    ['http://[fd12:3456::1]/hook', 'ula'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
  ])('%s is refused by default (%s)', async (url, range) => {
    const error = await refused(url);
    expect(error.reason).toBe('refused_address');
    expect(error.message).toContain(range === 'cgnat' ? 'carrier-grade NAT' : range === 'ula' ? 'unique local' : range);
  });

  test('a host name resolving to 127.0.0.1 (localhost) is refused, without echoing the address', async () => {
    const error = await refused('http://localhost:3000/hook');
    expect(error.reason).toBe('refused_address');
    expect(error.message).toBe("callback_url's host resolves to a loopback address; receivers must be reachable on the public internet (an operator running the service for an internal network, or trying it on one machine, allows such receivers with BATCH_CALLBACK_ALLOW_PRIVATE=1)");
  });

  test('the way to open private receivers is named for loopback and private networks only, never for link-local (cloud metadata) or multicast (issue 35)', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://10.1.2.3/hook', 'http://192.168.0.5/hook']) expect((await refused(url)).message).toContain('BATCH_CALLBACK_ALLOW_PRIVATE=1');
    for (const url of ['http://169.254.169.254/latest', 'http://224.0.0.1/']) expect((await refused(url)).message).not.toContain('BATCH_CALLBACK_ALLOW_PRIVATE');
  });

  test('a host with one private address among public ones is refused; one that does not resolve too', async () => {
    const mixed: HostLookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    expect((await refused('https://hooks.example.com/', { lookup: mixed })).reason).toBe('refused_address');
    expect((await refused('https://hooks.example.com/', { lookup: async () => [] })).reason).toBe('unresolvable');
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await refused('https://nowhere.example.com/', { lookup: failing })).reason).toBe('unresolvable');
  });

  test('the internal policy allows loopback, private, CGNAT and ULA receivers, localhost included', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://10.1.2.3/', 'http://192.168.1.10/', 'http://100.64.0.1/', 'http://[fc00::1]/', 'http://localhost:3000/hook']) {
      const check = await validateCallbackUrl(url, INTERNAL);
      expect({ url, ok: check.ok }).toEqual({ url, ok: true });
    }
  });

  test('the internal policy still refuses link-local (cloud metadata), multicast and unspecified; a CIDR opens one on purpose', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://224.0.0.1/', 'http://0.0.0.0/']) {
      expect((await refused(url, INTERNAL)).reason).toBe('refused_address');
    }
    const cidrs: CallbackUrlPolicy = { allowedCidrs: ['10.20.0.0/16', 'fd00:1::/32', '169.254.10.10'] };
    expect((await validateCallbackUrl('http://10.20.3.4/', cidrs)).ok).toBe(true);
    expect((await validateCallbackUrl('http://[fd00:1:2::3]/', cidrs)).ok).toBe(true);
    expect((await validateCallbackUrl('http://169.254.10.10/', cidrs)).ok).toBe(true);
    expect((await refused('http://10.30.3.4/', cidrs)).reason).toBe('refused_address');
    expect(() => refusedRange('10.0.0.1', { allowedCidrs: ['10.0.0.0/33'] })).toThrow(TypeError);
    expect(() => refusedRange('10.0.0.1', { allowedCidrs: ['intranet'] })).toThrow(TypeError);
  });

  test('a public IP literal is accepted without any lookup or connection', async () => {
    const lookup = jest.fn<ReturnType<HostLookup>, Parameters<HostLookup>>();
    const check = await validateCallbackUrl('https://93.184.216.34/hooks/batch', { lookup });
    expect(check).toMatchObject({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
    expect(lookup).not.toHaveBeenCalled();
    expect(refusedRange('2606:2800:220:1:248:1893:25c8:1946')).toBeUndefined();
  });

  test('a public host name is accepted with the addresses it resolves to', async () => {
    const lookup: HostLookup = async () => [{ address: '93.184.216.34', family: 4 }];
    const check = await validateCallbackUrl('https://hooks.bank.uz/batch', { lookup });
    expect(check).toMatchObject({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
    if (check.ok) expect(check.url.hostname).toBe('hooks.bank.uz');
  });
});
