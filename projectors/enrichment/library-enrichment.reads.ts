import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';

/**
 * The backlogs of the no-network drains (audio quality, tags, artist reproject), read from the
 * canonical read models and the media server's mirror. The coverage routes count with the same
 * predicates; "done" is read from the docs' facts, so a rebuild gives the same numbers.
 */

const after = (column: RawBuilder<unknown>, key: string | null) => (key === null ? sql`true` : sql`${column} collate "C" > ${key}`);
const count = async (db: Kysely<Database>, query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

// --- audio quality: one item per (track, mirrored media server item) ---

/** The track's media server items in the mirror that carry a codec. */
const MIRRORED = sql`from canonical_docs d
  join external_refs r on r.entity_id = d.id and r.kind = 'track' and r.source = 'mediaserver'
  join mediaserver_items m on 'mediaserver::' || m.server_id || '::' || m.rating_key = r.external_id and not m.deleted and m.codec is not null
  where d.kind = 'track' and not d.tombstoned`;
const MIRROR_QUALITY = sql`jsonb_build_object('codec', lower(m.codec), 'bit_depth', m.bit_depth, 'sample_rate', m.sampling_rate, 'lossless', coalesce(m.lossless, false))`;
/** The enrichment layer read from that ref (`+mediaserver|mediaserver|<external_id>`) does not hold the mirror's quality. */
const QUALITY_STALE = sql`(d.facts -> ('+mediaserver|mediaserver|' || r.external_id) -> 'audio_quality') is distinct from ${MIRROR_QUALITY}`;
const QUALITY_KEY = sql`(d.id || '|' || r.external_id)`;

export interface QualityItem {
  id: string;
  ref: string;
  key: string;
  codec: string;
  bit_depth: number | null;
  sample_rate: number | null;
  lossless: boolean;
}

export async function staleAudioQuality(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<QualityItem[]> {
  const rows = await sql<QualityItem>`
    select d.id, r.external_id as ref, ${QUALITY_KEY} as key, lower(m.codec) as codec, m.bit_depth, m.sampling_rate as sample_rate, coalesce(m.lossless, false) as lossless
    ${MIRRORED} and ${QUALITY_STALE} and ${after(QUALITY_KEY, afterKey)}
    order by ${QUALITY_KEY} collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

export async function audioQualityCoverage(db: Kysely<Database>) {
  const [tracks, eligible, backlog, lossless] = await Promise.all([
    count(db, sql`select count(*)::int as n from canonical_docs d where d.kind = 'track' and not d.tombstoned`),
    count(db, sql`select count(distinct d.id)::int as n ${MIRRORED}`),
    count(db, sql`select count(distinct d.id)::int as n ${MIRRORED} and ${QUALITY_STALE}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where d.kind = 'track' and not d.tombstoned and d.audio_quality ->> 'lossless' = 'true'`),
  ]);
  return { total: tracks, eligible, done: eligible - backlog, lossless, backlog };
}

// --- tags: albums and tracks whose unified layer is missing or was built from other inputs ---

/** Raw tags, genres, moods and styles of every layer but the unified one (what `unifyTags` counts). */
const RAW_TAG_COUNT = sql`(select coalesce(sum(
    coalesce(jsonb_array_length(case when jsonb_typeof(e.value->'tags') = 'array' then e.value->'tags' end), 0)
  + coalesce(jsonb_array_length(case when jsonb_typeof(e.value->'genres') = 'array' then e.value->'genres' end), 0)
  + coalesce(jsonb_array_length(case when jsonb_typeof(e.value->'moods') = 'array' then e.value->'moods' end), 0)
  + coalesce(jsonb_array_length(case when jsonb_typeof(e.value->'styles') = 'array' then e.value->'styles' end), 0)), 0)::int
  from jsonb_each(d.facts) e where e.key <> '+tags')`;
const TAGGABLE = sql`d.kind in ('album', 'track') and not d.tombstoned`;
const TAGS_STALE = sql`((d.facts -> '+tags' ->> 'unified_from')::int is distinct from ${RAW_TAG_COUNT})`;

export interface TagItem {
  id: string;
  kind: 'album' | 'track';
  facts: Record<string, Facts>;
}

export async function staleTags(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<TagItem[]> {
  const rows = await sql<TagItem>`
    select d.id, d.kind, d.facts from canonical_docs d
    where ${TAGGABLE} and ${TAGS_STALE} and ${after(sql`d.id`, afterKey)}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

export async function tagsCoverage(db: Kysely<Database>) {
  const out: Record<string, { total: number; eligible: number; done: number; with_tags: number; with_moods: number; with_styles: number; backlog: number }> = {};
  for (const kind of ['album', 'track'] as const) {
    const live = sql`d.kind = ${kind} and not d.tombstoned`;
    const [total, backlog, tags, moods, styles] = await Promise.all([
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and ${TAGS_STALE}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and jsonb_array_length(d.tags) > 0`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and jsonb_array_length(d.moods) > 0`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and jsonb_array_length(d.styles) > 0`),
    ]);
    out[`${kind}s`] = { total, eligible: total, done: total - backlog, with_tags: tags, with_moods: moods, with_styles: styles, backlog };
  }
  return out as { albums: (typeof out)[string]; tracks: (typeof out)[string] };
}

// --- artist reproject: artists whose discography differs from their live albums and tracks ---

const LIVE_ALBUMS = sql`from canonical_docs a where a.kind = 'album' and a.artist_id = d.id and not a.tombstoned`;
const DISCOGRAPHY = sql`jsonb_build_object(
  'albums', (select count(*)::int ${LIVE_ALBUMS}),
  'tracks', (select count(*)::int from canonical_docs t where t.kind = 'track' and t.artist_id = d.id and not t.tombstoned),
  'first_year', (select min(a.year) ${LIVE_ALBUMS}),
  'last_year', (select max(a.year) ${LIVE_ALBUMS}))`;
const ARTISTS = sql`d.kind = 'artist' and not d.tombstoned`;
const DISCOGRAPHY_STALE = sql`(d.facts -> '+discography' -> 'discography') is distinct from ${DISCOGRAPHY}`;

export async function staleArtists(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<{ id: string }[]> {
  const rows = await sql<{ id: string }>`
    select d.id from canonical_docs d where ${ARTISTS} and ${DISCOGRAPHY_STALE} and ${after(sql`d.id`, afterKey)}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

/** An artist's live albums (year, genres, cover) and its live tracks' count. */
export async function artistCatalog(db: Kysely<Database>, artistId: string) {
  const albums = await db.selectFrom('canonical_docs').select(['year', 'genres', 'cover_url'])
    .where('kind', '=', 'album').where('artist_id', '=', artistId).where('tombstoned', '=', false).execute();
  const tracks = await db.selectFrom('canonical_docs').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'track').where('artist_id', '=', artistId).where('tombstoned', '=', false).executeTakeFirst();
  return { albums, tracks: Number(tracks?.n ?? 0) };
}

export async function artistReprojectCoverage(db: Kysely<Database>) {
  const [total, backlog, withAlbums] = await Promise.all([
    count(db, sql`select count(*)::int as n from canonical_docs d where ${ARTISTS}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${ARTISTS} and ${DISCOGRAPHY_STALE}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${ARTISTS} and (d.discography ->> 'albums')::int > 0`),
  ]);
  return { total, eligible: total, done: total - backlog, with_albums: withAlbums, backlog };
}
