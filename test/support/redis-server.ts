/** A private redis-server for tests that stop and restart Redis: the shared one on 6379 is never touched. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether a redis-server binary is on PATH to start private servers with (test/jest-global-setup.js looked once per run). */
export const HAS_REDIS_SERVER = process.env.TEST_REDIS_SERVER !== undefined ? process.env.TEST_REDIS_SERVER === '1' : !spawnSync('redis-server', ['--version']).error;

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts redis-server with `args` (which must include --port `port`) and resolves once it answers PING. */
export async function startRedisServer(args: string[], port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if ((await sendCommand(port, 'PING').catch(() => '')).startsWith('+PONG')) return child;
    if (Date.now() > deadline) throw new Error('redis-server did not answer PING in time');
    await sleep(50);
  }
}

/** One inline command over a bare socket; resolves with what the server sent before closing or answering. */
export function sendCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (data) => {
      reply += data.toString();
      socket.end();
    });
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
  });
}
