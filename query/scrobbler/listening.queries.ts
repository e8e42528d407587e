import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { DashboardScrobblesTable } from '../../projectors/scrobbler/dashboard.table.ts';
import { DAY_SECONDS, dayOf, isoTime } from '../../shared/scrobbles/calendar.ts';
import { listenerKey } from '../../shared/scrobbles/listener.ts';
import { usernameKey } from '../../shared/usernames.ts';

export type Db = Kysely<Database>;
export type EntityKind = 'artist' | 'album' | 'track';

/** Whose listening a read covers: the session's user and the scrobbler account linked now. */
export interface Owner {
  user_key: string;
  listener: string;
  scrobbler_username: string;
}

/** The session user's scrobbler account, or null without a link (the views then answer empty). */
export async function ownerOf(db: Db, username: string): Promise<Owner | null> {
  const user_key = usernameKey(username);
  const row = await db.selectFrom('users').select('scrobbler_username').where('username_key', '=', user_key).where('deleted', '=', false).executeTakeFirst();
  if (!row?.scrobbler_username) return null;
  return { user_key, listener: listenerKey(row.scrobbler_username), scrobbler_username: row.scrobbler_username };
}

export const nowUts = () => Math.floor(Date.now() / 1000);

/**
 * A rolling window starts inside a day: whole days after it come from the daily aggregates, the
 * part of its first day from that day's scrobbles, so a window is exact to the second.
 */
export interface Window {
  start: number;
  firstDay: number;
  /** First second after the window's partial first day. */
  firstDayEnd: number;
}

export function windowFrom(start: number | null): Window | null {
  if (start === null) return null;
  const firstDay = dayOf(start);
  return { start, firstDay, firstDayEnd: (firstDay + 1) * DAY_SECONDS };
}

export const ScrobbleOut = z.object({
  scrobble_id: z.string(),
  uts: z.number().int(),
  played_at: z.string(),
  artist: z.string(),
  album: z.string().nullable(),
  track: z.string(),
  canonical_artist_id: z.string().nullable(),
  canonical_album_id: z.string().nullable(),
  canonical_track_id: z.string().nullable(),
}).meta({ id: 'Scrobble' });

/** Keys of scrobbles without a canonical id carry the `s:` prefix; those have no canonical id to show. */
export const canonicalOf = (key: string | null) => (key && !key.startsWith('s:') ? key : null);

export function scrobbleOut(row: DashboardScrobblesTable): z.infer<typeof ScrobbleOut> {
  return {
    scrobble_id: row.scrobble_id,
    uts: row.uts,
    played_at: isoTime(row.uts),
    artist: row.artist,
    album: row.album,
    track: row.track,
    canonical_artist_id: canonicalOf(row.artist_key),
    canonical_album_id: canonicalOf(row.album_key),
    canonical_track_id: canonicalOf(row.track_key),
  };
}

export const EntityOut = z.object({
  canonical_id: z.string().nullable(),
  name: z.string(),
  artist_name: z.string().nullable(),
  plays: z.number().int(),
});

/** The most played entities of a kind, all time from the entity totals, windowed from daily rows. */
export async function topEntities(db: Db, owner: Owner, kind: EntityKind, window: Window | null, limit: number) {
  if (!window) {
    const rows = await db
      .selectFrom('dashboard_entities')
      .select(['entity_key', 'name', 'artist_name', 'plays'])
      .where('user_key', '=', owner.user_key)
      .where('listener', '=', owner.listener)
      .where('kind', '=', kind)
      .orderBy('plays', 'desc')
      .orderBy('entity_key')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ canonical_id: canonicalOf(r.entity_key), name: r.name, artist_name: r.artist_name, plays: r.plays }));
  }
  const keyColumn = sql.ref(`${kind}_key`);
  const { rows } = await sql<{ entity_key: string; plays: number; name: string; artist_name: string | null }>`
    select t.entity_key, t.plays::int as plays, e.name, e.artist_name
    from (
      select entity_key, sum(plays) as plays from (
        select entity_key, plays from dashboard_entity_days
        where user_key = ${owner.user_key} and listener = ${owner.listener} and kind = ${kind} and day > ${window.firstDay}
        union all
        select ${keyColumn} as entity_key, 1 as plays from dashboard_scrobbles
        where user_key = ${owner.user_key} and listener = ${owner.listener} and uts >= ${window.start} and uts < ${window.firstDayEnd}
          and ${keyColumn} is not null
      ) w group by entity_key
      order by sum(plays) desc, entity_key limit ${limit}
    ) t
    join dashboard_entities e on e.user_key = ${owner.user_key} and e.listener = ${owner.listener} and e.kind = ${kind} and e.entity_key = t.entity_key
    order by t.plays desc, t.entity_key`.execute(db);
  return rows.map((r) => ({ canonical_id: canonicalOf(r.entity_key), name: r.name, artist_name: r.artist_name, plays: Number(r.plays) }));
}
