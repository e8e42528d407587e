import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

export const Discovery = z.object({
  discovery_id: z.string(),
  artist_name: z.string(),
  title: z.string(),
  status: z.enum(['not_playable', 'not_in_library']),
  similarity: z.number(),
  wanted_count: z.number().int(),
  canonical_track_id: z.string().nullable(),
  album_title: z.string().nullable(),
  album_id: z.string().nullable(),
  /** The library can play it now (it arrived since the radio wanted it). */
  in_library: z.boolean(),
  first_wanted_at: z.string(),
  last_wanted_at: z.string(),
});
export type Discovery = z.infer<typeof Discovery>;

/** A playable live track with the discovery's folded title by an artist of its folded name. */
const playableNow = sql<boolean>`exists (
  select 1 from canonical_docs t join canonical_docs a on a.id = t.artist_id
  where t.kind = 'track' and t.name_folded = d.title_folded and not t.tombstoned and (t.sources->>'mediaserver') = 'true' and a.name_folded = d.artist_folded)`;

const shown = (db: Kysely<Database>, username: string) =>
  db.selectFrom('radio_discoveries as d').where('d.username_key', '=', usernameKey(username)).where('d.dismissed', '=', false);

/** The user's discoveries not dismissed, by wanted count then similarity. */
export async function listDiscoveries(db: Kysely<Database>, username: string, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    shown(db, username)
      .selectAll('d')
      .select(playableNow.as('in_library'))
      .orderBy('d.wanted_count', 'desc')
      .orderBy('d.similarity', 'desc')
      .orderBy('d.discovery_id')
      .limit(limit)
      .offset(offset)
      .execute(),
    shown(db, username).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const items: Discovery[] = rows.map((r) => ({
    discovery_id: r.discovery_id, artist_name: r.artist_name, title: r.title, status: r.status as Discovery['status'], similarity: r.similarity,
    wanted_count: r.wanted_count, canonical_track_id: r.canonical_track_id, album_title: r.album_title, album_id: r.album_id, in_library: r.in_library,
    first_wanted_at: r.first_wanted_at.toISOString(), last_wanted_at: r.last_wanted_at.toISOString(),
  }));
  return { items, total: Number(total.n), limit, offset };
}

/** Counts by status (and how many arrived in the library), and the artists wanted most. */
export async function discoverySummary(db: Kysely<Database>, username: string, topArtists: number) {
  const [counts, artists] = await Promise.all([
    shown(db, username)
      .select(['d.status', (eb) => eb.fn.countAll<string>().as('n'), sql<string>`count(*) filter (where ${playableNow})`.as('arrived')])
      .groupBy('d.status')
      .execute(),
    shown(db, username)
      .select([sql<string>`min(d.artist_name)`.as('artist_name'), sql<string>`sum(d.wanted_count)`.as('wanted'), (eb) => eb.fn.countAll<string>().as('tracks')])
      .groupBy('d.artist_folded')
      .orderBy(sql`sum(d.wanted_count)`, 'desc')
      .orderBy(sql`min(d.artist_name)`)
      .limit(topArtists)
      .execute(),
  ]);
  const byStatus = { not_playable: 0, not_in_library: 0 };
  for (const c of counts) byStatus[c.status as keyof typeof byStatus] = Number(c.n);
  return {
    total: byStatus.not_playable + byStatus.not_in_library,
    by_status: byStatus,
    in_library: counts.reduce((sum, c) => sum + Number(c.arrived), 0),
    top_artists: artists.map((a) => ({ artist_name: a.artist_name, wanted_count: Number(a.wanted), tracks: Number(a.tracks) })),
  };
}

/** Whether a discovery is the user's (dismissed or not). */
export async function ownsDiscovery(db: Kysely<Database>, username: string, discoveryId: string): Promise<boolean> {
  const row = await db.selectFrom('radio_discoveries').select('discovery_id').where('discovery_id', '=', discoveryId).where('username_key', '=', usernameKey(username)).executeTakeFirst();
  return row !== undefined;
}

/** Every user's discoveries without an album yet, oldest wanted first: what the backfill scans. */
export function discoveriesWithoutAlbum(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('radio_discoveries')
    .select(['discovery_id', 'artist_name', 'artist_folded', 'title', 'title_folded'])
    .where('album_title', 'is', null)
    .orderBy('first_wanted_at')
    .orderBy('discovery_id')
    .limit(limit)
    .execute();
}

/** How many discoveries (every user's) carry an album, by where it came from, and how many need one. */
export async function discoveryAlbumCoverage(db: Kysely<Database>) {
  const row = await db
    .selectFrom('radio_discoveries')
    .select([
      (eb) => eb.fn.countAll<string>().as('total'),
      sql<string>`count(*) filter (where album_title is not null)`.as('with_album'),
      sql<string>`count(*) filter (where album_source = 'scrobbler')`.as('scrobbler'),
      sql<string>`count(*) filter (where album_source = 'catalog')`.as('catalog'),
      sql<string>`count(*) filter (where album_id is not null)`.as('with_album_id'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const withAlbum = Number(row.with_album);
  return {
    total,
    with_album: withAlbum,
    without_album: total - withAlbum,
    with_album_id: Number(row.with_album_id),
    by_source: { scrobbler: Number(row.scrobbler), catalog: Number(row.catalog) },
  };
}
