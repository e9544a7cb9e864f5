import { EventEmitter } from 'node:events';
import type { ProgressBus, ProgressListener } from './progress-bus';
import type { ProgressEvent } from './types';

/** Progress within this process: one EventEmitter, the job id as the event name. */
export class InProcessProgressBus implements ProgressBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: ProgressEvent): Promise<void> {
    // Delivered later, as over the network: a publisher never runs subscriber code inside its own call.
    setImmediate(() => this.emitter.emit(event.id, event));
  }

  async subscribe(jobId: string, listener: ProgressListener): Promise<() => Promise<void>> {
    this.emitter.on(jobId, listener);
    return async () => {
      this.emitter.off(jobId, listener);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
