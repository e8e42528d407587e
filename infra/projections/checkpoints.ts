import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { type Position, START, comparePositions, decodePosition, encodePosition } from '../eventstore/event-store.ts';

export interface ProjectionCheckpointsTable {
  name: string;
  version: number;
  position: string;
  updated_at: Date;
}

export interface Checkpoint {
  name: string;
  version: number;
  position: Position;
}

export async function readCheckpoints(db: Kysely<Database>): Promise<Map<string, Checkpoint>> {
  const rows = await db.selectFrom('projection_checkpoints').selectAll().execute();
  return new Map(rows.map((r) => [r.name, { name: r.name, version: r.version, position: decodePosition(r.position) }]));
}

export async function saveCheckpoints(
  trx: Transaction<Database> | Kysely<Database>,
  checkpoints: { name: string; version: number; position: Position }[],
): Promise<void> {
  if (checkpoints.length === 0) return;
  await trx
    .insertInto('projection_checkpoints')
    .values(checkpoints.map((c) => ({ name: c.name, version: c.version, position: encodePosition(c.position), updated_at: new Date() })))
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        version: sql`excluded.version`,
        position: sql`excluded.position`,
        updated_at: sql`excluded.updated_at`,
      }),
    )
    .execute();
}

/** The furthest position any projector has reached: the live read models' position. */
export async function livePosition(db: Kysely<Database>): Promise<Position> {
  const rows = await db.selectFrom('projection_checkpoints').select('position').execute();
  return rows.map((r) => decodePosition(r.position)).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b), START);
}
