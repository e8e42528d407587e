import { type Kysely, type OnConflictUpdateBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CheckpointState, ProjectionCheckpointsTable } from './checkpoints.table.ts';
import { type Position, comparePositions, decodePosition, encodePosition } from '../eventstore/event-store.ts';

/** `rebuilding`: replaying behind the live read models; `stalled`: stopped on an event (see Stall). */

/** Where a projector stopped: the event it kept failing on. Its checkpoint is the position before it. */
export interface Stall {
  eventPosition: Position;
  eventId: string;
  stream: string;
  type: string;
  error: string;
  since: Date;
}

export interface Checkpoint {
  name: string;
  version: number;
  position: Position;
  state: CheckpointState;
  stall: Stall | null;
}

type Executor = Transaction<Database> | Kysely<Database>;

export async function readCheckpoints(db: Kysely<Database>): Promise<Map<string, Checkpoint>> {
  const rows = await db.selectFrom('projection_checkpoints').selectAll().execute();
  return new Map(rows.map((r) => [r.name, checkpointOf(r)]));
}

function checkpointOf(r: ProjectionCheckpointsTable): Checkpoint {
  const stall: Stall | null =
    r.state === 'stalled' && r.stalled_event_position
      ? {
          eventPosition: decodePosition(r.stalled_event_position),
          eventId: r.stalled_event_id ?? '',
          stream: r.stalled_stream ?? '',
          type: r.stalled_event_type ?? '',
          error: r.stalled_error ?? '',
          since: new Date(r.stalled_since ?? r.updated_at),
        }
      : null;
  return { name: r.name, version: r.version, position: decodePosition(r.position), state: stall ? 'stalled' : r.state, stall };
}

const NO_STALL = {
  stalled_since: null,
  stalled_event_position: null,
  stalled_event_id: null,
  stalled_stream: null,
  stalled_event_type: null,
  stalled_error: null,
} as const;

/**
 * Moves checkpoints (in the batch's transaction); a projector that moves is no longer stalled.
 * With `from`, the write is the set half of the batch's compare-and-set as well: a row that already
 * stands past `from` (another process applied those events) is left as it is and CheckpointMoved
 * thrown, so the batch rolls back. On PostgreSQL a second owner's write waits on the first's row
 * lock and then sees the moved row. One statement fewer per batch than locking the rows first
 * (guardCheckpoints), which a batch that runs again projector by projector still does.
 */
export async function saveCheckpoints(trx: Executor, checkpoints: { name: string; version: number; position: Position; state: 'live' | 'rebuilding' }[], from?: Position): Promise<void> {
  if (checkpoints.length === 0) return;
  const rows = checkpoints.map((c) => ({ name: c.name, version: c.version, position: encodePosition(c.position), state: c.state, ...NO_STALL, updated_at: new Date() }));
  if (!from) return upsert(trx, rows);
  const stored = (part: 1 | 2) => sql`split_part(projection_checkpoints.position, '/', ${sql.lit(part)})::numeric`;
  const written = await upsertQuery(trx, rows, (update) =>
    update.where(sql<boolean>`(${stored(1)}, ${stored(2)}) <= (${from.commit.toString()}::numeric, ${from.prepare.toString()}::numeric)`),
  )
    .returning('name')
    .execute();
  if (written.length < rows.length) {
    const names = new Set(written.map((r) => r.name));
    throw new CheckpointMoved(rows.filter((r) => !names.has(r.name)).map((r) => r.name));
  }
}

/** Records a projector as stalled at `position` (the last event it applied) on `stall.eventPosition`. */
export async function saveStall(trx: Executor, checkpoint: { name: string; version: number; position: Position }, stall: Stall): Promise<void> {
  await upsert(trx, [
    {
      name: checkpoint.name,
      version: checkpoint.version,
      position: encodePosition(checkpoint.position),
      state: 'stalled',
      stalled_since: stall.since,
      stalled_event_position: encodePosition(stall.eventPosition),
      stalled_event_id: stall.eventId,
      stalled_stream: stall.stream,
      stalled_event_type: stall.type,
      stalled_error: stall.error,
      updated_at: new Date(),
    },
  ]);
}

async function upsert(trx: Executor, rows: ProjectionCheckpointsTable[]): Promise<void> {
  await upsertQuery(trx, rows).execute();
}

function upsertQuery(trx: Executor, rows: ProjectionCheckpointsTable[], only: (update: OnConflictUpdateBuilder<any, any>) => OnConflictUpdateBuilder<any, any> = (u) => u) {
  const columns = Object.keys(rows[0]!).filter((c) => c !== 'name') as (keyof ProjectionCheckpointsTable)[];
  return trx
    .insertInto('projection_checkpoints')
    .values(rows)
    .onConflict((oc) => only(oc.column('name').doUpdateSet(Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])))));
}

/** Another process applied events past where this one's batch starts: the batch must not commit. */
export class CheckpointMoved extends Error {
  constructor(readonly projectors: string[]) {
    super(`checkpoints moved under the batch (another process runs these projectors): ${projectors.join(', ')}`);
  }
}

/**
 * The compare half of a batch's compare-and-set, first in its transaction: locks the checkpoint rows
 * the batch will write and throws CheckpointMoved when one already stands past `from`, the position
 * the batch starts after. A second owner's batch waits on the row locks and then finds them moved,
 * so one batch is never applied twice, whatever the leases did.
 */
export async function guardCheckpoints(trx: Transaction<Database>, names: string[], from: Position): Promise<void> {
  if (names.length === 0) return;
  const rows = await trx.selectFrom('projection_checkpoints').select(['name', 'position']).where('name', 'in', names).forUpdate().execute();
  const moved = rows.filter((r) => comparePositions(decodePosition(r.position), from) > 0).map((r) => r.name);
  if (moved.length > 0) throw new CheckpointMoved(moved);
}
