import { sql } from 'kysely';
import { isoTime } from '../../shared/scrobbles/calendar.ts';
import { type Db, type Owner, canonicalOf, scrobbleOut } from './listening.queries.ts';

/**
 * The most recent scrobbles played on that weekday at that hour (UTC), newest first: either index
 * stops after `limit` matches, inside the window when there is one.
 */
export async function heatmapCell(db: Db, owner: Owner, cell: { dow: number; hour: number }, start: number | null, limit: number) {
  let rows = db
    .selectFrom('dashboard_scrobbles')
    .selectAll()
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('dow', '=', cell.dow)
    .where('hour', '=', cell.hour);
  if (start !== null) rows = rows.where('uts', '>=', start);
  return (await rows.orderBy('uts', 'desc').orderBy('scrobble_id').limit(limit).execute()).map(scrobbleOut);
}

const entityOut = (r: { entity_key: string; name: string; artist_name: string | null; artist_key: string | null; plays: number; first_uts: number; last_uts: number }) => ({
  canonical_id: canonicalOf(r.entity_key),
  name: r.name,
  artist_name: r.artist_name,
  canonical_artist_id: canonicalOf(r.artist_key),
  plays: r.plays,
  first_played_at: isoTime(r.first_uts),
  last_played_at: isoTime(r.last_uts),
});

/** Tracks not played since `cutoff`, most played first: walks the plays index, stops at `limit`. */
export async function rediscover(db: Db, owner: Owner, cutoff: number, limit: number) {
  const rows = await db
    .selectFrom('dashboard_entities')
    .select(['entity_key', 'name', 'artist_name', 'artist_key', 'plays', 'first_uts', 'last_uts'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', 'track')
    .where('last_uts', '<', cutoff)
    .orderBy('plays', 'desc')
    .orderBy('entity_key')
    .limit(limit)
    .execute();
  return rows.map(entityOut);
}

/**
 * Artists first scrobbled at or after `start`, most played first, each with its most played tracks.
 * A window reads the artists it holds through the first-play index (the sorted subquery keeps it
 * there), so a long history of older artists is never walked.
 */
export async function newArtists(db: Db, owner: Owner, start: number | null, limit: number, tracksPerArtist: number) {
  const artistRows = db
    .selectFrom('dashboard_entities')
    .select(['entity_key', 'name', 'artist_name', 'artist_key', 'plays', 'first_uts', 'last_uts'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', 'artist');
  const source = start === null ? artistRows : artistRows.where('first_uts', '>=', start).orderBy('first_uts');
  const artists = await db
    .selectFrom(source.as('a'))
    .selectAll()
    .orderBy('plays', 'desc')
    .orderBy('first_uts', 'desc')
    .orderBy('entity_key')
    .limit(limit)
    .execute();
  const tracks = await topTracksOf(db, owner, artists.map((a) => a.entity_key), tracksPerArtist);
  return artists.map((a) => {
    const { canonical_artist_id: _, artist_name: __, ...artist } = entityOut(a);
    return { ...artist, tracks: (tracks.get(a.entity_key) ?? []).map(entityOut) };
  });
}

async function topTracksOf(db: Db, owner: Owner, artistKeys: string[], perArtist: number) {
  const byArtist = new Map<string, Parameters<typeof entityOut>[0][]>();
  if (artistKeys.length === 0 || perArtist <= 0) return byArtist;
  const { rows } = await sql<Parameters<typeof entityOut>[0]>`
    select entity_key, name, artist_name, artist_key, plays, first_uts, last_uts from (
      select e.*, row_number() over (partition by artist_key order by plays desc, entity_key) as n
      from dashboard_entities e
      where user_key = ${owner.user_key} and listener = ${owner.listener} and kind = 'track'
        and artist_key in (${sql.join(artistKeys)})
    ) ranked where n <= ${perArtist}
    order by artist_key, n`.execute(db);
  for (const row of rows) {
    const list = byArtist.get(row.artist_key!) ?? [];
    list.push(row);
    byArtist.set(row.artist_key!, list);
  }
  return byArtist;
}
