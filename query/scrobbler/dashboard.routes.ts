import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { withJsonField } from '../../infra/http/json-text.ts';
import { WINDOW_DAYS, optionalQueryInt } from '../../infra/http/params.ts';
import { windowStart } from '../../shared/scrobbles/calendar.ts';
import { heatmap, invalidCount, latestScrobbles, newArtistCount, playsPerDay, scrobbleSpan, streaks, totalsOf } from './dashboard.queries.ts';
import { type Db, EntityOut, type Owner, ScrobbleOut, nowUts, ownerOf, topEntities, windowFrom } from './listening.queries.ts';

const TOP = 10;
const LATEST = 10;

const Ready = {
  totals: z.object({ scrobbles: z.number().int(), artists: z.number().int(), albums: z.number().int(), tracks: z.number().int() }),
  streak: z.object({
    current_days: z.number().int(),
    current_since: z.string().nullable(),
    longest_days: z.number().int(),
    longest_from: z.string().nullable(),
    longest_to: z.string().nullable(),
  }),
  latest_scrobbles: z.array(ScrobbleOut),
  mirror: z.object({
    scrobbler_username: z.string(),
    scrobbles: z.number().int(),
    invalid_scrobbles: z.number().int(),
    first_scrobble_at: z.string().nullable(),
    last_scrobble_at: z.string().nullable(),
    last_imported_at: z.string(),
  }),
  top_artists: z.array(EntityOut),
  top_albums: z.array(EntityOut),
  top_tracks: z.array(EntityOut),
  heatmap: z.array(z.array(z.number().int())).describe('heatmap[dow][hour]: UTC, Monday = 0'),
  plays_per_day: z.array(z.object({ date: z.string(), plays: z.number().int() })),
  new_artists: z.number().int(),
};

/** One shape for the three states: the sections are present when `state` is `ready`. */
const Dashboard = z
  .object({
    state: z.enum(['no_scrobbler', 'no_scrobbles', 'ready']),
    window_days: z.number().int().nullable().describe('null: all time'),
  })
  .extend(z.object(Ready).partial().shape).meta({ id: 'ScrobblerDashboard' });

export const dashboardRoutes = [
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/dashboard',
    tag: 'scrobbler',
    summary: "The caller's listening dashboard from the local mirror",
    description:
      'States: `no_scrobbler` (no scrobbler link), `no_scrobbles` (linked, nothing imported yet), `ready`. ' +
      'Top lists, heatmap, plays per day and new artists cover the rolling `window_days` (omitted, zero or negative: all time); ' +
      'totals, streaks, latest scrobbles and the mirror status are not time-scoped. Invalid scrobbles never count.',
    access: 'user',
    query: z.object({ window_days: optionalQueryInt(WINDOW_DAYS) }),
    response: Dashboard,
    handler: async ({ ctx, user, query }) => {
      const windowDays = query.window_days !== undefined && query.window_days > 0 ? query.window_days : null;
      const owner = await ownerOf(ctx.db, user.username);
      if (!owner) return { state: 'no_scrobbler' as const, window_days: windowDays };
      const totals = await totalsOf(ctx.db, owner);
      if (!totals) return { state: 'no_scrobbles' as const, window_days: windowDays };
      const { plays_per_day, ...sections } = await readySections(ctx.db, owner, totals, windowDays);
      return withJsonField<z.infer<typeof Dashboard>>({ state: 'ready', window_days: windowDays, ...sections }, 'plays_per_day', plays_per_day);
    },
  }),
];

async function readySections(db: Db, owner: Owner, totals: NonNullable<Awaited<ReturnType<typeof totalsOf>>>, windowDays: number | null) {
  const now = nowUts();
  const window = windowFrom(windowStart(windowDays ?? undefined, now));
  const [streak, latest, span, invalid, topArtists, topAlbums, topTracks, grid, perDay, newArtists] = await Promise.all([
    streaks(db, owner, now),
    latestScrobbles(db, owner, LATEST),
    scrobbleSpan(db, owner),
    invalidCount(db, owner),
    topEntities(db, owner, 'artist', window, TOP),
    topEntities(db, owner, 'album', window, TOP),
    topEntities(db, owner, 'track', window, TOP),
    heatmap(db, owner, window),
    playsPerDay(db, owner, window, totals.at),
    newArtistCount(db, owner, window, totals.artists),
  ]);
  return {
    totals: { scrobbles: totals.scrobbles, artists: totals.artists, albums: totals.albums, tracks: totals.tracks },
    streak,
    latest_scrobbles: latest,
    mirror: {
      scrobbler_username: owner.scrobbler_username,
      scrobbles: totals.scrobbles,
      invalid_scrobbles: invalid,
      first_scrobble_at: span.first,
      last_scrobble_at: span.last,
      last_imported_at: new Date(totals.last_imported_at).toISOString(),
    },
    top_artists: topArtists,
    top_albums: topAlbums,
    top_tracks: topTracks,
    heatmap: grid,
    plays_per_day: perDay,
    new_artists: newArtists,
  };
}
