import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';
import { findLiveRow } from '../canonical/canonical-docs.reads.ts';

/**
 * Tracks and their lyrics, kept in the docs' facts under the lyrics layer (`+lyrics`): the drain's
 * backlog, the coverage counts and the lyrics route read the same layer.
 */

const ELIGIBLE = sql`d.kind = 'track' and not d.tombstoned and d.name is not null and d.artist_name is not null`;
const LYRICS = sql`(d.facts -> '+lyrics' -> 'lyrics')`;

export interface LyricsItem {
  id: string;
  name: string;
  artist_name: string;
  album_title: string | null;
  duration_ms: number | null;
}

/** Tracks with a title and an artist whose lyrics were never looked up. */
export async function untriedLyrics(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<LyricsItem[]> {
  const after = afterKey === null ? sql`true` : sql`d.id collate "C" > ${afterKey}`;
  const rows = await sql<LyricsItem>`
    select d.id, d.name, d.artist_name, d.album_title, d.duration_ms from canonical_docs d
    where ${ELIGIBLE} and ${LYRICS} is null and ${after}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

export async function lyricsCoverage(db: Kysely<Database>) {
  const row = (
    await sql<Record<string, number>>`
    select count(*)::int as eligible,
      count(*) filter (where ${LYRICS} ->> 'state' = 'found')::int as with_lyrics,
      count(*) filter (where ${LYRICS} ->> 'state' = 'found' and jsonb_typeof(${LYRICS} -> 'synced') = 'array')::int as synced,
      count(*) filter (where ${LYRICS} ->> 'state' = 'instrumental')::int as instrumentals,
      count(*) filter (where ${LYRICS} ->> 'state' = 'not_found')::int as not_found,
      count(*) filter (where ${LYRICS} is null)::int as untried
    from canonical_docs d where ${ELIGIBLE}`.execute(db)
  ).rows[0]!;
  return { eligible: row.eligible!, with_lyrics: row.with_lyrics!, synced: row.synced!, instrumentals: row.instrumentals!, not_found: row.not_found!, backlog: row.untried! };
}

/** The live track an id stands for (merges followed), with its lyrics layer when there is one. */
export async function trackWithLyrics(db: Kysely<Database>, trackId: string): Promise<(LyricsItem & { lyrics: Facts['lyrics'] | null }) | undefined> {
  const row = await findLiveRow(db, 'track', trackId);
  if (!row) return undefined;
  const facts = row.facts as Record<string, Facts>;
  return { id: row.id, name: row.name ?? '', artist_name: row.artist_name ?? '', album_title: row.album_title, duration_ms: row.duration_ms, lyrics: facts['+lyrics']?.lyrics ?? null };
}
