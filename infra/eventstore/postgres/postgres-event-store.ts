import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  type AllSubscription,
  type AppendResult,
  type DataSelection,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type StreamAppend,
  type SubscribeOptions,
  WrongExpectedVersionError,
} from '../event-store.ts';
import { pollingSubscription } from '../polling-subscription.ts';
import { jsonRecordset } from '../../db/json-rows.ts';

const POLL_MS = 250;
/** The columns toRow writes as JSON text. */
const PAYLOADS: ReadonlySet<string> = new Set(['data', 'metadata']);
/** The two-key advisory lock every appending transaction holds shared, before it writes (see visibleHorizon). */
const EVENT_WRITER_LOCK = [0x6d6c6962, 1] as const;

/** Takes the event-writer lock (shared): every transaction that inserts events calls it before writing. */
export const eventWriterLock = () => sql`pg_advisory_xact_lock_shared(${EVENT_WRITER_LOCK[0]}::int, ${EVENT_WRITER_LOCK[1]}::int)`;

export interface PostgresEventStoreOptions {
  /**
   * PGlite: one connection, so no transaction is ever in progress while a read runs and the
   * snapshot's own xmin is the horizon (no extra statement).
   */
  singleConnection?: boolean;
}

/**
 * The Postgres-table event store (PGlite and PostgreSQL). Log order is (transaction id, global
 * position), and readers only see transactions older than the oldest one still running in this
 * database (see visibleHorizon), so an event whose transaction commits after a later-numbered one
 * is never skipped by a subscriber that already moved past that number.
 */
export function createPostgresEventStore(db: Kysely<Database>, { singleConnection = false }: PostgresEventStoreOptions = {}): EventStore {
  const appended = new EventEmitter();
  appended.setMaxListeners(0);

  /**
   * The transaction id below which every transaction that appends events has ended. Such a
   * transaction holds the event-writer lock (a shared advisory lock of this database) before it
   * writes, so the horizon waits only for appends: not for a projection batch, a task's bookkeeping,
   * or a long transaction in another database of the cluster (a backup, another application), which
   * the cluster-wide pg_snapshot_xmin would all wait for. Computed in its own statement, before the
   * read: an append running when its snapshot was taken either shows in pg_locks (and bounds the
   * horizon) or has ended before the read's later snapshot, which then sees its events; an append
   * that has the lock but no transaction id yet will get one above the snapshot's xmax.
   */
  async function visibleHorizon() {
    if (singleConnection) return sql`pg_snapshot_xmin(pg_current_snapshot())`;
    const { rows } = await sql<{ horizon: string }>`
      select least(
        pg_snapshot_xmax(snap.s)::text::bigint,
        (select min(x::text::bigint) from pg_snapshot_xip(snap.s) as x
          where (x::text::bigint % 4294967296) in (
            select activity.backend_xid::text::bigint
            from pg_locks as lock join pg_stat_activity as activity on activity.pid = lock.pid
            where lock.locktype = 'advisory' and lock.granted
              and lock.database = (select oid from pg_database where datname = current_database())
              and lock.classid = ${EVENT_WRITER_LOCK[0]} and lock.objid = ${EVENT_WRITER_LOCK[1]} and lock.objsubid = 2
              and activity.backend_xid is not null))
      )::text as horizon
      from (select pg_current_snapshot() as s) as snap`.execute(db);
    return sql`${rows[0]!.horizon}::xid8`;
  }

  /**
   * Two statements whatever the number of streams: create or lock every stream row and read its
   * revision (one upsert, in one order, so concurrent appends cannot deadlock; on PostgreSQL it
   * takes the event-writer lock first, see visibleHorizon), check each expected revision, then
   * insert all events and move all revisions in one statement. Each statement is a round trip (to
   * the database thread on PGlite), which is most of a small append's cost; each has the same text
   * whatever the number of streams and events (arrays, JSON rows: see ../../db/json-rows.ts).
   */
  async function appendIn(trx: Transaction<Database>, appends: StreamAppend[]): Promise<AppendResult> {
    if (appends.some((a) => a.events.length === 0)) throw new Error('append needs at least one event');
    const ids = [...new Set(appends.map((a) => a.streamId))].sort();
    const writer = singleConnection ? sql`` : sql`cross join (select ${eventWriterLock()}) as writer`;
    // The no-op update locks an existing row and answers its revision as of the lock (the latest commit).
    const { rows: locked } = await sql<{ stream_id: string; revision: number }>`
      insert into streams (stream_id, revision)
      select stream.id, -1 from unnest(${ids}::text[]) as stream(id) ${writer}
      on conflict (stream_id) do update set revision = streams.revision
      returning stream_id, revision`.execute(trx);
    const revisions = new Map(locked.map((r) => [r.stream_id, Number(r.revision)]));
    const rows = appends.flatMap(({ streamId, events, expectedRevision }) => {
      const current = revisions.get(streamId)!;
      checkExpected(streamId, expectedRevision, current);
      revisions.set(streamId, current + events.length);
      return events.map((e, i) => toRow(streamId, current + 1 + i, e));
    });
    const moved = sql`unnest(${ids}::text[], ${ids.map((id) => revisions.get(id)!)}::bigint[]) as moved(stream_id, revision)`;
    const { rows: inserted } = await sql<{ tx: string; gp: string }>`
      with moved as (update streams set revision = moved.revision from ${moved} where streams.stream_id = moved.stream_id)
      insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
      select r.stream_id, r.stream_revision, r.event_id, r.event_type, r.data, r.metadata from ${jsonRecordset('events', rows, PAYLOADS)}
      returning transaction_id::text as tx, global_position::text as gp`.execute(trx);
    const last = inserted.reduce((a, b) => (BigInt(b.gp) > BigInt(a.gp) ? b : a));
    return { nextRevision: revisions.get(appends[appends.length - 1]!.streamId)!, position: { commit: BigInt(last.tx), prepare: BigInt(last.gp) } };
  }

  async function appendMany(appends: StreamAppend[]): Promise<AppendResult> {
    if (appends.length === 0) throw new Error('appendMany needs at least one stream');
    const result = await db.transaction().execute((trx) => appendIn(trx, appends));
    appended.emit('appended', new Set(appends.flatMap((a) => a.events.map((e) => e.type))));
    return result;
  }

  async function readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const horizon = await visibleHorizon();
    const rows = await db
      .selectFrom('events')
      .select(['stream_id', 'stream_revision', 'event_id', 'event_type', 'created_at', carried('data', options), carried('metadata', options)])
      .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
      .where(sql<boolean>`(transaction_id, global_position) > (${after.commit < 0n ? '0' : after.commit.toString()}::xid8, ${after.prepare.toString()}::bigint)`)
      .where(sql<boolean>`transaction_id < ${horizon}`)
      .orderBy('transaction_id')
      .orderBy('global_position')
      .limit(options.maxCount ?? 1000)
      .execute();
    return rows.map(fromRow);
  }

  return {
    kind: 'postgres',
    append: (streamId, events, expectedRevision) => appendMany([{ streamId, events, expectedRevision }]),
    appendMany,
    async readStream(streamId: string, options: ReadStreamOptions = {}) {
      const rows = await db
        .selectFrom('events')
        .select(['stream_id', 'stream_revision', 'event_id', 'event_type', 'created_at', carried('data', {}), carried('metadata', {})])
        .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
        .where('stream_id', '=', streamId)
        .where('stream_revision', '>=', options.fromRevision ?? 0)
        .orderBy('stream_revision')
        .limit(options.maxCount ?? 100_000)
        .execute();
      return rows.map(fromRow);
    },
    readAll,
    subscribeToAll(options: SubscribeOptions = {}): AllSubscription {
      return pollingSubscription({
        readAll,
        after: options.after ?? START,
        batchSize: options.batchSize ?? 500,
        withDataOf: options.withDataOf,
        waitForAppend: (signal) => waitForAppend(appended, signal, POLL_MS, options.wakeFor),
      });
    },
    async headPosition(): Promise<Position> {
      const horizon = await visibleHorizon();
      const row = await db
        .selectFrom('events')
        .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
        .where(sql<boolean>`transaction_id < ${horizon}`)
        .orderBy('transaction_id', 'desc')
        .orderBy('global_position', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { commit: BigInt(row.tx), prepare: BigInt(row.gp) } : START;
    },
    async close() {
      appended.removeAllListeners();
    },
  };
}

