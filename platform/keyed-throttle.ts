/**
 * A task run per key at most once per interval, and never twice at once for one key. The first
 * request runs at once; requests inside the interval (or while the key's task runs) make one run at
 * the interval's end, however many came. Timers are unref'd (they hold no process open) and cleared
 * on close; nothing is started after it, and a run that fails after it is not reported.
 */
import { performance } from 'node:perf_hooks';

export interface KeyedThrottleOptions {
  /** The least time from one run's start to the next's, per key. */
  intervalMs: number;
  run(key: string): Promise<void>;
  /** A run that failed (before close); the next request runs as if it had succeeded. */
  onError(key: string, error: Error): void;
  /** A monotonic clock, in ms. @default performance.now */
  now?: () => number;
}

interface KeyState {
  startedAt: number;
  running: boolean;
  /** Requested while running: run once more when the interval allows. */
  again: boolean;
  timer?: NodeJS.Timeout;
}

export class KeyedThrottle {
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: KeyedThrottleOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  request(key: string): void {
    if (this.closed) return;
    const state = this.keys.get(key);
    if (!state) return this.start(key, { startedAt: 0, running: false, again: false });
    if (state.running) {
      state.again = true;
      return;
    }
    if (state.timer) return;
    const wait = state.startedAt + this.options.intervalMs - this.now();
    if (wait <= 0) return this.start(key, state);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.start(key, state);
    }, wait);
    state.timer.unref();
  }

  /** Clears the waiting runs; a run under way finishes, and nothing more starts. */
  close(): void {
    this.closed = true;
    for (const state of this.keys.values()) clearTimeout(state.timer);
    this.keys.clear();
  }

  private start(key: string, state: KeyState): void {
    if (this.closed) return;
    this.keys.set(key, state);
    state.startedAt = this.now();
    state.running = true;
    state.again = false;
    this.options
      .run(key)
      .catch((error: Error) => {
        if (!this.closed) this.options.onError(key, error);
      })
      .finally(() => {
        state.running = false;
        if (state.again) this.request(key);
      });
  }
}
