import { type RawBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';

const as = (expression: RawBuilder<unknown>, key: string) => sql`${expression} as ${sql.ref(key)}`;
const column = (key: string, name = key) => as(sql.ref(name), key);
/** A jsonb column that toDoc reads with `?? fallback`: SQL null and JSON null both give the fallback. */
const orElse = (key: string, fallback: unknown) => as(sql`coalesce(nullif(${sql.ref(key)}, 'null'::jsonb), ${sql.lit(JSON.stringify(fallback))}::jsonb)`, key);
/** As `Date#toISOString` prints it: UTC, milliseconds truncated. */
const iso = (key: string) => as(sql`to_char(${sql.ref(key)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, key);

/**
 * The select list of the doc `toDoc` renders (canonical-docs.reads.ts) without its refs: its keys as
 * column names, in its order, so that `row_to_json` of it is the JSON of that doc
 * (`row_to_json` costs less than `json_build_object`). Reads the columns of a `canonical_docs` row
 * in scope.
 */
function selectList(kind: Kind): RawBuilder<unknown> {
  const named = kind === 'artist' ? [column('name'), column('name_folded'), column('picture', 'cover_url')] : [column('title', 'name'), column('title_folded', 'name_folded')];
  return sql.join([
    column('id'),
    column('kind'),
    ...named,
    ...['artist_id', 'artist_name', 'album_id', 'album_title', 'disc', 'track_number', 'year', 'isrc', 'upc', 'mbid', 'cover_url'].map((c) => column(c)),
    ...['genres', 'tags', 'moods', 'styles', 'labels', 'duration_ms', 'preview_url', 'catalog_id', 'primary_type', 'secondary_types', 'audio_quality'].map((c) => column(c)),
    ...['feature_data', 'sources', 'source_count', 'alt_names'].map((c) => column(c)),
    orElse('external_links', []),
    orElse('members', []),
    orElse('member_of', []),
    orElse('credits', { composer: [], lyricist: [], writer: [] }),
    column('discography'),
    as(sql`coalesce(sources -> 'mediaserver' = 'true'::jsonb, false)`, 'playable'),
    column('merged_into'),
    column('tombstoned'),
    iso('created_at'),
    iso('updated_at'),
  ]);
}

const render = (kind: Kind) => sql`(select row_to_json(d)::text from (select ${selectList(kind)}) as d)`;

/**
 * The list JSON of the `canonical_docs` row in scope, as `list_json` holds it: the doc toDoc renders
 * without its refs (a library row), as the text the database writes for it. Albums and tracks
 * render alike.
 */
export const listJson = sql<string>`case kind when 'artist' then ${render('artist')} else ${render('track')} end`;

/**
 * Renders `list_json` again for the rows `ids`, written by statements that did not render it (a
 * merge's). A page is its rows' stored texts joined: turning 50 rows of 40 columns into JSON was
 * most of what a page cost above a plain SELECT. Kept by the projector rather than a trigger: a
 * rebuild's shadow tables (`like ... including all`) copy no triggers.
 */
export async function storeListJson(trx: Transaction<Database>, ids: Iterable<string>): Promise<void> {
  const all = [...new Set(ids)];
  for (let i = 0; i < all.length; i += CHUNK) {
    await trx.updateTable('canonical_docs').set({ list_json: listJson }).where('id', 'in', all.slice(i, i + CHUNK)).execute();
  }
}

const CHUNK = 500;

/** `,"created_at":"…","updated_at":"…"}`: the two times that close every list JSON, 24 characters each as `iso` prints them. */
const TAIL = 81;

/** A doc with its refs (a JSON list) where toDoc puts them, before the times that close its list JSON. */
export function withRefs(json: RawBuilder<string>, refs: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`left(${json}, ${sql.lit(-TAIL)}) || ',"refs":' || (${refs})::text || right(${json}, ${sql.lit(TAIL)})`;
}
