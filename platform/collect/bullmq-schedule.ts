/**
 * The daily run as a BullMQ repeatable job when REDIS_URL is set: one job scheduler
 * (`collect-daily`, upserted, so every process starting it agrees on one schedule), and a worker of
 * concurrency 1 taking the runs, so two runs never overlap whichever process takes them. The batch
 * engine's connection handling is followed (platform/batch-engine/redis-backend.ts): a node-redis
 * client adapted with bullmq's createNodeRedisClient.
 */
import { createNodeRedisClient, Queue, Worker } from 'bullmq';
import { createClient } from 'redis';
import type { CollectSite } from '../../models/ingest/collectors';
import { dailyCronPattern, type DailySchedule } from './daily-schedule';

const QUEUE_NAME = 'collect-runs';
const SCHEDULER_ID = 'collect-daily';

export interface CollectJob {
  sites: CollectSite[];
}

export async function startBullmqDailySchedule(
  redisUrl: string,
  atUtc: string,
  sites: CollectSite[],
  run: (job: CollectJob) => Promise<void>,
  log: (message: string) => void,
  options: { prefix?: string; worker?: boolean } = {},
): Promise<DailySchedule & { queue: Queue<CollectJob>; close(): Promise<void> }> {
  const client = createClient({ url: redisUrl });
  client.on('error', (error: Error) => log(`collect redis: ${error.message}`));
  await client.connect();
  const connection = createNodeRedisClient(client);
  connection.on('error', () => undefined); // logged above
  const prefix = options.prefix ?? 'valuation';
  const queue = new Queue<CollectJob>(QUEUE_NAME, { connection, prefix });
  await queue.upsertJobScheduler(SCHEDULER_ID, { pattern: dailyCronPattern(atUtc), tz: 'UTC' }, { name: 'collect', data: { sites } });
  const worker =
    options.worker === false
      ? null
      : new Worker<CollectJob>(QUEUE_NAME, (job) => run(job.data), { connection, prefix, concurrency: 1 });
  worker?.on('error', (error) => log(`collect worker: ${error.message}`));
  if (worker) await worker.waitUntilReady();
  const close = async () => {
    await worker?.close();
    await queue.close();
    await client.quit().catch(() => undefined);
  };
  return {
    queue,
    stop: () => void close(),
    close,
  };
}
