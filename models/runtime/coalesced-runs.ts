/**
 * Session calls made together go to onnxruntime as one. A call has a fixed cost far above a row's
 * (the residential ensemble: about 350 µs of CPU for one flat alone, 43 µs a flat sixteen at a
 * time: bench/subgraph-cost), and a server under load asks for many single valuations at once. So
 * runs asked for within one turn of the event loop, or while the session is busy with another call,
 * are joined row-wise into one call and its output split back: each caller gets exactly its own
 * rows. One call is in flight at a time (the session has one thread; the other core keeps serving).
 * Should a joined call fail, each of its runs is tried alone, so that one bad input fails only its
 * own caller.
 */
export type RunRows = (features: Float32Array, rows: number) => Promise<Float32Array>;

interface Pending {
  features: Float32Array;
  rows: number;
  resolve(output: Float32Array): void;
  reject(error: unknown): void;
}

export class CoalescedRuns {
  private pending: Pending[] = [];
  private inFlight = false;
  private scheduled = false;

  constructor(
    private readonly runRows: RunRows,
    private readonly inputWidth: number,
    private readonly outputWidth: number,
    /** Rows joined into one call at most (a single larger run still goes alone, whole). @default 4096 */
    private readonly maxRows = 4096,
  ) {}

  run(features: Float32Array, rows: number): Promise<Float32Array> {
    return new Promise((resolve, reject) => {
      this.pending.push({ features, rows, resolve, reject });
      this.schedule();
    });
  }

  /** After this turn's other callers have asked (setImmediate runs once the pending I/O callbacks and microtasks are done). */
  private schedule(): void {
    if (this.inFlight || this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch: Pending[] = [];
    let rows = 0;
    while (this.pending.length > 0 && (batch.length === 0 || rows + this.pending[0].rows <= this.maxRows)) {
      const next = this.pending.shift()!;
      batch.push(next);
      rows += next.rows;
    }
    this.inFlight = true;
    try {
      if (batch.length === 1) await this.runAlone(batch[0]);
      else await this.runJoined(batch, rows);
    } finally {
      this.inFlight = false;
      this.schedule();
    }
  }

  private async runAlone(run: Pending): Promise<void> {
    try {
      run.resolve(await this.runRows(run.features, run.rows));
    } catch (error) {
      run.reject(error);
    }
  }

  private async runJoined(batch: readonly Pending[], rows: number): Promise<void> {
    const joined = new Float32Array(rows * this.inputWidth);
    let at = 0;
    for (const run of batch) {
      joined.set(run.features, at * this.inputWidth);
      at += run.rows;
    }
    let output: Float32Array;
    try {
      output = await this.runRows(joined, rows);
    } catch {
      for (const run of batch) await this.runAlone(run);
      return;
    }
    at = 0;
    for (const run of batch) {
      // A copy: a caller keeping its rows must not hold the whole joined output alive.
      run.resolve(output.slice(at * this.outputWidth, (at + run.rows) * this.outputWidth));
      at += run.rows;
    }
  }
}
