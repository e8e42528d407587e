import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { discoveriesWithoutAlbum } from '../../projectors/radio/radio-discoveries.reads.ts';
import { DomainError, UpstreamNotFound } from '../../shared/errors.ts';
import { foldName } from '../../shared/names.ts';
import { discoveryCommands } from './discovery-commands.ts';

export const DISCOVERY_ALBUMS_TASK = 'radio.discovery-albums-backfill';
export const DISCOVERY_ALBUMS_MAX = 5_000;
const CATALOG_HITS = 25;

interface Found {
  title: string;
  catalogId: string | null;
  source: 'scrobbler' | 'catalog';
}

/**
 * Fills the album of discoveries that have none: the scrobbler's track info first, then a catalog
 * search by title (the hit by the same artist). `album_id` is the canonical album when the library
 * holds one of that title by that artist, else the catalog's album id, else none.
 */
export function discoveryAlbumsTask(context: () => AppContext): TaskDefinition<{ limit: number }> {
  return {
    name: DISCOVERY_ALBUMS_TASK,
    async run(task) {
      const ctx = context();
      const commands = discoveryCommands(ctx, task.startedBy ?? 'system');
      const rows = await discoveriesWithoutAlbum(ctx.db, Math.min(task.params.limit, DISCOVERY_ALBUMS_MAX));
      const tally = { scanned: 0, filled: 0, not_found: 0, failed: 0 };
      for (const row of rows) {
        task.checkpoint();
        tally.scanned++;
        try {
          const found = (await fromScrobbler(ctx, row.artist_name, row.title)) ?? (await fromCatalog(ctx, row.artist_folded, row.title, row.title_folded));
          if (!found) tally.not_found++;
          else {
            const albumId = (await libraryAlbum(ctx.db, row.artist_folded, found.title)) ?? found.catalogId;
            await commands.recordAlbum(row.discovery_id, found.title, albumId, found.source);
            tally.filled++;
          }
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          tally.failed++;
        }
        await task.progress({ ...tally, total: rows.length });
      }
      return tally;
    },
  };
}

/** The scrobbler's album for the track; none when it is not configured or knows no album. */
async function fromScrobbler(ctx: AppContext, artist: string, title: string): Promise<Found | undefined> {
  const client = scrobblerClient(ctx.config);
  if (!client.configured) return undefined;
  try {
    const info = await client.trackInfo(artist, title);
    return info.album ? { title: info.album, catalogId: null, source: 'scrobbler' } : undefined;
  } catch (error) {
    if (error instanceof UpstreamNotFound) return undefined;
    throw error;
  }
}

async function fromCatalog(ctx: AppContext, artistFolded: string, title: string, titleFolded: string): Promise<Found | undefined> {
  try {
    const { data } = await catalogClient(ctx.config).searchTracks(title, { limit: CATALOG_HITS });
    const hit = data.find((t) => t.album && foldName(t.title) === titleFolded && foldName(t.artist.name) === artistFolded);
    return hit?.album ? { title: hit.album.title, catalogId: String(hit.album.id), source: 'catalog' } : undefined;
  } catch (error) {
    if (error instanceof UpstreamNotFound) return undefined;
    throw error;
  }
}

async function libraryAlbum(db: Kysely<Database>, artistFolded: string, albumTitle: string): Promise<string | null> {
  const row = await db
    .selectFrom('canonical_docs as al')
    .innerJoin('canonical_docs as a', 'a.id', 'al.artist_id')
    .select('al.id')
    .where('al.kind', '=', 'album')
    .where(sql<boolean>`not al.tombstoned`)
    .where('al.name_folded', '=', foldName(albumTitle))
    .where('a.name_folded', '=', artistFolded)
    .orderBy('al.source_count', 'desc')
    .orderBy('al.id')
    .executeTakeFirst();
  return row?.id ?? null;
}
