import { sql } from 'kysely';
import { dayOf, isoDate, isoTime } from '../../shared/scrobbles/calendar.ts';
import { type Db, type Owner, type Window, scrobbleOut } from './listening.queries.ts';

export async function totalsOf(db: Db, owner: Owner) {
  return db.selectFrom('dashboard_totals').selectAll().where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).executeTakeFirst();
}

export async function latestScrobbles(db: Db, owner: Owner, limit: number) {
  const rows = await db
    .selectFrom('dashboard_scrobbles')
    .selectAll()
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .orderBy('uts', 'desc')
    .orderBy('scrobble_id')
    .limit(limit)
    .execute();
  return rows.map(scrobbleOut);
}

/** First and last valid scrobble: one index probe each. */
export async function scrobbleSpan(db: Db, owner: Owner) {
  const edge = (order: 'asc' | 'desc') =>
    db.selectFrom('dashboard_scrobbles').select('uts').where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).orderBy('uts', order).limit(1).executeTakeFirst();
  const [first, last] = await Promise.all([edge('asc'), edge('desc')]);
  return { first: first ? isoTime(first.uts) : null, last: last ? isoTime(last.uts) : null };
}

export async function invalidCount(db: Db, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('dashboard_invalid')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The current streak is the run ending today or yesterday (UTC): a day not over yet does not break it. */
export async function streaks(db: Db, owner: Owner, nowUts: number) {
  const runs = db.selectFrom('dashboard_streaks').selectAll().where('user_key', '=', owner.user_key).where('listener', '=', owner.listener);
  const [latest, longest] = await Promise.all([
    runs.orderBy('end_day', 'desc').limit(1).executeTakeFirst(),
    runs.orderBy('length', 'desc').orderBy('end_day', 'desc').limit(1).executeTakeFirst(),
  ]);
  const today = dayOf(nowUts);
  const current = latest && latest.end_day >= today - 1 ? latest : undefined;
  return {
    current_days: current?.length ?? 0,
    current_since: current ? isoDate(current.start_day) : null,
    longest_days: longest?.length ?? 0,
    longest_from: longest ? isoDate(longest.start_day) : null,
    longest_to: longest ? isoDate(longest.end_day) : null,
  };
}

/** Weekday × hour play counts: `heatmap[dow][hour]`, UTC, Monday = 0. */
export async function heatmap(db: Db, owner: Owner, window: Window | null): Promise<number[][]> {
  const grid = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  let cells: { dow: number; hour: number; plays: number }[];
  if (!window) {
    cells = await db.selectFrom('dashboard_heatmap').select(['dow', 'hour', 'plays']).where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).execute();
  } else {
    const { rows } = await sql<{ dow: number; hour: number; plays: number }>`
      select ((day + 3) % 7) as dow, hour, sum(plays)::int as plays from dashboard_hours
      where user_key = ${owner.user_key} and listener = ${owner.listener} and day > ${window.firstDay}
      group by 1, 2
      union all
      select dow, hour, count(*)::int as plays from dashboard_scrobbles
      where user_key = ${owner.user_key} and listener = ${owner.listener} and uts >= ${window.start} and uts < ${window.firstDayEnd}
      group by dow, hour`.execute(db);
    cells = rows;
  }
  for (const c of cells) grid[Number(c.dow)]![Number(c.hour)]! += Number(c.plays);
  return grid;
}

export async function playsPerDay(db: Db, owner: Owner, window: Window | null): Promise<{ date: string; plays: number }[]> {
  // All time is a row per day of years of history: one JSON value built in SQL decodes far faster than as many rows.
  const { rows } = await sql<{ days: string }>`
    select coalesce(json_agg(json_build_object('date', to_char(date '1970-01-01' + day, 'YYYY-MM-DD'), 'plays', plays) order by day), '[]')::text as days
    from dashboard_days
    where user_key = ${owner.user_key} and listener = ${owner.listener} ${window ? sql`and day > ${window.firstDay}` : sql``}`.execute(db);
  const days = JSON.parse(rows[0]!.days) as { date: string; plays: number }[];
  if (window) {
    const partial = await db
      .selectFrom('dashboard_scrobbles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_key', '=', owner.user_key)
      .where('listener', '=', owner.listener)
      .where('uts', '>=', window.start)
      .where('uts', '<', window.firstDayEnd)
      .executeTakeFirstOrThrow();
    if (Number(partial.n) > 0) days.unshift({ date: isoDate(window.firstDay), plays: Number(partial.n) });
  }
  return days;
}

/** Artists first scrobbled inside the window (all of them for all time), through the first-play index. */
export async function newArtistCount(db: Db, owner: Owner, window: Window | null, allTime: number): Promise<number> {
  if (!window) return allTime;
  const inWindow = db
    .selectFrom('dashboard_entities')
    .select('first_uts')
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', 'artist')
    .where('first_uts', '>=', window.start)
    .orderBy('first_uts');
  const row = await db.selectFrom(inWindow.as('a')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
