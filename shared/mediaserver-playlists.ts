import { z } from 'zod';

/** A playlist's id in the interface: `<server_id>::<rating_key>` (it contains `:`). */
export const playlistIdOf = (serverId: string, ratingKey: string) => `${serverId}::${ratingKey}`;

/** `<server_id>::<rating_key>` → its parts; undefined for anything else. */
export function parsePlaylistId(playlistId: string): { serverId: string; ratingKey: string } | undefined {
  const at = playlistId.lastIndexOf('::');
  if (at <= 0 || at + 2 >= playlistId.length) return undefined;
  return { serverId: playlistId.slice(0, at), ratingKey: playlistId.slice(at + 2) };
}

/** The path parameter of one playlist's routes. */
export const PlaylistParams = z.object({ playlist_id: z.string().min(3).max(200).meta({ description: 'Compound `<server_id>::<rating_key>`' }) });
