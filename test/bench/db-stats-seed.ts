import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { encodePosition } from '../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../infra/eventstore/postgres/postgres-event-store.ts';
import { projectors } from '../../projectors/registry.ts';

export interface SeedSizes {
  events: number;
  scrobbles: number;
  entities: number;
  users: number;
}

/** Streams of ten events, in the categories a real log is made of (scrobble pages, entities, tasks, libraries). */
const EVENTS_PER_STREAM = 10;

/**
 * A large database as years of use leave it, written by SQL in a few statements rather than
 * through the projectors (which would take hours at this size): the log, the largest read models,
 * and the counters the projectors keep, consistent with the seeded rows. Every projector's
 * checkpoint is then set at the head of the log, so the service starts caught up.
 */
export async function seedLargeDatabase(db: Kysely<Database>, sizes: SeedSizes): Promise<void> {
  await sql`
    insert into events (stream_id, stream_revision, event_id, event_type, data, metadata, created_at)
    select (array['scrobbles', 'artist', 'album', 'track', 'task', 'mediaserversection'])[1 + (g / ${EVENTS_PER_STREAM}) % 6] || '-' || (g / ${EVENTS_PER_STREAM}),
           g % ${EVENTS_PER_STREAM},
           gen_random_uuid(),
           (array['ScrobblesImported', 'FactsObserved', 'FactsObserved', 'RefLinked', 'TaskProgressed', 'MediaserverItemsObserved'])[1 + (g / ${EVENTS_PER_STREAM}) % 6],
           jsonb_build_object('username', 'user' || (g % ${sizes.users}), 'at', now()::text, 'pad', repeat('x', 120)),
           '{}'::jsonb,
           now() - make_interval(secs => ${sizes.events} - g)
      from generate_series(0, ${sizes.events - 1}) g`.execute(db);
  await sql`insert into streams (stream_id, revision) select stream_id, max(stream_revision) from events group by stream_id`.execute(db);
  await sql`
    insert into scrobbles (scrobble_id, username_key, scrobbler_username, uts, artist, album, track, invalid_kind, imported_at)
    select 's' || g, 'user' || (g % ${sizes.users}), 'fm' || (g % ${sizes.users}), 1600000000 + g, 'Artist ' || (g % 5000), 'Album ' || (g % 20000), 'Track ' || g,
           case when g % 500 = 0 then 'zero' end, now()
      from generate_series(1, ${sizes.scrobbles}) g`.execute(db);
  await sql`
    insert into scrobble_mirror (username_key, scrobbler_username, scrobble_count, valid_count)
    select username_key, scrobbler_username, count(*), count(*) filter (where invalid_kind is null) from scrobbles group by 1, 2`.execute(db);
  await sql`
    insert into canonical_docs (id, kind, name, name_folded, genres, tags, secondary_types, audio_quality, sources, source_count, facts, tombstoned, created_at, updated_at)
    select 'c' || g, (array['artist', 'album', 'track'])[1 + g % 3], 'Name ' || g, 'name ' || g, '[]', '[]', '[]', 'null', '{"mediaserver": true}', 1,
           jsonb_build_object('mediaserver|' || g, jsonb_build_object('name', 'Name ' || g)), false, now(), now()
      from generate_series(1, ${sizes.entities}) g`.execute(db);
  await sql`
    insert into external_refs (kind, source, external_id, entity_id, evidence, linked_at)
    select kind, s.source, s.source || '::' || id, id, '{"rule": "new_entity", "value": null}', now()
      from canonical_docs, (values ('mediaserver'), ('metabase')) s(source)`.execute(db);
  await sql`
    insert into event_counts (category, event_type, events, streams, first_at, last_at)
    select split_part(stream_id, '-', 1), event_type, count(*), count(*) filter (where stream_revision = 0), min(created_at), max(created_at) from events group by 1, 2`.execute(db);
  await sql`insert into ref_counts (kind, source, refs) select kind, source, count(*) from external_refs group by 1, 2`.execute(db);
  await sql`
    insert into upstream_connections (username_key, upstream, username, linked_at, last_sync_at)
    select 'user' || g, u.upstream, 'user' || g, now() - interval '90 days', now() - make_interval(days => g % 30)
      from generate_series(0, ${sizes.users - 1}) g, (values ('mediaserver'), ('scrobbler')) u(upstream)`.execute(db);
  await sql`analyze`.execute(db);
  const head = encodePosition(await createPostgresEventStore(db).headPosition());
  await db.insertInto('counted_through').values({ counter: 'db_counters', position: head }).execute();
  await db
    .insertInto('projection_checkpoints')
    .values(projectors.map((p) => ({ name: p.name, version: p.version, position: head, state: 'live' as const, updated_at: new Date() })))
    .execute();
}
