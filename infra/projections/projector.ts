import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { RecordedEvent } from '../eventstore/event-store.ts';
import type { DomainEvent } from '../../shared/events/index.ts';

/** A recorded event whose `type` and `data` are typed by the domain's event union. */
export type StoredEvent = Omit<RecordedEvent, 'type' | 'data'> & DomainEvent;

/**
 * One read model: its rows are a pure function of the log. Bumping `version` rebuilds it from the
 * start of the log on the next boot.
 */
export interface Projector {
  readonly name: string;
  readonly version: number;
  /** Event types it reads; others are skipped without a call. */
  readonly handles: readonly DomainEvent['type'][];
  /**
   * The handled types whose `data` it reads (default: every type it handles). The others arrive
   * with empty data: a projector that counts every event must not make each batch carry them all.
   */
  readonly readsDataOf?: readonly DomainEvent['type'][];
  /** Tables it owns; emptied before a rebuild. */
  readonly tables: readonly (keyof Database & string)[];
  /**
   * How much work one event is, counted like events (default 1). The runner ends a batch once its
   * weight passes the batch size, so a few heavy events (a page of 200 scrobbles) do not hold the
   * database as long as hundreds of them would.
   */
  weight?(event: StoredEvent): number;
  /** Applies a batch in the runner's transaction; multi-row writes belong here on hot paths. */
  apply(trx: Transaction<Database>, events: StoredEvent[]): Promise<void>;
}

/** An `apply` that handles a batch one event at a time, for read models off the hot path. */
export function oneByOne<E extends DomainEvent>(applyOne: (trx: Transaction<Database>, event: StoredEvent & E) => Promise<void>): Projector['apply'] {
  return async (trx, events) => {
    for (const event of events) await applyOne(trx, event as StoredEvent & E);
  };
}

/** The names of the projectors that read any of `types`; undefined (every projector) when `types` is. */
export function projectorsHandling(projectors: readonly Projector[], types: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (!types) return undefined;
  return new Set(projectors.filter((p) => p.handles.some((t) => types.has(t))).map((p) => p.name));
}
