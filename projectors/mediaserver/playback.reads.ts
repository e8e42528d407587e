import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { MediaserverItemsTable } from './library.table.ts';
import { NotFound } from '../../shared/errors.ts';
import { chainEnds } from '../canonical/merge-aliases.reads.ts';

export type ItemRow = Selectable<MediaserverItemsTable>;

/** `mediaserver::<server_id>::<rating_key>` → its parts. */
export function parseMediaserverRef(externalId: string): { serverId: string; ratingKey: string } | undefined {
  const match = /^mediaserver::(.+)::([^:]+)$/.exec(externalId);
  return match ? { serverId: match[1]!, ratingKey: match[2]! } : undefined;
}

/**
 * For each entity (at the end of its merge chain), its live mirror rows through its mediaserver
 * refs, freshest first: the most recently synced, then the one the server changed last. Rows the
 * server no longer has (soft-deleted) are not live.
 */
export async function liveItemsByEntity(db: Kysely<Database>, kind: 'track' | 'album', entityIds: string[]): Promise<Map<string, ItemRow[]>> {
  const byEntity = new Map<string, ItemRow[]>();
  if (entityIds.length === 0) return byEntity;
  const refs = await db
    .selectFrom('external_refs')
    .select(['entity_id', 'external_id'])
    .where('kind', '=', kind)
    .where('source', '=', 'mediaserver')
    .where('entity_id', 'in', entityIds)
    .execute();
  const owner = new Map<string, string>();
  const servers = new Set<string>();
  const keys = new Set<string>();
  for (const ref of refs) {
    const parsed = parseMediaserverRef(ref.external_id);
    if (!parsed) continue;
    owner.set(`${parsed.serverId}::${parsed.ratingKey}`, ref.entity_id);
    servers.add(parsed.serverId);
    keys.add(parsed.ratingKey);
  }
  if (owner.size === 0) return byEntity;
  // Both halves of the primary key, so a play looks up its part by index, not by scanning the mirror.
  const rows = await db
    .selectFrom('mediaserver_items')
    .selectAll()
    .where('server_id', 'in', [...servers])
    .where('rating_key', 'in', [...keys])
    .where('kind', '=', kind)
    .where('deleted', '=', false)
    .orderBy('synced_at', 'desc')
    .orderBy((eb) => eb.ref('server_updated_at'), (ob) => ob.desc().nullsLast())
    .execute();
  for (const row of rows) {
    const entity = owner.get(`${row.server_id}::${row.rating_key}`);
    if (entity) byEntity.set(entity, [...(byEntity.get(entity) ?? []), row]);
  }
  return byEntity;
}

/** The freshest live mirror row of any id of an entity's chain, or undefined when none is live. */
export async function freshestLiveItem(db: Kysely<Database>, kind: 'track' | 'album', canonicalId: string): Promise<ItemRow | undefined> {
  const end = (await chainEnds(db, [canonicalId])).get(canonicalId)!;
  return (await liveItemsByEntity(db, kind, [end])).get(end)?.[0];
}

/** What the client shows of a track's file on the server. */
/** The track's freshest live file on the server; 404 when the track has none. */
export async function playableItem(db: Kysely<Database>, canonicalId: string): Promise<ItemRow> {
  const item = await freshestLiveItem(db, 'track', canonicalId);
  if (!item) throw new NotFound('The track has no live file on the media server');
  return item;
}

export const TrackDetails = z.object({
  server_id: z.string(),
  rating_key: z.string(),
  title: z.string(),
  codec: z.string().nullable(),
  container: z.string().nullable(),
  bit_depth: z.number().int().nullable(),
  sampling_rate: z.number().int().nullable(),
  bitrate: z.number().int().nullable(),
  lossless: z.boolean().nullable(),
  size: z.number().nullable(),
  duration_ms: z.number().int().nullable(),
  play_count: z.number().int(),
  last_played_at: z.string().nullable(),
  added_at: z.string().nullable(),
  star_rating: z.number().nullable(),
}).meta({ id: 'TrackDetails' });
export type TrackDetails = z.infer<typeof TrackDetails>;

const isoOf = (seconds: number | null) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());

/** The server rates out of 10; stars are out of 5. */
export function detailsOf(row: ItemRow): TrackDetails {
  return {
    server_id: row.server_id,
    rating_key: row.rating_key,
    title: row.title,
    codec: row.codec,
    container: row.container,
    bit_depth: row.bit_depth,
    sampling_rate: row.sampling_rate,
    bitrate: row.bitrate,
    lossless: row.lossless,
    size: row.size === null ? null : Number(row.size),
    duration_ms: row.duration_ms,
    play_count: row.view_count ?? 0,
    last_played_at: isoOf(row.last_viewed_at),
    added_at: isoOf(row.added_at),
    star_rating: row.user_rating === null ? null : Number(row.user_rating) / 2,
  };
}
