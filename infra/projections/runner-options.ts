export interface RunnerOptions {
  /** Events per batch (the ceiling when `sliceMs` is set). */
  batchSize?: number;
  /**
   * Target time one batch may hold the database. PGlite is a single connection: a request waits
   * for the batch in progress, so batches are sized from the last one's duration to keep that wait
   * short while a rebuild or a long catch-up runs; read before each resize, so it can follow how
   * busy the API is. Unset on PostgreSQL, where requests have their own connections.
   */
  sliceMs?: () => number;
  /**
   * How long a batch that reached the head of the log waits for more events before the next one,
   * unless someone waits for the projections (see ProjectionRunner.gather). Unset: no wait.
   */
  gatherMs?: number;
  /** A request began waiting for the projections (read-your-writes): the embedded connection lets their batches run. */
  requestWaits?: () => void;
  /** Awaited before each batch: a test seam, to hold a rebuild part-way. */
  beforeBatch?: () => Promise<void>;
  /** First wait after a failed batch, doubling with each attempt (at most 30 s). Default 500 ms. */
  retryMs?: number;
  /** Failed attempts after which a projector stalls on the event it fails on. Default 6 (about 15 s). */
  maxAttempts?: number;
  /** Called when a batch finds its checkpoints moved by another process: this runner has stopped. */
  lostOwnership?: () => void;
}

const MAX_RETRY_MS = 30_000;

/** The wait before attempt `attempt + 1`: `retryMs` doubling with each failure, at most 30 s. */
export function backoff(options: RunnerOptions, attempt: number): number {
  return Math.min(MAX_RETRY_MS, (options.retryMs ?? 500) * 2 ** Math.min(attempt - 1, 16));
}

export function maxAttempts(options: RunnerOptions): number {
  return Math.max(1, options.maxAttempts ?? 6);
}
