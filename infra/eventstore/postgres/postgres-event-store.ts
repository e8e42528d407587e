import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Engine } from '../../db/create-db.ts';
import {
  type AllSubscription,
  type AppendResult,
  type DataSelection,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type StreamAppend,
  type SubscribeOptions,
  WrongExpectedVersionError,
} from '../event-store.ts';
import { type TypedReadOptions, pollingSubscription } from '../polling-subscription.ts';
import { executePrepared } from '../../db/prepared.ts';

const POLL_MS = 250;
/** The two-key advisory lock every appending transaction holds shared, before it writes (see visibleHorizon). */
const EVENT_WRITER_LOCK = [0x6d6c6962, 1] as const;

/** Takes the event-writer lock (shared): every transaction that inserts events calls it before writing. */
export const eventWriterLock = () => sql`pg_advisory_xact_lock_shared(${EVENT_WRITER_LOCK[0]}::int, ${EVENT_WRITER_LOCK[1]}::int)`;

export interface PostgresEventStoreOptions {
  /**
   * The database under it (PostgreSQL unless told). PGlite has one connection, so no transaction
   * is ever in progress while a read runs and the snapshot's own xmin is the horizon (no extra
   * statement). Either way its statements are prepared (../../db/prepared.ts).
   */
  engine?: Engine;
}

/**
 * The Postgres-table event store (PGlite and PostgreSQL). Log order is (transaction id, global
 * position), and readers only see transactions older than the oldest one still running in this
 * database (see visibleHorizon), so an event whose transaction commits after a later-numbered one
 * is never skipped by a subscriber that already moved past that number.
 */
