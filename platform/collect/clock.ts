/** Time as the crawler sees it: injected, so tests check waits without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
};

/** A clock whose sleep only moves its own time forward, recording each wait. */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private time = 0) {}
  now(): number {
    return this.time;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    if (ms > 0) this.time += ms;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/** 'YYYY-MM-DD' (UTC) of a clock's time. */
export function dayOf(clock: Clock): string {
  return new Date(clock.now()).toISOString().slice(0, 10);
}
