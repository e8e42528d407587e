import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { MirrorTrack, StreamerMirrorEvent } from '../../shared/events/streamer.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type MirrorTable = 'streamer_saved_tracks' | 'streamer_saved_albums' | 'streamer_followed_artists' | 'streamer_playlists' | 'streamer_playlist_items';

/** Rows per INSERT: well below Postgres' parameter limit with the widest table. */
const CHUNK = 400;

/** The streamer mirror: saved tracks and albums, followed artists, playlists and their items, recent plays. */
export const streamerMirrorProjector: Projector = {
  name: 'streamer_mirror',
  version: 1,
  handles: [
    'StreamerTracksSaved',
    'StreamerTracksUnsaved',
    'StreamerAlbumsSaved',
    'StreamerAlbumsUnsaved',
    'StreamerArtistsFollowed',
    'StreamerArtistsUnfollowed',
    'StreamerPlaylistMirrored',
    'StreamerPlaylistsDropped',
    'StreamerPlaysRecorded',
  ],
  tables: ['streamer_saved_tracks', 'streamer_saved_albums', 'streamer_followed_artists', 'streamer_playlists', 'streamer_playlist_items', 'streamer_plays'],
  weight: (event) => Math.max(1, Math.ceil(sizeOf(event as StoredEvent & StreamerMirrorEvent) / 50)),
  apply: oneByOne<StreamerMirrorEvent>(applyOne),
};

function sizeOf(event: StreamerMirrorEvent): number {
  const d = event.data as Record<string, unknown>;
  const list = d.tracks ?? d.albums ?? d.artists ?? d.items ?? d.plays ?? d.track_ids ?? d.album_ids ?? d.artist_ids ?? d.playlist_ids;
  return Array.isArray(list) ? list.length : 1;
}

const trackColumns = (t: Omit<MirrorTrack, 'track_id'>) => ({
  name: t.name,
  artist_name: t.artist_name,
  album_name: t.album_name,
  isrc: t.isrc,
  duration_ms: t.duration_ms,
  canonical_track_id: t.canonical_track_id,
});

async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & StreamerMirrorEvent): Promise<void> {
  const owner = { username_key: usernameKey(event.data.username), account_id: event.data.account_id };
  /** Drops the owner's rows whose `column` is one of `values` (one table per call). */
  const drop = (table: MirrorTable, column: string, values: string[]) =>
    chunked(values, (chunk) =>
      sql`delete from ${sql.table(table)} where username_key = ${owner.username_key} and account_id = ${owner.account_id} and ${sql.ref(column)} in (${sql.join(chunk)})`.execute(trx),
    );
  switch (event.type) {
    case 'StreamerTracksSaved':
      return chunked(event.data.tracks, (chunk) =>
        trx
          .insertInto('streamer_saved_tracks')
          .values(chunk.map((t) => ({ ...owner, track_id: t.track_id, ...trackColumns(t), added_at: new Date(t.added_at) })))
          .onConflict((oc) =>
            oc.columns(['username_key', 'account_id', 'track_id']).doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              artist_name: eb.ref('excluded.artist_name'),
              album_name: eb.ref('excluded.album_name'),
              isrc: eb.ref('excluded.isrc'),
              duration_ms: eb.ref('excluded.duration_ms'),
              canonical_track_id: eb.ref('excluded.canonical_track_id'),
              added_at: eb.ref('excluded.added_at'),
            })),
          )
          .execute(),
      );
    case 'StreamerTracksUnsaved':
      return drop('streamer_saved_tracks', 'track_id', event.data.track_ids);
    case 'StreamerAlbumsSaved':
      return chunked(event.data.albums, (chunk) =>
        trx
          .insertInto('streamer_saved_albums')
          .values(chunk.map((a) => ({ ...owner, ...a, added_at: new Date(a.added_at) })))
          .onConflict((oc) =>
            oc.columns(['username_key', 'account_id', 'album_id']).doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              artist_name: eb.ref('excluded.artist_name'),
              upc: eb.ref('excluded.upc'),
              added_at: eb.ref('excluded.added_at'),
              canonical_album_id: eb.ref('excluded.canonical_album_id'),
            })),
          )
          .execute(),
      );
    case 'StreamerAlbumsUnsaved':
      return drop('streamer_saved_albums', 'album_id', event.data.album_ids);
    case 'StreamerArtistsFollowed':
      return chunked(event.data.artists, (chunk) =>
        trx
          .insertInto('streamer_followed_artists')
          .values(chunk.map((a) => ({ ...owner, ...a })))
          .onConflict((oc) =>
            oc.columns(['username_key', 'account_id', 'artist_id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), canonical_artist_id: eb.ref('excluded.canonical_artist_id') })),
          )
          .execute(),
      );
    case 'StreamerArtistsUnfollowed':
      return drop('streamer_followed_artists', 'artist_id', event.data.artist_ids);
    case 'StreamerPlaylistMirrored': {
      const { playlist, items } = event.data;
      await drop('streamer_playlists', 'playlist_id', [playlist.playlist_id]);
      await drop('streamer_playlist_items', 'playlist_id', [playlist.playlist_id]);
      await trx.insertInto('streamer_playlists').values({ ...owner, ...playlist, synced_at: new Date(event.data.at) }).execute();
      return chunked(
        items.map((item, position) => ({ ...owner, playlist_id: playlist.playlist_id, position, track_id: item.track_id, ...trackColumns(item), added_at: item.added_at ? new Date(item.added_at) : null, is_local: item.is_local })),
        (chunk) => trx.insertInto('streamer_playlist_items').values(chunk).execute(),
      );
    }
    case 'StreamerPlaylistsDropped':
      await drop('streamer_playlists', 'playlist_id', event.data.playlist_ids);
      return drop('streamer_playlist_items', 'playlist_id', event.data.playlist_ids);
    case 'StreamerPlaysRecorded':
      return chunked(event.data.plays, (chunk) =>
        trx
          .insertInto('streamer_plays')
          .values(chunk.map((p) => ({ ...owner, played_at: new Date(p.played_at), track_id: p.track_id, ...trackColumns(p) })))
          .onConflict((oc) => oc.columns(['username_key', 'account_id', 'played_at']).doNothing())
          .execute(),
      );
    default:
      assertNever(event);
  }
}
