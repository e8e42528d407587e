import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { MediaserverPlaylistsTable } from '../../projectors/mediaserver/playlists.table.ts';
import { mediaserverExternalId } from '../../shared/canonical/external-ids.ts';
import { NotFound } from '../../shared/errors.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';

export const PlaylistRow = z.object({
  playlist_id: z.string(),
  title: z.string(),
  playlist_type: z.string(),
  smart: z.boolean(),
  /** The cover through this service (the server's own URL needs its token); null without one. */
  composite_url: z.string().nullable(),
  leaf_count: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  added_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  synced_at: z.string(),
}).meta({ id: 'Playlist' });
export const PlaylistItem = z.object({
  position: z.number().int(),
  rating_key: z.string(),
  playlist_item_id: z.string().nullable(),
  kind: z.string(),
  title: z.string(),
  artist_name: z.string().nullable(),
  album_title: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  canonical_track_id: z.string().nullable(),
}).meta({ id: 'PlaylistItem' });
export const PlaylistDetail = PlaylistRow.extend({ items_synced_at: z.string().nullable(), items: z.array(PlaylistItem) });

const iso = (seconds: number | string | null) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());
const num = (value: number | string | null) => (value === null ? null : Number(value));

function rowView(row: Selectable<MediaserverPlaylistsTable>): z.infer<typeof PlaylistRow> {
  return {
    playlist_id: row.playlist_id,
    title: row.title,
    playlist_type: row.playlist_type,
    smart: row.smart,
    composite_url: row.composite ? `/mediaserver/me/playlists/${encodeURIComponent(row.playlist_id)}/cover` : null,
    leaf_count: num(row.leaf_count),
    duration_ms: num(row.duration_ms),
    added_at: iso(row.added_at),
    updated_at: iso(row.updated_at),
    synced_at: row.synced_at.toISOString(),
  };
}

export async function listPlaylists(db: Kysely<Database>, userKey: string, playlistType?: string) {
  let query = db.selectFrom('mediaserver_playlists').selectAll().where('username_key', '=', userKey);
  if (playlistType) query = query.where('playlist_type', '=', playlistType);
  return (await query.orderBy('title').orderBy('playlist_id').execute()).map(rowView);
}

/** The caller's playlist row; 404 for one they do not have (another user's included). */
export async function ownPlaylist(db: Kysely<Database>, userKey: string, playlistId: string) {
  const row = await db.selectFrom('mediaserver_playlists').selectAll().where('username_key', '=', userKey).where('playlist_id', '=', playlistId).executeTakeFirst();
  if (!row) throw new NotFound('Playlist not found');
  return row;
}

/** Audio items' canonical tracks through their mediaserver refs, at the end of each merge chain. */
async function canonicalTracks(db: Kysely<Database>, serverId: string, ratingKeys: string[]): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  if (ratingKeys.length === 0) return byKey;
  const ids = new Map(ratingKeys.map((k) => [mediaserverExternalId(serverId, k), k]));
  const refs = await db.selectFrom('external_refs').select(['external_id', 'entity_id']).where('kind', '=', 'track').where('source', '=', 'mediaserver').where('external_id', 'in', [...ids.keys()]).execute();
  const ends = await chainEnds(db, refs.map((r) => r.entity_id));
  for (const ref of refs) byKey.set(ids.get(ref.external_id)!, ends.get(ref.entity_id)!);
  return byKey;
}

export async function playlistDetail(db: Kysely<Database>, userKey: string, playlistId: string, serverId: string): Promise<z.infer<typeof PlaylistDetail>> {
  const row = await ownPlaylist(db, userKey, playlistId);
  const items = await db.selectFrom('mediaserver_playlist_items').selectAll().where('username_key', '=', userKey).where('playlist_id', '=', playlistId).orderBy('position').execute();
  const tracks = await canonicalTracks(db, serverId, items.filter((i) => i.kind === 'track').map((i) => i.rating_key));
  return {
    ...rowView(row),
    items_synced_at: row.items_synced_at?.toISOString() ?? null,
    items: items.map((i) => ({
      position: i.position,
      rating_key: i.rating_key,
      playlist_item_id: i.playlist_item_id,
      kind: i.kind,
      title: i.title,
      artist_name: i.grandparent_title,
      album_title: i.parent_title,
      duration_ms: num(i.duration_ms),
      canonical_track_id: i.kind === 'track' ? (tracks.get(i.rating_key) ?? null) : null,
    })),
  };
}
