/** What a background task sees while it runs. */
export interface TaskContext<P = Record<string, unknown>> {
  readonly taskId: string;
  readonly params: P;
  readonly startedBy: string | null;
  /**
   * Aborted when a cancel is requested or the service stops; pass it to long awaits. A task that
   * stops because of it (at a checkpoint or in an aborted await) is recorded cancelled after a
   * cancel, and interrupted (failed, or resumed next start when resumable) after a stop.
   */
  readonly signal: AbortSignal;
  /** A cooperative stop point: throws StoppedByCancel once the signal is aborted. */
  checkpoint(): void;
  /**
   * Records progress; throttled, so call it as often as convenient. Writes keep their order and the
   * outcome is recorded after the last one; it never rejects.
   */
  progress(progress: Record<string, unknown>): Promise<void>;
  /** Progress recorded by an earlier run of a resumed task. */
  readonly resumedFrom: Record<string, unknown> | null;
}

export interface TaskDefinition<P = Record<string, unknown>> {
  readonly name: string;
  /** A resumable task is re-run after a restart (with `resumedFrom`); others are recorded failed. */
  readonly resumable?: boolean;
  run(ctx: TaskContext<P>): Promise<Record<string, unknown>>;
}

/**
 * Thrown at a checkpoint after a cancel request; carries what was done so far. The runner records
 * it as the `TaskCancelled` event (an error, not the event: hence the other name).
 */
export class StoppedByCancel extends Error {
  constructor(readonly summary: Record<string, unknown> = {}) {
    super('task cancelled');
  }
}
