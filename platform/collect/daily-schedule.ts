/**
 * When the daily run happens, and the in-process scheduler used without Redis: a timer to the next
 * HH:MM UTC, re-armed after each run. A tick while a run is still going is skipped, not queued (the
 * site lock would refuse it anyway).
 */
export interface DailySchedule {
  stop(): void;
}

/** Milliseconds from `now` to the next `HH:MM` UTC (a full day when it is exactly now). */
export function msUntilNextDaily(atUtc: string, now: number): number {
  const [hours, minutes] = atUtc.split(':').map(Number);
  const today = new Date(now);
  let next = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hours, minutes);
  if (next <= now) next += 86_400_000;
  return next - now;
}

/** The cron pattern of the same time, for BullMQ's job scheduler. */
export function dailyCronPattern(atUtc: string): string {
  const [hours, minutes] = atUtc.split(':').map(Number);
  return `${minutes} ${hours} * * *`;
}

export function startInProcessDailySchedule(
  atUtc: string,
  run: () => Promise<void>,
  log: (message: string) => void,
  timers: { now(): number; setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void } = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  },
): DailySchedule {
  let handle: unknown;
  let running = false;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    handle = timers.setTimeout(tick, msUntilNextDaily(atUtc, timers.now()));
  };
  const tick = () => {
    if (running) return arm();
    running = true;
    run()
      .catch((error: Error) => log(`collect: scheduled run failed: ${error.message}`))
      .finally(() => {
        running = false;
        arm();
      });
  };
  arm();
  return {
    stop() {
      stopped = true;
      timers.clearTimeout(handle);
    },
  };
}
