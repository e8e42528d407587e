import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Role, SessionUser } from '../../shared/users.ts';
import type { SessionResolver } from './session.ts';
import type { SessionTokens } from './session-tokens.ts';

interface Entry {
  user: SessionUser | null;
  sessionVersion: number;
  loadedAt: number;
}

/**
 * Resolves session cookies without a database round trip per request: what a session needs of its
 * user (role, session version, deleted) is cached per user, dropped whenever the users read model
 * applies an event about them, and re-read after `ttlMs` in processes that do not project. A session
 * ended in this process is refused at once (`revoke`), before any read model has caught up, and in the
 * other processes as soon as they hear of it (`announce`, see revocation-channel.ts).
 */
export function createSessionCache(db: Kysely<Database>, tokens: SessionTokens, options: { ttlMs: number; announce?: (key: string, sessionVersion: number) => Promise<void> }) {
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();
  /** The lowest session version still valid per user, as the write side recorded it. */
  const floors = new Map<string, number>();

  async function load(key: string): Promise<Entry> {
    const generation = generations.get(key) ?? 0;
    const row = await db
      .selectFrom('users')
      .select(['username', 'role', 'session_version', 'deleted'])
      .where('username_key', '=', key)
      .executeTakeFirst();
    const entry: Entry = {
      user: row && !row.deleted ? { username: row.username, role: row.role as Role } : null,
      sessionVersion: row?.session_version ?? -1,
      loadedAt: Date.now(),
    };
    // A change applied while we read makes this answer stale: keep it for this request only.
    if ((generations.get(key) ?? 0) === generation) entries.set(key, entry);
    return entry;
  }

  function invalidate(keys: Iterable<string>): void {
    for (const key of keys) {
      entries.delete(key);
      generations.set(key, (generations.get(key) ?? 0) + 1);
    }
  }

  function raiseFloor(key: string, sessionVersion: number): void {
    floors.set(key, Math.max(floors.get(key) ?? 0, sessionVersion));
    invalidate([key]);
  }

  const resolver: SessionResolver & {
    invalidate(keys: Iterable<string>): void;
    revoke(key: string, sessionVersion: number): Promise<void>;
    heard(key: string, sessionVersion: number): void;
  } = {
    async resolve(token) {
      if (!token) return null;
      const claims = tokens.verify(token);
      if (!claims || claims.sv < (floors.get(claims.sub) ?? 0)) return null;
      let entry = entries.get(claims.sub);
      // A token newer than the cached version proves the cache stale (a change made by another process).
      if (!entry || Date.now() - entry.loadedAt > options.ttlMs || claims.sv > entry.sessionVersion) entry = await load(claims.sub);
      return entry.user && entry.sessionVersion === claims.sv ? entry.user : null;
    },
    invalidate,
    /** Sessions of `key` issued under a version below `sessionVersion` end now, here and (announced) in every other process. */
    async revoke(key, sessionVersion) {
      raiseFloor(key, sessionVersion);
      await options.announce?.(key, sessionVersion);
    },
    /** Another process revoked them. */
    heard: raiseFloor,
  };
  return resolver;
}

export type SessionCache = ReturnType<typeof createSessionCache>;
