import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';
import { linkedAccount } from '../../projectors/streamer/links.reads.ts';
import { NotFound } from '../../shared/errors.ts';
import { PlaylistMeta } from '../../shared/events/streamer.events.ts';
import { LIKED_SONGS_ID } from '../../shared/streamer.ts';

/** A mirrored playlist as listed: what the sync recorded of it, and when. */
export const PlaylistRow = PlaylistMeta.omit({ snapshot_id: true }).extend({ synced_at: z.string() });
export const PlaylistItemRow = z.object({
  position: z.number().int(),
  track_id: z.string().nullable(),
  name: z.string(),
  artist_name: z.string().nullable(),
  album_name: z.string().nullable(),
  isrc: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  added_at: z.string().nullable(),
  is_local: z.boolean(),
  canonical_track_id: z.string().nullable(),
});
export const PlaylistDetail = PlaylistRow.extend({ items: z.array(PlaylistItemRow) });
export const Coverage = z.object({
  playlist_id: z.string(),
  total: z.number().int(),
  resolved: z.number().int(),
  in_mediaserver: z.number().int(),
  missing: z.number().int(),
  ratio: z.number(),
});

type Db = Kysely<Database>;
type Owner = { username_key: string; account_id: string };

const PLAYLIST_COLUMNS = ['playlist_id', 'name', 'description', 'owner_id', 'owner_name', 'owned', 'public', 'collaborative', 'image_url', 'tracks_total', 'synced_at'] as const;

/** The account linked now: mirror reads show its rows only, none once unlinked. */
async function owner(db: Db, username: string): Promise<Owner | undefined> {
  const link = await linkedAccount(db, username);
  return link ? { username_key: link.username_key, account_id: link.account_id } : undefined;
}

export async function listPlaylists(db: Db, username: string, ownedOnly: boolean) {
  const who = await owner(db, username);
  if (!who) return [];
  let q = db.selectFrom('streamer_playlists').select(PLAYLIST_COLUMNS).where('username_key', '=', who.username_key).where('account_id', '=', who.account_id);
  if (ownedOnly) q = q.where('owned', '=', true);
  const rows = await q.orderBy('name').orderBy('playlist_id').execute();
  return rows.map((r) => ({ ...r, synced_at: r.synced_at.toISOString() }));
}

/** The playlist's tracks, with canonical ids following merges; `__liked_songs__` reads the saved tracks, newest first. */
async function itemsOf(db: Db, who: Owner, playlistId: string) {
  const rows =
    playlistId === LIKED_SONGS_ID
      ? (
          await db
            .selectFrom('streamer_saved_tracks')
            .select(['track_id', 'name', 'artist_name', 'album_name', 'isrc', 'duration_ms', 'added_at', 'canonical_track_id'])
            .where('username_key', '=', who.username_key)
            .where('account_id', '=', who.account_id)
            .orderBy('added_at', 'desc')
            .orderBy('track_id')
            .execute()
        ).map((r, position) => ({ ...r, position, is_local: false }))
      : await db
          .selectFrom('streamer_playlist_items')
          .select(['position', 'track_id', 'name', 'artist_name', 'album_name', 'isrc', 'duration_ms', 'added_at', 'is_local', 'canonical_track_id'])
          .where('username_key', '=', who.username_key)
          .where('account_id', '=', who.account_id)
          .where('playlist_id', '=', playlistId)
          .orderBy('position')
          .execute();
  const ends = await chainEnds(db, rows.flatMap((r) => (r.canonical_track_id ? [r.canonical_track_id] : [])));
  return rows.map((r) => ({ ...r, added_at: r.added_at?.toISOString() ?? null, canonical_track_id: r.canonical_track_id ? (ends.get(r.canonical_track_id) ?? null) : null }));
}

export async function playlistDetail(db: Db, username: string, playlistId: string) {
  const who = await owner(db, username);
  const row = who
    ? await db.selectFrom('streamer_playlists').select(PLAYLIST_COLUMNS).where('username_key', '=', who.username_key).where('account_id', '=', who.account_id).where('playlist_id', '=', playlistId).executeTakeFirst()
    : undefined;
  if (!who || !row) throw new NotFound('Playlist not found in the streamer mirror');
  return { ...row, synced_at: row.synced_at.toISOString(), items: await itemsOf(db, who, playlistId) };
}

/** How many of the playlist's tracks resolve to a canonical track the media server holds, from local refs only. */
export async function mediaserverCoverage(db: Db, username: string, playlistId: string) {
  const who = await owner(db, username);
  if (!who) throw new NotFound('Playlist not found in the streamer mirror');
  if (playlistId !== LIKED_SONGS_ID) {
    const exists = await db.selectFrom('streamer_playlists').select('playlist_id').where('username_key', '=', who.username_key).where('account_id', '=', who.account_id).where('playlist_id', '=', playlistId).executeTakeFirst();
    if (!exists) throw new NotFound('Playlist not found in the streamer mirror');
  }
  const tracks = (await itemsOf(db, who, playlistId)).filter((i) => !i.is_local);
  const ids = [...new Set(tracks.flatMap((t) => (t.canonical_track_id ? [t.canonical_track_id] : [])))];
  const held = new Set(
    ids.length === 0
      ? []
      : (await db.selectFrom('canonical_docs').select('id').where('id', 'in', ids).where('tombstoned', '=', false).where(sql<boolean>`(sources->>'mediaserver')::boolean`).execute()).map((r) => r.id),
  );
  const resolved = tracks.filter((t) => t.canonical_track_id).length;
  const inMediaserver = tracks.filter((t) => t.canonical_track_id && held.has(t.canonical_track_id)).length;
  return { playlist_id: playlistId, total: tracks.length, resolved, in_mediaserver: inMediaserver, missing: tracks.length - inMediaserver, ratio: tracks.length === 0 ? 0 : inMediaserver / tracks.length };
}
