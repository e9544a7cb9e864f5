import type { ProgressBus, ProgressListener } from './progress-bus';
import type { BatchRedisClient } from './redis-client';
import type { BatchKeys } from './redis-keys';
import type { ProgressEvent } from './types';

/**
 * Progress over Redis pub/sub, one channel per job. A connection in subscriber mode can do
 * nothing else, so subscriptions share one dedicated duplicate of the client, opened on first use;
 * node-redis subscribes each channel once however many listeners it has, and again after a reconnect.
 */
export class RedisProgressBus implements ProgressBus {
  private subscriber: BatchRedisClient | undefined;
  private subscriberConnected: Promise<BatchRedisClient> | undefined;

  constructor(
    private readonly client: BatchRedisClient,
    private readonly keys: BatchKeys,
    private readonly log: (message: string) => void,
  ) {}

  async publish(event: ProgressEvent): Promise<void> {
    await this.client.publish(this.keys.progressChannel(event.id), JSON.stringify(event));
  }

  async subscribe(jobId: string, listener: ProgressListener): Promise<() => Promise<void>> {
    const subscriber = await this.subscriberConnection();
    const channel = this.keys.progressChannel(jobId);
    const onMessage = (message: string) => {
      const event = parseEvent(message, jobId);
      if (event) listener(event);
      else this.log(`ignored a malformed progress message on ${channel}`);
    };
    await subscriber.subscribe(channel, onMessage);
    return async () => {
      if (!subscriber.isOpen) return;
      // node-redis drops the listener at once; the UNSUBSCRIBE itself waits for a connection,
      // which with Redis away may never come, so only a connected one is waited for.
      const unsubscribed = subscriber.unsubscribe(channel, onMessage);
      if (subscriber.isReady) await unsubscribed;
      else unsubscribed.catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    this.subscriberConnected = undefined;
    // Still connecting (Redis down) would never finish: destroy ends the attempt at once.
    if (subscriber?.isReady) await subscriber.close();
    else if (subscriber?.isOpen) subscriber.destroy();
  }

  private subscriberConnection(): Promise<BatchRedisClient> {
    if (!this.subscriberConnected) {
      const subscriber = this.client.duplicate();
      subscriber.on('error', (error: Error) => this.log(`progress subscriber: ${error.message}`));
      this.subscriber = subscriber;
      this.subscriberConnected = subscriber.connect().catch((error: unknown) => {
        this.subscriber = undefined; // let the next subscribe try again
        this.subscriberConnected = undefined;
        throw error;
      });
    }
    return this.subscriberConnected;
  }
}

function parseEvent(message: string, jobId: string): ProgressEvent | undefined {
  try {
    const event = JSON.parse(message) as ProgressEvent;
    return event?.id === jobId && typeof event.processed === 'number' ? event : undefined;
  } catch {
    return undefined;
  }
}
