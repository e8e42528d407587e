import { CompiledQuery, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { Engine } from '../../infra/db/create-db.ts';
import { executePrepared } from '../../infra/db/prepared.ts';
import type { CanonicalDocsTable } from './canonical-docs.table.ts';
import { FeatureData, type Kind } from '../../shared/events/canonical.events.ts';

export const RefRow = z.object({ source: z.string(), external_id: z.string() }).meta({ id: 'ExternalRef' });

const Affiliation = z.object({ mbid: z.string(), name: z.string(), relation: z.string(), begin: z.string().nullable(), end: z.string().nullable(), ended: z.boolean() });
const Credit = z.object({ name: z.string(), mbid: z.string().nullable(), work: z.string().nullable() });
const Credits = z.object({ composer: z.array(Credit), lyricist: z.array(Credit), writer: z.array(Credit) });
const NO_CREDITS = { composer: [], lyricist: [], writer: [] };

/** A canonical doc as the client renders it; album and track name their title `title`. */
export const CanonicalDoc = z.object({
  id: z.string(),
  kind: z.enum(['artist', 'album', 'track']),
  name: z.string().nullable().optional(),
  name_folded: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  title_folded: z.string().nullable().optional(),
  artist_id: z.string().nullable(),
  artist_name: z.string().nullable(),
  album_id: z.string().nullable(),
  album_title: z.string().nullable(),
  disc: z.number().int().nullable(),
  track_number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  isrc: z.string().nullable(),
  upc: z.string().nullable(),
  mbid: z.string().nullable(),
  cover_url: z.string().nullable(),
  picture: z.string().nullable().optional(),
  genres: z.array(z.string()),
  /** Albums and tracks: tags, moods and styles unified from every source (the tags drain's). */
  tags: z.array(z.string()),
  moods: z.array(z.string()),
  styles: z.array(z.string()),
  /** Albums: record labels (the releasedb's). */
  labels: z.array(z.string()),
  duration_ms: z.number().int().nullable(),
  preview_url: z.string().nullable(),
  catalog_id: z.string().nullable(),
  primary_type: z.string().nullable(),
  secondary_types: z.array(z.string()),
  /** Tracks: codec, bit depth, sample rate and lossless flag of the media server's file. */
  audio_quality: z.record(z.string(), z.unknown()).nullable(),
  /** Tracks: bpm, key, mood and genre probabilities (the features database's); null until found there. */
  feature_data: FeatureData.nullable(),
  sources: z.record(z.string(), z.boolean()),
  source_count: z.number().int(),
  /** Artists: other names (aliases), pages elsewhere, members and the groups it belongs to (the metabase's). */
  alt_names: z.array(z.string()),
  external_links: z.array(z.object({ category: z.string(), type: z.string(), url: z.string() })),
  members: z.array(Affiliation),
  member_of: z.array(Affiliation),
  /** Tracks: who composed, wrote the lyrics of, or wrote the work (the metabase's). */
  credits: Credits,
  /** Artists: live albums and tracks, first and last album year (the artist-reproject drain's); null until reprojected. */
  discography: z.object({ albums: z.number().int(), tracks: z.number().int(), first_year: z.number().int().nullable(), last_year: z.number().int().nullable() }).nullable(),
  playable: z.boolean(),
  merged_into: z.string().nullable(),
  tombstoned: z.boolean(),
  refs: z.array(RefRow),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'CanonicalEntity' });
export type CanonicalDoc = z.infer<typeof CanonicalDoc>;

/** Every column a doc is rendered from: all but the per-ref facts, which can be large. */
export const LIST_COLUMNS = [
  'id', 'kind', 'name', 'name_folded', 'artist_id', 'artist_name', 'album_id', 'album_title', 'disc', 'track_number', 'isrc', 'upc', 'mbid',
  'year', 'cover_url', 'genres', 'tags', 'duration_ms', 'preview_url', 'catalog_id', 'primary_type', 'secondary_types', 'audio_quality',
  'sources', 'source_count', 'alt_names', 'external_links', 'members', 'member_of', 'affiliations', 'credits', 'moods', 'styles', 'discography', 'labels',
  'feature_data',
  'merged_into', 'tombstoned', 'created_at', 'updated_at',
] as const;

export type DocRow = Omit<Selectable<CanonicalDocsTable>, 'facts' | 'list_json'>;

export function toDoc(row: DocRow, refs: { source: string; external_id: string }[]): CanonicalDoc {
  const named = row.kind === 'artist' ? { name: row.name, name_folded: row.name_folded, picture: row.cover_url } : { title: row.name, title_folded: row.name_folded };
  return {
    id: row.id,
    kind: row.kind as Kind,
    ...named,
    artist_id: row.artist_id,
    artist_name: row.artist_name,
    album_id: row.album_id,
    album_title: row.album_title,
    disc: row.disc,
    track_number: row.track_number,
    year: row.year,
    isrc: row.isrc,
    upc: row.upc,
    mbid: row.mbid,
    cover_url: row.cover_url,
    genres: row.genres,
    tags: row.tags,
    moods: row.moods,
    styles: row.styles,
    labels: row.labels,
    duration_ms: row.duration_ms,
    preview_url: row.preview_url,
    catalog_id: row.catalog_id,
    primary_type: row.primary_type,
    secondary_types: row.secondary_types,
    audio_quality: row.audio_quality,
    feature_data: (row.feature_data ?? null) as CanonicalDoc['feature_data'],
    sources: row.sources,
    source_count: row.source_count,
    alt_names: row.alt_names,
    external_links: (row.external_links ?? []) as CanonicalDoc['external_links'],
    members: (row.members ?? []) as CanonicalDoc['members'],
    member_of: (row.member_of ?? []) as CanonicalDoc['member_of'],
    credits: (row.credits ?? NO_CREDITS) as CanonicalDoc['credits'],
    discography: (row.discography ?? null) as CanonicalDoc['discography'],
    playable: row.sources.mediaserver === true,
    merged_into: row.merged_into,
    tombstoned: row.tombstoned,
    refs,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The row an id stands for now: a merged-away id answers its final target. */
export async function findLiveRow(db: Kysely<Database>, kind: Kind, id: string) {
  const row = await db.selectFrom('canonical_docs').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  if (!row?.merged_into) return row;
  return db.selectFrom('canonical_docs').selectAll().where('id', '=', row.merged_into).executeTakeFirst();
}

export async function refsOf(db: Kysely<Database>, ids: string[]) {
  if (ids.length === 0) return new Map<string, { source: string; external_id: string }[]>();
  const rows = await db.selectFrom('external_refs').select(['entity_id', 'source', 'external_id']).where('entity_id', 'in', ids).orderBy('source').orderBy('external_id').execute();
  const byEntity = new Map<string, { source: string; external_id: string }[]>();
  for (const r of rows) byEntity.set(r.entity_id, [...(byEntity.get(r.entity_id) ?? []), { source: r.source, external_id: r.external_id }]);
  return byEntity;
}

export async function findDoc(db: Kysely<Database>, kind: Kind, id: string): Promise<CanonicalDoc | undefined> {
  const row = await findLiveRow(db, kind, id);
  if (!row) return undefined;
  return toDoc(row, (await refsOf(db, [row.id])).get(row.id) ?? []);
}

export async function docsFor(db: Kysely<Database>, rows: DocRow[]): Promise<CanonicalDoc[]> {
  const refs = await refsOf(db, rows.map((r) => r.id));
  return rows.map((r) => toDoc(r, refs.get(r.id) ?? []));
}

/** The entity a ref belongs to now, following merges. */
export async function entityByRef(db: Kysely<Database>, kind: Kind, source: string, externalId: string): Promise<string | undefined> {
  const row = await db.selectFrom('external_refs').select('entity_id').where('kind', '=', kind).where('source', '=', source).where('external_id', '=', externalId).executeTakeFirst();
  return row?.entity_id;
}

/** Tracks of an album, by disc then track number (nulls last), merged-away tracks excluded. */
export async function albumTracks(db: Kysely<Database>, albumId: string) {
  const rows = await db
    .selectFrom('canonical_docs')
    .selectAll()
    .where('kind', '=', 'track')
    .where('album_id', '=', albumId)
    .where('tombstoned', '=', false)
    .orderBy((eb) => eb.ref('disc'), (ob) => ob.asc().nullsLast())
    .orderBy((eb) => eb.ref('track_number'), (ob) => ob.asc().nullsLast())
    .orderBy('name')
    .execute();
  return docsFor(db, rows);
}

/**
 * The docs' revision as a subquery: moved by every batch of their projector (readers keep what the
 * docs answered until it moves); a rebuild empties them before its first batch, which its
 * checkpoint's version and state tell apart.
 */
export function docsRevision(db: Kysely<Database>) {
  return db
    .selectFrom('canonical_docs_revision')
    .select(sql<string>`revision || ':' || coalesce((select version || state from projection_checkpoints where name = 'canonical_docs'), '')`.as('at'));
}

/** The text of docsInOrder's statement per database and renderer: only the ids change from page to page. */
const inOrderTexts = new WeakMap<object, WeakMap<RawBuilder<string>, string>>();

/**
 * The docs of `ids` in their order, each as `json` renders the doc `c`, as one JSON array text, with
 * the docs' revision: a kept order's page, answered only while the revision is the one it was read at.
 * `json` is a renderer made once (a module's constant) without parameters: the statement is built
 * and compiled once per renderer, which cost about as much CPU as the page's SQL on PostgreSQL.
 */
export async function docsInOrder(db: Kysely<Database>, engine: Engine, ids: string[], json: RawBuilder<string>) {
  let texts = inOrderTexts.get(db);
  if (!texts) inOrderTexts.set(db, (texts = new WeakMap()));
  let text = texts.get(json);
  if (text === undefined) {
    const compiled = sql`
      select (${docsRevision(db)}) as at, '[' || coalesce(string_agg(${json}, ',' order by k.n), '') || ']' as items
      from unnest(${ids}::text[]) with ordinality as k(id, n) join canonical_docs as c on c.id = k.id`.compile(db);
    if (compiled.parameters.length !== 1) throw new Error('docsInOrder: a renderer with parameters cannot share a statement');
    texts.set(json, (text = compiled.sql));
  }
  const { rows } = await executePrepared(db, engine, CompiledQuery.raw(text, [ids]) as CompiledQuery<{ at: string | null; items: string }>);
  return rows[0]!;
}
