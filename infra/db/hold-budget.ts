/**
 * How many items (events, observations) one hold of the embedded connection may carry so that it
 * lasts about `targetMs`: a request waits for the hold under way, whatever its priority. Learns a
 * hold's fixed cost and its cost per item from the holds it is told about. Where the fixed cost
 * alone passes the target (a busy machine), it stops shrinking at the size where the items cost as
 * much as the fixed part: a smaller hold would barely be shorter, and many more of them would be
 * needed.
 */
export class HoldBudget {
  private fixedMs = 0;
  private perItemMs: number | undefined;
  private last: { items: number; ms: number } | undefined;
  private current: number;

  constructor(
    private readonly targetMs: () => number,
    private readonly bounds: { min: number; max: number; start: number },
  ) {
    this.current = bounds.start;
  }

  size(): number {
    return this.current;
  }

  /** A hold of `items` lasted `ms`. */
  record(items: number, ms: number): void {
    this.learn(items, ms);
    const perItem = this.perItemMs ?? ms / Math.max(items, 1);
    const fitting = (this.targetMs() - this.fixedMs) / Math.max(perItem, 1e-3);
    const worthIt = this.fixedMs / Math.max(perItem, 1e-3);
    const ideal = Math.max(fitting, worthIt);
    // Halfway each time, so one slow hold does not swing it.
    this.current = Math.round(Math.max(this.bounds.min, Math.min(this.bounds.max, (this.current + ideal) / 2)));
  }

  /** Two holds of different sizes give the slope (cost per item) and the intercept (fixed cost), averaged over time. */
  private learn(items: number, ms: number): void {
    const previous = this.last;
    this.last = { items, ms };
    if (!previous || Math.abs(items - previous.items) < Math.max(2, previous.items / 4)) {
      // No slope from two holds of about one size, but their time still corrects the cost per item:
      // else one hold that waited behind another (a request, an import's page) could teach a cost
      // that keeps every later hold at one small size, and so is never learned again.
      if (this.perItemMs !== undefined && items > 0) this.perItemMs = (this.perItemMs + Math.max(0, ms - this.fixedMs) / items) / 2;
      return;
    }
    const slope = (ms - previous.ms) / (items - previous.items);
    if (!(slope > 0)) return;
    const fixed = Math.max(0, ms - slope * items);
    const first = this.perItemMs === undefined;
    this.perItemMs = first ? slope : (this.perItemMs! + slope) / 2;
    this.fixedMs = first ? fixed : (this.fixedMs + fixed) / 2;
  }
}
