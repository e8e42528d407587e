import { type RawBuilder, sql } from 'kysely';
import type { Kind } from '../../shared/events/canonical.events.ts';

const as = (expression: RawBuilder<unknown>, key: string) => sql`${expression} as ${sql.ref(key)}`;
const column = (key: string, name = key) => as(sql.ref(name), key);
/** A jsonb column that toDoc reads with `?? fallback`: SQL null and JSON null both give the fallback. */
const orElse = (key: string, fallback: unknown) => as(sql`coalesce(nullif(${sql.ref(key)}, 'null'::jsonb), ${sql.lit(JSON.stringify(fallback))}::jsonb)`, key);
/** As `Date#toISOString` prints it: UTC, milliseconds truncated. */
const iso = (key: string) => as(sql`to_char(${sql.ref(key)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, key);

/**
 * The select list of the doc `toDoc` renders (projectors/canonical/canonical-docs.reads.ts): its
 * keys as column names, in its order, so that `json_agg` of these rows is the JSON of those docs
 * and a page goes out as the text the database wrote (infra/http/json-text.ts) instead of rows
 * decoded, mapped and stringified again (`row_to_json` costs less than `json_build_object`). Reads
 * the columns of a `canonical_docs` row in scope; `refs`, when given, goes where toDoc puts it.
 */
export function docColumns(kind: Kind, refs?: RawBuilder<unknown>): RawBuilder<unknown> {
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
    ...(refs ? [as(refs, 'refs')] : []),
    iso('created_at'),
    iso('updated_at'),
  ]);
}
