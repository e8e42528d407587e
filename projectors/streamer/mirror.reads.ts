import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** Milliseconds-precision ISO time, the one form the mirror's events and rows compare in. */
export const isoTime = (value: string | Date) => new Date(value).toISOString();

/**
 * What the mirror holds of one account, keyed the way a sync compares: each row as the event that
 * wrote it carried it (times in ISO form), so that an unchanged item compares equal.
 */
export async function mirrorState(db: Kysely<Database>, username: string, accountId: string) {
  const [tracks, albums, artists, playlists, lastPlay] = await Promise.all([
    db
      .selectFrom('streamer_saved_tracks')
      .select(['track_id', 'name', 'artist_name', 'album_name', 'isrc', 'duration_ms', 'canonical_track_id', 'added_at'])
      .where('username_key', '=', usernameKey(username))
      .where('account_id', '=', accountId)
      .execute(),
    db.selectFrom('streamer_saved_albums').selectAll().where('username_key', '=', usernameKey(username)).where('account_id', '=', accountId).execute(),
    db.selectFrom('streamer_followed_artists').select(['artist_id', 'name', 'canonical_artist_id']).where('username_key', '=', usernameKey(username)).where('account_id', '=', accountId).execute(),
    db.selectFrom('streamer_playlists').selectAll().where('username_key', '=', usernameKey(username)).where('account_id', '=', accountId).execute(),
    db
      .selectFrom('streamer_plays')
      .select((eb) => eb.fn.max('played_at').as('last'))
      .where('username_key', '=', usernameKey(username))
      .where('account_id', '=', accountId)
      .executeTakeFirst(),
  ]);
  return {
    savedTracks: new Map(tracks.map(({ added_at, ...t }) => [t.track_id, { ...t, added_at: isoTime(added_at) }])),
    savedAlbums: new Map(albums.map((a) => [a.album_id, { album_id: a.album_id, name: a.name, artist_name: a.artist_name, upc: a.upc, added_at: isoTime(a.added_at), canonical_album_id: a.canonical_album_id }])),
    followedArtists: new Map(artists.map((a) => [a.artist_id, a])),
    playlists: new Map(
      playlists.map((p) => [
        p.playlist_id,
        {
          playlist_id: p.playlist_id,
          name: p.name,
          description: p.description,
          owner_id: p.owner_id,
          owner_name: p.owner_name,
          owned: p.owned,
          public: p.public,
          collaborative: p.collaborative,
          snapshot_id: p.snapshot_id,
          image_url: p.image_url,
          tracks_total: p.tracks_total,
        },
      ]),
    ),
    lastPlayedAt: lastPlay?.last ? isoTime(lastPlay.last as Date) : null,
  };
}

export type MirrorState = Awaited<ReturnType<typeof mirrorState>>;
