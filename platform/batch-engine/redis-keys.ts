/**
 * Every Redis key and channel of the batch engine, under one prefix so several deployments or
 * test runs can share a Redis. A job's keys all start with `<prefix>job:<id>`; job ids are UUIDs
 * we make, and an organisation only ever ends a key, so no name can run into another.
 */
export const DEFAULT_KEY_PREFIX = 'batch:';

export class BatchKeys {
  constructor(readonly prefix: string) {}

  /** Hash: the job's fields and counters. */
  job(id: string): string {
    return `${this.prefix}job:${id}`;
  }

  /** Hash: chunk index → encoded items, for the chunks not recorded yet. */
  inputs(id: string): string {
    return `${this.prefix}job:${id}:in`;
  }

  /** Hash: chunk index → encoded results. A field's presence is the chunk's done-marker. */
  results(id: string): string {
    return `${this.prefix}job:${id}:out`;
  }

  /** List: the webhook sender's delivery records, JSON. */
  deliveries(id: string): string {
    return `${this.prefix}job:${id}:deliveries`;
  }

  /** Sorted set: an organisation's job ids, scored by creation sequence. */
  organisationJobs(organisation: string): string {
    return `${this.prefix}org-jobs:${organisation}`;
  }

  /** Counter giving each job its place in creation order. */
  get sequence(): string {
    return `${this.prefix}job-seq`;
  }

  /** Sorted set: jobs still receiving items, scored by when items last arrived (epoch ms). */
  get submitting(): string {
    return `${this.prefix}submitting`;
  }

  /** Stream: one entry per ended job, read by the consumeEnded() consumer group. */
  get ended(): string {
    return `${this.prefix}ended`;
  }

  progressChannel(id: string): string {
    return `${this.prefix}progress:${id}`;
  }

  /** BullMQ's own prefix, so its keys live under ours too. */
  get bullPrefix(): string {
    return `${this.prefix}bull`;
  }

  /** The keys, in this order, of every script that may end a job (see redis-job-scripts.ts). */
  endingKeys(id: string): string[] {
    return [this.job(id), this.inputs(id), this.results(id), this.deliveries(id), this.ended, this.submitting];
  }
}
