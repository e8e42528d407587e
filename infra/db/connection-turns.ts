export type WorkKind = 'foreground' | 'background';

export interface TurnsPolicy {
  /** The API counts as quiet once no foreground hold has ended for this long: background work then runs freely. */
  quietMs: number;
  /** While the API is busy, background work gets the connection in bursts of about this long... */
  burstMs: number;
  /** ...each after this many foreground holds since the last burst began... */
  foregroundBetween: number;
  /** ...or after this long, whichever comes first, so that a steady stream of requests cannot starve it. */
  maxGapMs: number;
}

/** How long a burst keeps the free connection for its work between two of its holds. */
const BURST_IDLE_MS = 20;

/**
 * With a client sending requests back to back the numbers give: one request in about 200 waits
 * for a burst (at most its length plus the end of the hold under way), every other one waits for
 * nothing, and background work keeps a third to a half of the connection (less as requests come
 * slower). Against 120 ms after 150 requests, a rebuild under such a client ran 1.1 to 1.4 times
 * faster in three alternating runs, the client's p99 within 1.5 times idle either way.
 */
export const DEFAULT_TURNS_POLICY: TurnsPolicy = { quietMs: 10, burstMs: 250, foregroundBetween: 200, maxGapMs: 1500 };

/**
 * Who holds the one embedded connection next. A request's hold (foreground) goes before background
 * work (projections, tasks, reactions), but that alone lets background work slip in between a
 * client's consecutive requests, and then nearly every request waits for a background hold: a
 * request's p99 becomes the background holds' p99. So while the API is busy, background work waits
 * for its burst: one stretch of back-to-back holds in which it goes first, after enough requests
 * went by undisturbed. Most requests then wait for nothing and a few wait for one burst. When the
 * API is quiet, or a request waits for background work (a command waiting for its read models),
 * background work runs as it comes.
 */
export class ConnectionTurns {
  private holder: WorkKind | undefined;
  private readonly waiting: Record<WorkKind, (() => void)[]> = { foreground: [], background: [] };
  private foregroundEndedAt = Number.NEGATIVE_INFINITY;
  private foregroundSinceBurst = 0;
  private burstStartedAt: number;
  private burstUntil = Number.NEGATIVE_INFINITY;
  private recheck: NodeJS.Timeout | undefined;
  private recheckAt = 0;
  private awaited: () => boolean = () => false;

  constructor(
    private readonly policy: TurnsPolicy = DEFAULT_TURNS_POLICY,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.burstStartedAt = now();
  }

  /** `awaited` answers whether a request is waiting for background work to progress (read-your-writes). */
  followRequests(awaited: () => boolean): void {
    this.awaited = awaited;
  }

  /**
   * A request began waiting for background work: background work held back for a quiet moment
   * may start now. Without this it waited for its next look (up to `quietMs`), although it was
   * what the request waited for.
   */
  requestWaits(): void {
    if (this.holder === undefined) this.next();
  }

  take(kind: WorkKind): Promise<void> {
    if (this.holder === undefined && this.mayTake(kind)) {
      this.holder = kind;
      return Promise.resolve();
    }
    const granted = new Promise<void>((resolve) => this.waiting[kind].push(resolve));
    if (this.holder === undefined) this.scheduleRecheck();
    return granted;
  }

  pass(): void {
    if (this.holder === 'foreground') {
      this.foregroundEndedAt = this.now();
      this.foregroundSinceBurst += 1;
    }
    this.holder = undefined;
    this.next();
  }

  /** A burst is background work's alone: a request arriving in it waits for its end, once. */
  private mayTake(kind: WorkKind): boolean {
    if (this.now() < this.burstUntil) return kind === 'background';
    return kind === 'foreground' || this.backgroundMayStart();
  }

  private next(): void {
    if (this.now() < this.burstUntil) {
      if (this.waiting.background.length > 0) return this.grant('background');
      // Between two holds of the burst's work (its code runs between its statements): keep the
      // connection for it a moment; a burst whose work ran out ends early.
      return this.scheduleRecheck();
    }
    if (this.waiting.foreground.length > 0) return this.grant('foreground');
    if (this.waiting.background.length === 0) return;
    if (this.backgroundMayStart()) return this.grant('background');
    this.scheduleRecheck();
  }

  private grant(kind: WorkKind): void {
    this.holder = kind;
    this.waiting[kind].shift()!();
  }

  /** Whether background work may take the free connection now; starts a burst when it is its turn. */
  private backgroundMayStart(): boolean {
    const now = this.now();
    if (now < this.burstUntil) return true;
    if (now - this.foregroundEndedAt >= this.policy.quietMs || this.awaited()) return true;
    const due = this.foregroundSinceBurst >= this.policy.foregroundBetween || now - this.burstStartedAt >= this.policy.maxGapMs;
    if (!due) return false;
    this.burstStartedAt = now;
    this.burstUntil = now + this.policy.burstMs;
    this.foregroundSinceBurst = 0;
    return true;
  }

  /**
   * Nobody may take the free connection yet: look again when the API may have gone quiet or a
   * burst is due; in a burst, after a moment without its work (then the burst ends).
   */
  private scheduleRecheck(): void {
    const now = this.now();
    const inBurst = now < this.burstUntil;
    if (!inBurst && this.waiting.background.length === 0) return;
    const quietAt = this.foregroundEndedAt + this.policy.quietMs;
    const burstAt = this.burstStartedAt + this.policy.maxGapMs;
    const delay = inBurst ? BURST_IDLE_MS : Math.max(1, Math.min(quietAt, burstAt) - now);
    if (this.recheck && this.recheckAt <= now + delay) return;
    clearTimeout(this.recheck);
    this.recheckAt = now + delay;
    // Not unref'd: waiting background work is work under way (a script awaiting a rebuild has nothing else keeping it alive).
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      if (this.holder !== undefined) return;
      if (this.now() < this.burstUntil && this.waiting.background.length === 0) this.burstUntil = this.now();
      this.next();
    }, delay);
  }
}
