import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Position, comparePositions, decodePosition, encodePosition } from '../../infra/eventstore/event-store.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import { type DomainEventType, eventSchemas } from '../../shared/events/index.ts';
import { categoryOf } from '../../shared/streams.ts';

const NAME = 'db_counters';

/**
 * Counters the admin's database stats read instead of counting a large log or read model on every
 * request: the log by stream category and event type (events, streams opened, first and last
 * time), and external refs by kind and source. Entity counts follow from the first: an entity
 * stream opens with EntityRegistered, and EntityMergedInto retires it. It reads every event type;
 * a watermark (counted_through) makes a replayed batch count nothing twice.
 */
export const dbCountersProjector: Projector = {
  name: NAME,
  version: 1,
  handles: Object.keys(eventSchemas) as DomainEventType[],
  readsDataOf: ['RefClaimed', 'RefReleased'],
  tables: ['event_counts', 'ref_counts', 'counted_through'],
  async apply(trx, events) {
    const through = await countedThrough(trx);
    const fresh = through ? events.filter((e) => comparePositions(e.position, through) > 0) : events;
    if (fresh.length === 0) return;
    await countRefs(trx, fresh);
    await countEvents(trx, fresh, encodePosition(fresh[fresh.length - 1]!.position));
  },
};

async function countedThrough(trx: Transaction<Database>): Promise<Position | undefined> {
  const row = await trx.selectFrom('counted_through').select('position').where('counter', '=', NAME).executeTakeFirst();
  return row ? decodePosition(row.position) : undefined;
}

/** Counts the events and moves the watermark to `through`, in one statement (every batch runs it). */
async function countEvents(trx: Transaction<Database>, events: StoredEvent[], through: string): Promise<void> {
  const counts = new Map<string, { category: string; event_type: string; events: number; streams: number; first_at: Date; last_at: Date }>();
  for (const e of events) {
    const category = categoryOf(e.streamId);
    const key = `${category}\u0000${e.type}`;
    const count = counts.get(key) ?? { category, event_type: e.type, events: 0, streams: 0, first_at: e.createdAt, last_at: e.createdAt };
    count.events++;
    if (e.revision === 0) count.streams++;
    if (e.createdAt < count.first_at) count.first_at = e.createdAt;
    if (e.createdAt > count.last_at) count.last_at = e.createdAt;
    counts.set(key, count);
  }
  await trx
    .with('counted', (db) =>
      db
        .insertInto('event_counts')
        .values([...counts.values()])
        .onConflict((oc) =>
          oc.columns(['category', 'event_type']).doUpdateSet({
            events: sql`event_counts.events + excluded.events`,
            streams: sql`event_counts.streams + excluded.streams`,
            first_at: sql`least(event_counts.first_at, excluded.first_at)`,
            last_at: sql`greatest(event_counts.last_at, excluded.last_at)`,
          }),
        ),
    )
    .insertInto('counted_through')
    .values({ counter: NAME, position: through })
    .onConflict((oc) => oc.column('counter').doUpdateSet({ position: through }))
    .execute();
}

async function countRefs(trx: Transaction<Database>, events: StoredEvent[]): Promise<void> {
  const counts = new Map<string, { kind: string; source: string; refs: number }>();
  for (const e of events) {
    if (e.type !== 'RefClaimed' && e.type !== 'RefReleased') continue;
    const { kind, source } = e.data;
    const count = counts.get(`${kind}\u0000${source}`) ?? { kind, source, refs: 0 };
    count.refs += e.type === 'RefClaimed' ? 1 : -1;
    counts.set(`${kind}\u0000${source}`, count);
  }
  if (counts.size === 0) return;
  await trx
    .insertInto('ref_counts')
    .values([...counts.values()])
    .onConflict((oc) => oc.columns(['kind', 'source']).doUpdateSet({ refs: sql`ref_counts.refs + excluded.refs` }))
    .execute();
}
