import type { FastifyInstance } from 'fastify';

/**
 * Starts `app` listening on `host`:`port` (0 picks a free port). Returns the port it got and the
 * base URL to call it at: its loopback address when it listens on all of them (0.0.0.0).
 */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<{ port: number; url: string }> {
  await app.listen({ host, port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { port: bound, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` };
}
