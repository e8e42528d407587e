import type { RecordedEvent } from '../eventstore/event-store.ts';
import type { Lane } from './lanes.ts';
import type { Projector, StoredEvent } from './projector.ts';
import { HoldBudget } from '../db/hold-budget.ts';

const MIN_SLICED_BATCH = 10;

/** How many events a lane reads per batch: a ceiling, scaled to a time slice, cut by weight. */
export class BatchSizer {
  /** Batch size per lane, keyed by its first projector (lanes are rebuilt as they merge). */
  private readonly sizes = new Map<string, HoldBudget>();

  constructor(private readonly options: { batchSize?: number; sliceMs?: () => number }) {}

  sizeOf(lane: Lane): number {
    return this.sizes.get(lane.projectors[0]!.name)?.size() ?? this.options.batchSize ?? 200;
  }

  /**
   * Scales the lane's next batch towards `sliceMs` (see HoldBudget: a batch whose fixed cost alone
   * passes the slice grows until its events cost as much). A batch cut short by the head of the
   * log says nothing about a fuller one, unless it already overran the slice: a writer appending
   * a few hundred events at a time must not keep the batches at their ceiling.
   */
  resize(lane: Lane, events: number, elapsedMs: number): void {
    const sliceMs = this.options.sliceMs;
    if (!sliceMs) return;
    if (events < this.sizeOf(lane) && elapsedMs <= sliceMs()) return;
    const key = lane.projectors[0]!.name;
    const ceiling = this.options.batchSize ?? 200;
    let budget = this.sizes.get(key);
    if (!budget) this.sizes.set(key, (budget = new HoldBudget(sliceMs, { min: MIN_SLICED_BATCH, max: ceiling, start: ceiling })));
    budget.record(events, elapsedMs);
  }

  /** The longest prefix (at least one event) whose weight stays within the lane's batch size. */
  cutByWeight(lane: Lane, batch: RecordedEvent[]): RecordedEvent[] {
    const weighed = lane.projectors.filter((p) => p.weight);
    if (weighed.length === 0) return batch;
    const budget = this.sizeOf(lane);
    let total = 0;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i]! as unknown as StoredEvent;
      const weights = weighed.filter((p) => p.handles.includes(event.type)).map((p) => weightOf(p, event));
      total += Math.max(1, ...weights);
      if (total > budget && i > 0) return batch.slice(0, i);
    }
    return batch;
  }
}

function weightOf(projector: Projector, event: StoredEvent): number {
  try {
    return projector.weight!(event);
  } catch {
    // A malformed event weighs 1; `apply` is where its projector gets to fail on it.
    return 1;
  }
}
