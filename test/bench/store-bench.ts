import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type EventStore, START, type Position } from '../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../infra/eventstore/postgres/postgres-event-store.ts';
import { ProjectionRunner } from '../../infra/projections/runner.ts';
import { projectors, rebuildableReadModels } from '../../projectors/registry.ts';
import { EVENTS_PER_TASK, rawRows, taskBatch, taskLife } from './events.ts';
import { rate, timed } from './report.ts';
import { randomUUID } from 'node:crypto';

export interface StoreBenchSizes {
  /** Events appended in batches (and written by the raw INSERT ceiling). */
  events: number;
  /** Events per appendMany call and per raw multi-row INSERT. */
  batch: number;
  /** Events appended one per call. */
  single: number;
  /** appendMany callers running at once (the concurrent row). */
  concurrency: number;
}

export interface Measure {
  key: string;
  label: string;
  events: number;
  ms: number;
  rate: number;
}

const RAW_TABLE = 'bench_raw_events';

/**
 * Append, replay and projection rates of the Postgres event store on one database, beside the raw
 * multi-row INSERT rate of the same database into a plain table of the same row shape (the ceiling).
 */
export async function benchStore(db: Kysely<Database>, sizes: StoreBenchSizes, note: (msg: string) => void): Promise<Measure[]> {
  const measures: Measure[] = [];
  const add = (key: string, label: string, events: number, ms: number) => {
    measures.push({ key, label, events, ms, rate: rate(events, ms) });
    note(`${label}: ${events} events in ${(ms / 1000).toFixed(2)} s`);
  };
  const raw = db as unknown as Kysely<any>;

  // The ceiling: the same rows, jsonb payloads, a plain table with only a primary key, one
  // multi-row INSERT per batch (autocommit: one transaction per statement).
  await sql`create table ${sql.table(RAW_TABLE)} (
    id bigint generated always as identity primary key,
    stream_id text not null,
    stream_revision integer not null,
    event_id uuid not null,
    event_type text not null,
    data jsonb not null,
    metadata jsonb not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  const store = createPostgresEventStore(db);
  try {
    {
      // The ceiling and appendMany take turns, call by call: a machine shared with other work
      // slows both sides of the ratio alike (measured one after the other, a busy second moved it 2x).
      const rawBatches = prepare(sizes.events, sizes.batch, (n) => rawRows(n));
      const appendBatches = prepare(sizes.events, sizes.batch, (n) => taskBatch(n));
      let rawMs = 0;
      let appendMs = 0;
      for (const [i, rows] of rawBatches.entries()) {
        rawMs += (await timed(() => raw.insertInto(RAW_TABLE).values(rows).execute())).ms;
        appendMs += (await timed(() => store.appendMany(appendBatches[i]!))).ms;
      }
      add('raw_multi', `raw INSERT, ${sizes.batch} rows/statement (ceiling)`, sizes.events, rawMs);
      add('append_batch', `appendMany, ${sizes.batch} events (${sizes.batch / EVENTS_PER_TASK} streams)/call`, sizes.events, appendMs);
    }
    {
      const rows = rawRows(sizes.single);
      const { ms } = await timed(async () => {
        for (const row of rows) await raw.insertInto(RAW_TABLE).values(row).execute();
      });
      add('raw_single', 'raw INSERT, 1 row/statement', sizes.single, ms);
    }
    await sql`drop table ${sql.table(RAW_TABLE)}`.execute(db);
    {
      const batches = prepare(sizes.events, sizes.batch, (n) => taskBatch(n));
      let next = 0;
      const { ms } = await timed(() =>
        Promise.all(
          Array.from({ length: sizes.concurrency }, async () => {
            while (next < batches.length) await store.appendMany(batches[next++]!);
          }),
        ),
      );
      add('append_concurrent', `appendMany x${sizes.concurrency} concurrent callers`, sizes.events, ms);
    }
    {
      // Command-handler shape: each task's events one call at a time at the exact revision.
      const lives = Array.from({ length: Math.ceil(sizes.single / EVENTS_PER_TASK) }, () => {
        const id = randomUUID();
        return { streamId: `task-${id}`, events: taskLife(id) };
      });
      let count = 0;
      const { ms } = await timed(async () => {
        for (const life of lives) {
          for (const [revision, event] of life.events.entries()) {
            if (count++ >= sizes.single) return;
            await store.append(life.streamId, [event], revision === 0 ? 'no_stream' : revision - 1);
          }
        }
      });
      add('append_single', 'append, 1 event/call (expected revision)', Math.min(count, sizes.single), ms);
    }

    const total = await countEvents(db);
    {
      const { ms, value: read } = await timed(async () => {
        let after: Position = START;
        let n = 0;
        for (;;) {
          const page = await store.readAll({ after, maxCount: 1000 });
          if (page.length === 0) return n;
          n += page.length;
          after = page[page.length - 1]!.position;
        }
      });
      if (read !== total) throw new Error(`readAll returned ${read} events, the log holds ${total}`);
      add('read_all', 'readAll, pages of 1000', read, ms);
    }
    await benchProjections(db, store, total, add);
  } finally {
    await store.close();
  }
  return measures;
}

/** The real projectors through the real runner: a first build from an empty database, then a rebuild. */
async function benchProjections(
  db: Kysely<Database>,
  store: EventStore,
  total: number,
  add: (key: string, label: string, events: number, ms: number) => void,
): Promise<void> {
  const head = await store.headPosition();
  const runner = new ProjectionRunner(db, store, projectors);
  try {
    const { ms } = await timed(async () => {
      await runner.start();
      if (!(await runner.waiters.waitFor(head, 30 * 60_000))) throw new Error('projections did not catch up');
    });
    add('project_all', `projection catch-up from empty (${projectors.map((p) => p.name).join(', ')})`, total, ms);
    const rows = await db.selectFrom('task_history').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const { ms: rebuildMs, value: replayed } = await timed(() => runner.rebuild(rebuildableReadModels));
    add('rebuild', `ProjectionRunner.rebuild(${rebuildableReadModels.join(', ')})`, replayed, rebuildMs);
    const after = await db.selectFrom('task_history').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(after.n) !== Number(rows.n) || Number(rows.n) === 0) throw new Error(`task_history: ${rows.n} rows live, ${after.n} after the rebuild`);
  } finally {
    await runner.stop();
  }
}

/** Batches are built before the clock starts: the figures time the database, not the generator. */
function prepare<T>(events: number, batch: number, make: (n: number) => T): T[] {
  const out: T[] = [];
  for (let n = 0; n < events; n += batch) out.push(make(Math.min(batch, events - n)));
  return out;
}

async function countEvents(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
