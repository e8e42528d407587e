import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { foldName } from '../../shared/names.ts';
import { albumTracks, type CanonicalDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';
import { detailsOf, type ItemRow, liveItemsByEntity, TrackDetails } from '../../projectors/mediaserver/playback.reads.ts';

export const AlbumTrackMaps = z.object({
  by_catalog_id: z.record(z.string(), z.string()),
  by_title_folded: z.record(z.string(), z.string()),
  by_title_match: z.record(z.string(), z.string()),
  by_position: z.record(z.string(), z.string()),
});
export const AlbumTrackDetails = z.record(z.string(), TrackDetails);

/**
 * A looser title key than `title_folded`, for matching another source's tracklist: every bracketed
 * part and any " - …" or "feat." tail drops ("Song (feat. X) - Live at Y" → "song").
 */
export function titleMatchKey(title: string): string {
  const bare = title
    .replace(/\s*[([][^)\]]*[)\]]/g, ' ')
    .replace(/\s+-\s+.*$/, ' ')
    .replace(/\s+(feat\.?|ft\.?|featuring)\s+.*$/i, ' ');
  return foldName(bare.trim() === '' ? title : bare);
}

/** The album's tracks that have a live mediaserver row, in tracklist order, with that row. */
async function playableTracks(db: Kysely<Database>, albumId: string): Promise<{ doc: CanonicalDoc; item: ItemRow }[]> {
  const end = (await chainEnds(db, [albumId])).get(albumId)!;
  const docs = await albumTracks(db, end);
  const live = await liveItemsByEntity(db, 'track', docs.map((d) => d.id));
  return docs.flatMap((doc) => {
    const item = live.get(doc.id)?.[0];
    return item ? [{ doc, item }] : [];
  });
}

/**
 * Four ways into the album's playable tracks. The first track in tracklist order wins a key of the
 * first three maps, except in `by_title_match`, where a key two canonicals claim is dropped (a
 * loose key that points at two recordings would play the wrong one).
 */
export async function albumTrackMaps(db: Kysely<Database>, albumId: string): Promise<z.infer<typeof AlbumTrackMaps>> {
  const maps = { by_catalog_id: {}, by_title_folded: {}, by_title_match: {}, by_position: {} } as z.infer<typeof AlbumTrackMaps>;
  const claims = new Map<string, Set<string>>();
  const setFirst = (map: Record<string, string>, key: string | null | undefined, id: string) => {
    if (key && !(key in map)) map[key] = id;
  };
  for (const { doc, item } of await playableTracks(db, albumId)) {
    setFirst(maps.by_catalog_id, doc.catalog_id, doc.id);
    setFirst(maps.by_title_folded, doc.title_folded ?? foldName(item.title), doc.id);
    const match = titleMatchKey(doc.title ?? item.title);
    claims.set(match, (claims.get(match) ?? new Set()).add(doc.id));
    const number = doc.track_number ?? item.item_index;
    if (number !== null) setFirst(maps.by_position, `${doc.disc ?? item.disc ?? 1}::${number}`, doc.id);
  }
  for (const [key, ids] of claims) if (ids.size === 1) maps.by_title_match[key] = [...ids][0]!;
  return maps;
}

export async function albumTrackDetails(db: Kysely<Database>, albumId: string): Promise<z.infer<typeof AlbumTrackDetails>> {
  const details: z.infer<typeof AlbumTrackDetails> = {};
  for (const { doc, item } of await playableTracks(db, albumId)) details[doc.id] = detailsOf(item);
  return details;
}
