/** How often progress is written to the task's stream: pollers see it move, the log does not fill with it. */
const WRITE_EVERY_MS = 1000;
/** A progress line in the service log this often: enough to see a long task move. */
const LINE_EVERY_MS = 10_000;

type Progress = Record<string, unknown>;

/**
 * `percent` and `eta_seconds` for progress counting towards a known total (`processed` or `done` of
 * `total`), the estimate from this run's pace so far.
 */
export function withEstimate(progress: Progress, elapsedMs: number): Progress {
  const done = typeof progress.processed === 'number' ? progress.processed : progress.done;
  const total = progress.total;
  if (typeof done !== 'number' || typeof total !== 'number' || total <= 0) return progress;
  const fraction = Math.min(1, Math.max(0, done / total));
  const eta = fraction > 0 ? Math.round(((elapsedMs / 1000) * (1 - fraction)) / fraction) : null;
  return { ...progress, percent: Math.round(fraction * 1000) / 10, eta_seconds: eta };
}

/**
 * A task's progress: throttled writes kept in order, a log line every 10 s, and the last report the
 * throttle held back written before the outcome, so the record ends on the task's final figures.
 */
export class ProgressReporter {
  private readonly startedAt = Date.now();
  private lastWrite = 0;
  private lastLine = this.startedAt;
  private unsent: Progress | undefined;
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (progress: Progress) => Promise<void>,
    private readonly line: (progress: Progress) => void,
  ) {}

  report(progress: Progress): Promise<void> {
    const now = Date.now();
    const estimated = withEstimate(progress, now - this.startedAt);
    if (now - this.lastLine >= LINE_EVERY_MS) {
      this.lastLine = now;
      this.line(estimated);
    }
    if (now - this.lastWrite < WRITE_EVERY_MS) {
      this.unsent = estimated;
      return this.written;
    }
    this.lastWrite = now;
    this.unsent = undefined;
    return this.enqueue(estimated);
  }

  /** Resolves once every report is written, the held-back last one included; never rejects. */
  flush(): Promise<void> {
    if (this.unsent) {
      const last = this.unsent;
      this.unsent = undefined;
      this.enqueue(last);
    }
    return this.written;
  }

  private enqueue(progress: Progress): Promise<void> {
    this.written = this.written.then(() => this.write(progress));
    return this.written;
  }
}
