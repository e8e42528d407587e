import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { ScrobblesTable } from './scrobbles.table.ts';
import { Scrobble } from '../../shared/events/scrobbles.events.ts';
import { offsetOf } from '../../shared/paging.ts';

/** A mirrored scrobble as the API shows it: the imported scrobble, its account, time and validity. */
export const ScrobbleRecord = Scrobble.extend({
  scrobbler_username: z.string(),
  played_at: z.string(),
  invalid_kind: z.string().nullable(),
});
export type ScrobbleRecord = z.infer<typeof ScrobbleRecord>;

export function toScrobbleRecord(row: Selectable<ScrobblesTable>): ScrobbleRecord {
  const uts = Number(row.uts);
  return {
    scrobble_id: row.scrobble_id,
    scrobbler_username: row.scrobbler_username,
    uts,
    played_at: new Date(uts * 1000).toISOString(),
    artist: row.artist,
    album: row.album,
    track: row.track,
    artist_mbid: row.artist_mbid,
    album_mbid: row.album_mbid,
    track_mbid: row.track_mbid,
    canonical_artist_id: row.canonical_artist_id,
    canonical_album_id: row.canonical_album_id,
    canonical_track_id: row.canonical_track_id,
    invalid_kind: row.invalid_kind,
  };
}

/**
 * The user's mirrored scrobbles of their linked account, newest first. Impossible timestamps are
 * left to the admin's invalid buckets: a future-dated scrobble would otherwise head the list forever.
 */
export async function recentScrobbles(db: Kysely<Database>, userKey: string, scrobblerUsername: string, page: number, limit: number) {
  const mine = db.selectFrom('scrobbles').where('username_key', '=', userKey).where('scrobbler_username', '=', scrobblerUsername).where('invalid_kind', 'is', null);
  const [rows, mirror] = await Promise.all([
    mine.selectAll().orderBy('uts', 'desc').orderBy('scrobble_id', 'desc').limit(limit).offset(offsetOf(page, limit)).execute(),
    mirrorOf(db, userKey, scrobblerUsername),
  ]);
  return { items: rows.map(toScrobbleRecord), total: Number(mirror?.valid_count ?? 0), page, limit };
}

export async function findScrobble(db: Kysely<Database>, scrobbleId: string) {
  const row = await db.selectFrom('scrobbles').selectAll().where('scrobble_id', '=', scrobbleId).executeTakeFirst();
  return row ? { ...toScrobbleRecord(row), username_key: row.username_key } : undefined;
}

export async function mirrorOf(db: Kysely<Database>, userKey: string, scrobblerUsername: string) {
  return db.selectFrom('scrobble_mirror').selectAll().where('username_key', '=', userKey).where('scrobbler_username', '=', scrobblerUsername).executeTakeFirst();
}
