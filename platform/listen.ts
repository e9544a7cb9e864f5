import type { FastifyInstance } from 'fastify';

/**
 * Starts `app` listening on `host`:`port` (0 picks a free port). Returns the port it got and the
 * base URL to call it at: its loopback address when it listens on all of them (0.0.0.0). A port
 * already taken is reported with the variable that sets it (`portVariable`), not as a bare EADDRINUSE.
 */
export async function listen(app: FastifyInstance, host: string, port: number, portVariable = 'PORT'): Promise<{ port: number; url: string }> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${port} on ${host} is already in use (EADDRINUSE): another process listens there. Stop it, or set ${portVariable} to a free port (${portVariable}=0 picks one).`);
    }
    throw error;
  }
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { port: bound, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` };
}