export function createPostgresEventStore(db: Kysely<Database>, { engine = 'postgres' }: PostgresEventStoreOptions = {}): EventStore {
  const appended = new EventEmitter();
  appended.setMaxListeners(0);
  const singleConnection = engine === 'pglite';

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
    const query = sql<{ horizon: string }>`
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
      from (select pg_current_snapshot() as s) as snap`.compile(db);
    const { rows } = await executePrepared(db, engine, query);
    return sql`${rows[0]!.horizon}::xid8`;
  }

  /**
   * One statement whatever the number of streams and events, so one round trip (to the database
   * thread on PGlite) and no transaction around it: it creates or moves every stream row by the
   * number of events it gets (one upsert, in one order, so concurrent appends cannot deadlock; on
   * PostgreSQL it takes the event-writer lock first, see visibleHorizon), checks each expected
   * revision against the revision before (event_store_expect, migration 0190: a mismatch is an
   * error, and the statement writes nothing), and inserts the events after it, in order. Its text
   * is the same whatever it carries (the events as columns, see EventColumns), so it is
   * prepared once (../../db/prepared.ts): planning it took 0.6 ms of a 100-event append on PGlite,
   * and in alternating runs appends went from 0.53-0.58 to 0.59-0.60 times the raw INSERT ceiling
   * there, from 0.53 to 0.56 on PostgreSQL. It answers one row, the position and the last
   * stream's revision: rows that cross back cost PGlite more than aggregating them where they are
   * written.
   */
  async function appendMany(appends: StreamAppend[]): Promise<AppendResult> {
    if (appends.length === 0) throw new Error('appendMany needs at least one stream');
    if (appends.some((a) => a.events.length === 0)) throw new Error('append needs at least one event');
    // Offsets within this call: a stream may come twice, its second append checked against the first's end.
    const counts = new Map<string, number>();
    const checks: { streamId: string; expected: string; offset: number }[] = [];
    const rows = new EventColumns();
    for (const { streamId, events, expectedRevision } of appends) {
      const offset = counts.get(streamId) ?? 0;
      counts.set(streamId, offset + events.length);
      checks.push({ streamId, expected: String(expectedRevision), offset });
      events.forEach((e, i) => rows.push(streamId, offset + i, e));
    }
    const ids = [...counts.keys()].sort();
    const writer = singleConnection ? sql`` : sql`cross join (select ${eventWriterLock()}) as writer`;
    const lastStream = appends[appends.length - 1]!.streamId;
    const statement = sql<{ tx: string; gp: string; revision: number }>`
      with totals as (select * from unnest(${ids}::text[], ${ids.map((id) => counts.get(id)!)}::int[]) as t(stream_id, n)),
      moved as (
        insert into streams (stream_id, revision)
        select totals.stream_id, totals.n - 1 from totals ${writer} order by totals.stream_id
        on conflict (stream_id) do update set revision = streams.revision + excluded.revision + 1
        returning stream_id, revision),
      before as (select moved.stream_id, moved.revision - totals.n as revision from moved join totals using (stream_id)),
      checked as (
        select bool_and(event_store_expect(c.stream_id, c.expected, before.revision + c.at_offset)) as ok
        from unnest(${checks.map((c) => c.streamId)}::text[], ${checks.map((c) => c.expected)}::text[], ${checks.map((c) => c.offset)}::int[]) as c(stream_id, expected, at_offset)
        join before using (stream_id)),
      written as (
        insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
        select r.stream_id, before.revision + 1 + r.stream_revision, r.event_id, r.event_type, r.data, r.metadata
        from rows from (unnest(${rows.streamIds}::text[]), unnest(${rows.revisions}::int[]), unnest(${rows.eventIds}::uuid[]), unnest(${rows.types}::text[]),
          jsonb_array_elements(${rows.json('data')}::jsonb), jsonb_array_elements(${rows.json('metadata')}::jsonb))
          with ordinality as r(stream_id, stream_revision, event_id, event_type, data, metadata) join before using (stream_id)
        where (select ok from checked)
        order by r.ordinality
        returning transaction_id, global_position, stream_id, stream_revision)
      select max(transaction_id::text) as tx, max(global_position)::text as gp,
        max(stream_revision) filter (where stream_id = ${lastStream}) as revision
      from written`
      .compile(db);
    const inserted = await executePrepared(db, engine, statement)
      .catch((error: unknown) => {
        throw wrongExpectedVersion(error) ?? error;
      });
    const last = inserted.rows[0]!;
    appended.emit('appended', new Set(appends.flatMap((a) => a.events.map((e) => e.type))));
    return { nextRevision: Number(last.revision), position: { commit: BigInt(last.tx), prepare: BigInt(last.gp) } };
  }

  async function readAll(options: TypedReadOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const { types } = options;
    const horizon = await visibleHorizon();
    const query = db
      .selectFrom('events')
      .select(['stream_id', 'stream_revision', 'event_id', 'event_type', 'created_at', carried('data', options), carried('metadata', options)])
      .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
      .where(sql<boolean>`(transaction_id, global_position) > (${after.commit < 0n ? '0' : after.commit.toString()}::xid8, ${after.prepare.toString()}::bigint)`)
      .where(sql<boolean>`transaction_id < ${horizon}`)
      .$if(types !== undefined, (qb) => qb.where('event_type', 'in', types!.length > 0 ? types! : ['']))
      .orderBy('transaction_id')
      .orderBy('global_position')
      .limit(options.maxCount ?? 1000)
      .compile();
    const { rows } = await executePrepared(db, engine, query);
    return rows.map(fromRow);
  }

  async function headPosition(): Promise<Position> {
    const horizon = await visibleHorizon();
    const query = db
      .selectFrom('events')
      .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
      .where(sql<boolean>`transaction_id < ${horizon}`)
      .orderBy('transaction_id', 'desc')
      .orderBy('global_position', 'desc')
      .limit(1)
      .compile();
    const [row] = (await executePrepared(db, engine, query)).rows;
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.gp) } : START;
  }

  return {
    kind: 'postgres',
    append: (streamId, events, expectedRevision) => appendMany([{ streamId, events, expectedRevision }]),
    appendMany,
    async readStream(streamId: string, options: ReadStreamOptions = {}) {
      const query = db
        .selectFrom('events')
        .select(['stream_id', 'stream_revision', 'event_id', 'event_type', 'created_at', carried('data', {}), carried('metadata', {})])
        .select([sql<string>`transaction_id::text`.as('tx'), sql<string>`global_position::text`.as('gp')])
        .where('stream_id', '=', streamId)
        .where('stream_revision', '>=', options.fromRevision ?? 0)
        .orderBy('stream_revision')
        .limit(options.maxCount ?? 100_000)
        .compile();
      return (await executePrepared(db, engine, query)).rows.map(fromRow);
    },
    readAll,
    subscribeToAll(options: SubscribeOptions = {}): AllSubscription {
      return pollingSubscription({
        readAll,
        after: options.after ?? START,
        batchSize: options.batchSize ?? 500,
        withDataOf: options.withDataOf,
        onlyTypes: options.onlyTypes,
        headPosition,
        passed: options.passed,
        waitForAppend: (signal) => waitForAppend(appended, signal, POLL_MS, options.wakeFor),
      });
    },
    headPosition,
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

/** The append's refusal (SQLSTATE ML409 from event_store_expect) as the error the port promises; undefined for any other error. */
function wrongExpectedVersion(error: unknown): WrongExpectedVersionError | undefined {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
  if (code !== 'ML409' || typeof detail !== 'string') return undefined;
  const { stream, expected, current } = JSON.parse(detail) as { stream: string; expected: string; current: number };
  return new WrongExpectedVersionError(stream, /^\d+$/.test(expected) ? Number(expected) : (expected as ExpectedRevision), current >= 0 ? current : 'no_stream');
}

/**
 * One call's events as columns, each sent as one array: the payloads as one JSON array each, so
 * they go as JSON text once instead of as array items whose every quote is escaped. Event ids are
 * random UUIDs (nothing indexes them; encoding a ULID as a UUID cost about 3 µs an event).
 */
class EventColumns {
  readonly streamIds: string[] = [];
  readonly revisions: number[] = [];
  readonly eventIds: string[] = [];
  readonly types: string[] = [];
  private readonly payloads = { data: [] as string[], metadata: [] as string[] };
  private readonly at = new Date().toISOString();

  push(streamId: string, revision: number, e: NewEvent): void {
    this.streamIds.push(streamId);
    this.revisions.push(revision);
    this.eventIds.push(e.id ?? randomUUID());
    this.types.push(e.type);
    this.payloads.data.push(JSON.stringify(e.data ?? {}));
    this.payloads.metadata.push(JSON.stringify({ at: this.at, ...e.metadata }));
  }

  json(column: 'data' | 'metadata'): string {
    return `[${this.payloads[column].join(',')}]`;
  }
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
