/**
 * The process's Prometheus registry as served on /metrics: by the gateway (gateway/ops/metrics.ts,
 * which holds the subgraphs' metrics too in all-in-one mode) and by each subgraph run alone
 * (./serve.ts). Node's default metrics (CPU, memory, event loop lag, …) are collected once per process.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { collectDefaultMetrics, register } from 'prom-client';

let defaultsCollected = false;

/** Adds Node's default metrics to the registry, once per process whoever asks. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  collectDefaultMetrics();
  defaultsCollected = true;
}

/** Sends the registry in Prometheus's text format (text/plain; version=0.0.4). */
export async function sendMetrics(reply: FastifyReply): Promise<FastifyReply> {
  return reply.type(register.contentType).send(await register.metrics());
}

/** Whether `authorization` is `Bearer <token>`; compares digests of equal length, so the time taken tells nothing about the token. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^bearer\s+(.*)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