/**
 * A payload column as JSON text (parsed by fromRow), or an empty object for the events whose data
 * the reader did not ask for. Text, because on the embedded database the rows cross from PGlite's
 * thread: it decodes and copies a string for a fraction of what a parsed object tree costs it
 * (a batch of 500 events: about 30% less of that thread's time), and parsing moves to this one.
 */
function carried<C extends 'data' | 'metadata'>(column: C, { withDataOf }: DataSelection) {
  if (withDataOf === undefined) return sql<string>`${sql.ref(column)}::text`.as(column);
  if (withDataOf.length === 0) return sql<string>`'{}'`.as(column);
  return sql<string>`case when event_type in (${sql.join(withDataOf)}) then ${sql.ref(column)}::text else '{}' end`.as(column);
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number): void {
  const exists = current >= 0;
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && !exists) ||
    (expected === 'stream_exists' && exists) ||
    expected === current;
  if (!ok) throw new WrongExpectedVersionError(streamId, expected, exists ? current : 'no_stream');
}

function toRow(streamId: string, revision: number, e: NewEvent) {
  return {
    stream_id: streamId,
    stream_revision: revision,
    event_id: e.id ?? randomUUID(),
    event_type: e.type,
    data: JSON.stringify(e.data ?? {}),
    metadata: JSON.stringify({ at: new Date().toISOString(), ...e.metadata }),
  };
}

interface EventRow {
  tx: string;
  gp: string;
  stream_id: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  data: string;
  metadata: string;
  created_at: Date;
}

function fromRow(r: EventRow): RecordedEvent {
  return {
    id: r.event_id,
    type: r.event_type,
    streamId: r.stream_id,
    revision: r.stream_revision,
    position: { commit: BigInt(r.tx), prepare: BigInt(r.gp) },
    data: JSON.parse(r.data),
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  };
}

/**
 * Resolves on the next in-process append (of one of `wakeFor`'s types when given), or after the
 * poll interval (appends by other processes, and the types not waited for).
 */
function waitForAppend(emitter: EventEmitter, signal: AbortSignal, pollMs: number, wakeFor?: readonly string[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off('appended', appendedNow);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const appendedNow = (types: ReadonlySet<string>) => {
      if (!wakeFor || wakeFor.some((t) => types.has(t))) done();
    };
    const timer = setTimeout(done, pollMs);
    emitter.on('appended', appendedNow);
    signal.addEventListener('abort', done, { once: true });
  });
}
