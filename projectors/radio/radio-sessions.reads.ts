import { type Kysely, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { RadioPicksTable, RadioSessionsTable } from './radio-sessions.table.ts';

export const RadioPick = z.object({
  position: z.number().int(),
  canonical_track_id: z.string(),
  title: z.string().nullable(),
  artist_id: z.string().nullable(),
  artist_name: z.string().nullable(),
  album_id: z.string().nullable(),
  album_title: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  cover_url: z.string().nullable(),
  score: z.number(),
  /** The signals that chose it, `·`-separated. */
  reason: z.string(),
  outcome: z.enum(['played', 'skipped', 'disliked', 'liked']).nullable(),
  feedback: z.enum(['up', 'down']).nullable(),
  picked_at: z.string(),
});
export type RadioPick = z.infer<typeof RadioPick>;

export const RadioSession = z.object({
  session_id: z.string(),
  seed_kind: z.enum(['artist', 'album', 'track', 'mood', 'genre']),
  seed_id: z.string(),
  seed_label: z.string(),
  active: z.boolean(),
  started_at: z.string(),
  updated_at: z.string(),
  ended_at: z.string().nullable(),
  /** Playable candidates the seed found; the session keeps the best `pool_count` of them. */
  pool_size: z.number().int(),
  pool_count: z.number().int(),
  track_count: z.number().int(),
  /** The track playing now: the last one picked. */
  current: RadioPick.nullable(),
});
export type RadioSession = z.infer<typeof RadioSession>;

export const RadioSessionDetail = RadioSession.extend({ tracks: z.array(RadioPick) });
export type RadioSessionDetail = z.infer<typeof RadioSessionDetail>;

/** A pick row joined with its track's card, as `picksOf` reads it. */
type PickRow = Omit<Selectable<RadioPicksTable>, 'session_id'> & TrackCard;

/** What a pick shows of its track beyond the pick itself. */
export interface TrackCard {
  title: string | null;
  artist_name: string | null;
  album_id: string | null;
  album_title: string | null;
  duration_ms: number | null;
  cover_url: string | null;
}

export function pickOf(r: PickRow): RadioPick {
  return {
    position: r.position, canonical_track_id: r.canonical_track_id, title: r.title ?? null, artist_id: r.artist_id, artist_name: r.artist_name ?? null,
    album_id: r.album_id ?? null, album_title: r.album_title ?? null, duration_ms: r.duration_ms ?? null, cover_url: r.cover_url ?? null,
    score: r.score, reason: r.reason, outcome: r.outcome as RadioPick['outcome'], feedback: r.feedback as RadioPick['feedback'], picked_at: r.picked_at.toISOString(),
  };
}

/** A track's card (no row for an unknown track): a query to run or to read in a larger one. */
export function cardQuery(db: Kysely<Database>, trackId: string) {
  return db.selectFrom('canonical_docs').select(['name as title', 'artist_name', 'album_id', 'album_title', 'duration_ms', 'cover_url']).where('id', '=', trackId);
}

/** A track's card; an unknown track shows none. */
export async function trackCard(db: Kysely<Database>, trackId: string): Promise<TrackCard | undefined> {
  return cardQuery(db, trackId).executeTakeFirst();
}

async function picksOf(db: Kysely<Database>, sessionIds: string[], lastOnly: boolean): Promise<Map<string, RadioPick[]>> {
  const byId = new Map<string, RadioPick[]>();
  if (sessionIds.length === 0) return byId;
  let query = db
    .selectFrom('radio_picks as p')
    .leftJoin('canonical_docs as d', 'd.id', 'p.canonical_track_id')
    .select(['p.session_id', 'p.position', 'p.canonical_track_id', 'p.artist_id', 'p.score', 'p.reason', 'p.outcome', 'p.feedback', 'p.picked_at'])
    .select(['d.name as title', 'd.artist_name', 'd.album_id', 'd.album_title', 'd.duration_ms', 'd.cover_url'])
    .where('p.session_id', 'in', sessionIds);
  if (lastOnly) query = query.where(sql<boolean>`p.position = (select s.track_count from radio_sessions s where s.session_id = p.session_id)`);
  for (const r of await query.orderBy('p.session_id').orderBy('p.position').execute()) {
    byId.set(r.session_id, [...(byId.get(r.session_id) ?? []), pickOf(r)]);
  }
  return byId;
}

export function sessionOf(row: Selectable<RadioSessionsTable>, current: RadioPick | undefined): RadioSession {
  return {
    session_id: row.session_id, seed_kind: row.seed_kind as RadioSession['seed_kind'], seed_id: row.seed_id, seed_label: row.seed_label,
    active: row.ended_at === null, started_at: row.started_at.toISOString(), updated_at: row.updated_at.toISOString(), ended_at: row.ended_at?.toISOString() ?? null,
    pool_size: row.pool_size, pool_count: row.pool_count, track_count: row.track_count, current: current ?? null,
  };
}

const mine = (db: Kysely<Database>, username: string) => db.selectFrom('radio_sessions').selectAll().where('username_key', '=', usernameKey(username));

/** The user's sessions, newest first (active and ended alike). */
export async function recentSessions(db: Kysely<Database>, username: string, limit: number): Promise<RadioSession[]> {
  const rows = await mine(db, username).orderBy('started_at', 'desc').orderBy('session_id', 'desc').limit(limit).execute();
  const current = await picksOf(db, rows.map((r) => r.session_id), true);
  return rows.map((r) => sessionOf(r, current.get(r.session_id)?.[0]));
}

/** The user's open sessions, newest first: one, unless two starts raced. */
export async function openSessionIds(db: Kysely<Database>, username: string): Promise<string[]> {
  const rows = await mine(db, username).where('ended_at', 'is', null).orderBy('updated_at', 'desc').orderBy('session_id', 'desc').execute();
  return rows.map((r) => r.session_id);
}

/** One of the user's sessions with every track it picked; undefined when it is not theirs. */
export async function findSession(db: Kysely<Database>, username: string, sessionId: string): Promise<RadioSessionDetail | undefined> {
  const row = await mine(db, username).where('session_id', '=', sessionId).executeTakeFirst();
  if (!row) return undefined;
  const tracks = (await picksOf(db, [sessionId], false)).get(sessionId) ?? [];
  return { ...sessionOf(row, tracks.at(-1)), tracks };
}

/** One of the user's sessions with its current track only (what a write answers); undefined when not theirs. */
export async function findSessionSummary(db: Kysely<Database>, username: string, sessionId: string): Promise<RadioSession | undefined> {
  const row = await mine(db, username).where('session_id', '=', sessionId).executeTakeFirst();
  if (!row) return undefined;
  return sessionOf(row, (await picksOf(db, [sessionId], true)).get(sessionId)?.[0]);
}
