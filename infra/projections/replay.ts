import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { type EventStore, type Position, START, comparePositions } from '../eventstore/event-store.ts';
import { applyBatch } from './apply-batch.ts';
import type { Projector } from './projector.ts';

const BATCH = 1000;

export interface ReplaySummary {
  /** The last event applied (at or before the position asked for). */
  through: Position | null;
  events: number;
  /** Rows per read model, table by table. */
  read_models: Record<string, Record<string, number>>;
  /** Read models that failed on an event, with the first error. */
  failed: Record<string, string>;
}

/**
 * Rebuilds every read model into `db` (a migrated, empty scratch database) from the start of the
 * log through `to`, in batches, with the projectors' own apply: what the read models held when the
 * log ended there. A projector that fails stops alone and is reported.
 */
export async function replayInto(store: EventStore, db: Kysely<Database>, projectors: Projector[], to: Position): Promise<ReplaySummary> {
  let after: Position | undefined;
  let events = 0;
  const failed: Record<string, string> = {};
  let live = projectors;
  for (;;) {
    const batch = (await store.readAll({ after, maxCount: BATCH })).filter((e) => comparePositions(e.position, to) <= 0);
    if (batch.length === 0) break;
    const position = batch[batch.length - 1]!.position;
    const outcome = await applyBatch(db, live, batch, { position, state: 'live', from: after ?? START });
    for (const [projector, error] of outcome.failed) failed[projector.name] = error instanceof Error ? error.message : String(error);
    live = live.filter((p) => !(p.name in failed));
    events += batch.length;
    after = position;
    if (batch.length < BATCH) break;
  }
  const read_models: ReplaySummary['read_models'] = {};
  for (const projector of projectors) {
    read_models[projector.name] = {};
    for (const table of projector.tables) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
      read_models[projector.name]![table] = Number(rows[0]?.n ?? 0);
    }
  }
  return { through: after ?? null, events, read_models, failed };
}
