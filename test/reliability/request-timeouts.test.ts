/**
 * Issue 33, finding 7 (the timeouts): a request whose body stalls no longer holds its connection
 * forever. Over a real socket to the real gateway, with the timeouts configured short
 * (REQUEST_TIMEOUT_MS, IDLE_TIMEOUT_MS) so nothing waits long: an upload that sends its headers and
 * a first part, then nothing, gets 408 REQUEST_TIMEOUT and its connection closed (request timeout),
 * or its connection closed (idle timeout); ordinary requests are unaffected.
 */
import { connect } from 'node:net';
import { startTestStack, type TestStack } from '../support/stack';

/** Sends an upload's headers and first line, then nothing; resolves with what came back once the gateway closes the socket (or after `withinMs`: 'still open'). */
function stalledUpload(stack: TestStack, key: string, withinMs = 10_000): Promise<string> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve('still open');
    }, withinMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(received);
    });
    socket.on('connect', () =>
      socket.write(
        'POST /api/observations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n' +
          `X-API-Key: ${key}\r\nContent-Length: 1000000\r\n\r\n{"kind":"home","district":"Chilanzar","area":65,"rooms":3,"floor":4,"total_floors":9,"price_usd":70000,"observed_at":"2026-01-01"}\n`,
      ),
    );
    socket.once('error', reject);
  });
}

// startTestStack leaves its env in process.env: later files of this worker must get the defaults.
afterAll(() => {
  delete process.env.REQUEST_TIMEOUT_MS;
  delete process.env.IDLE_TIMEOUT_MS;
});

const HOME = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9 };

describe('REQUEST_TIMEOUT_MS: a request not received whole in time', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { REQUEST_TIMEOUT_MS: '300', IDLE_TIMEOUT_MS: '60000' } });
  });
  afterAll(() => stack?.stop());

  it('gets 408 REQUEST_TIMEOUT and its connection closed', async () => {
    const started = Date.now();
    const answer = await stalledUpload(stack, stack.newKey('enterprise'));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ordinary requests, received at once, are unaffected', async () => {
    expect((await stack.post('/api/predict/home', HOME, { 'x-api-key': stack.newKey() })).status).toBe(200);
  });
});

describe('IDLE_TIMEOUT_MS: a request under way that goes silent', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { REQUEST_TIMEOUT_MS: '600000', IDLE_TIMEOUT_MS: '300' } });
  });
  afterAll(() => stack?.stop());

  it('has its connection closed', async () => {
    const started = Date.now();
    expect(await stalledUpload(stack, stack.newKey('enterprise'))).not.toBe('still open');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await stack.post('/api/predict/home', HOME, { 'x-api-key': stack.newKey() })).status).toBe(200);
  });
});
