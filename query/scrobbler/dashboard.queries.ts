import { type RawBuilder, sql } from 'kysely';
import { dashboardProjector } from '../../projectors/scrobbler/dashboard.projector.ts';
import { dayOf, isoDate, isoTime } from '../../shared/scrobbles/calendar.ts';
import { recallSeries, rememberSeries } from './day-series-memo.ts';
import { type Db, type Owner, type Window, scrobbleOut } from './listening.queries.ts';

/** The owner's totals, and where the dashboard's projector stands (`at`, see playsPerDay). */
export async function totalsOf(db: Db, owner: Owner) {
  return db
    .selectFrom('dashboard_totals')
    .selectAll()
    .select(projectorAt.as('at'))
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .executeTakeFirst();
}

/**
 * The dashboard projector's place in the log: it writes its tables in the transaction that moves
 * its checkpoint, so they are the same while this is; a rebuild changes its version or state.
 */
const projectorAt = sql<string | null>`(select position || ':' || version || ':' || state from projection_checkpoints where name = ${dashboardProjector.name})`;

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

/**
 * Plays per day as JSON text, oldest first. All time is a row per day of years of history (2,084 at
 * a million scrobbles every 3 minutes), so it is written as text by the database and kept while the
 * projector stands at `at` (day-series-memo.ts); a window adds its partial first day from the scrobbles.
 */
export async function playsPerDay(db: Db, owner: Owner, window: Window | null, at: string | null): Promise<string> {
  if (!window) {
    const kept = at === null ? undefined : recallSeries(db, owner, at);
    if (kept !== undefined) return kept;
    const text = await daySeries(db, sql`select day, plays from dashboard_days where user_key = ${owner.user_key} and listener = ${owner.listener}`);
    if (at !== null) rememberSeries(db, owner, at, text);
    return text;
  }
  return daySeries(
    db,
    sql`select day, plays from dashboard_days where user_key = ${owner.user_key} and listener = ${owner.listener} and day > ${window.firstDay}
      union all
      select ${window.firstDay}, count(*)::int from dashboard_scrobbles
      where user_key = ${owner.user_key} and listener = ${owner.listener} and uts >= ${window.start} and uts < ${window.firstDayEnd}
      having count(*) > 0`,
  );
}

/** `{date, plays}` objects in day order, concatenated: json_build_object per row cost twice as much. */
async function daySeries(db: Db, days: RawBuilder<unknown>): Promise<string> {
  const { rows } = await sql<{ days: string }>`
    select '[' || coalesce(string_agg('{"date":"' || to_char(date '1970-01-01' + d.day, 'YYYY-MM-DD') || '","plays":' || d.plays || '}', ',' order by d.day), '') || ']' as days
    from (${days}) as d`.execute(db);
  return rows[0]!.days;
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
