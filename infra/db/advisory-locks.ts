import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { log } from '../logger.ts';
import { dedicatedClient } from './dedicated-client.ts';

/** A PostgreSQL advisory lock key (a signed 64-bit integer) for a name: the first 8 bytes of its SHA-256. */
export function lockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

export interface SessionLock {
  /** Takes the lock if nobody holds it; true once this process holds it. */
  tryAcquire(): Promise<boolean>;
  /** Called once when the connection holding the lock is gone (the server ended it, the network dropped). */
  onLost(listener: () => void): void;
  release(): Promise<void>;
}

/**
 * A session-level advisory lock held on a connection of its own, outside any pool: the server frees it
 * when that connection ends, so a killed process (kill -9, a lost host) gives it up without anyone
 * having to notice a missed heartbeat. A process that loses the connection must assume it lost the lock.
 */
export function sessionLock(connectionString: string, name: string): SessionLock {
  const key = lockKey(name);
  let client: pg.Client | undefined;
  let held = false;
  const listeners: (() => void)[] = [];
  const lost = (why: string) => {
    if (!held) return;
    held = false;
    client = undefined;
    log.warn('lost the connection holding a lock', { lock: name, error: why });
    for (const listener of listeners) listener();
  };
  return {
    async tryAcquire() {
      if (held) return true;
      if (!client) {
        const fresh = await dedicatedClient(connectionString, `lock ${name}`);
        fresh.on('error', (error) => lost(error.message));
        fresh.on('end', () => lost('connection ended'));
        await fresh.connect();
        client = fresh;
      }
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [key]);
      held = rows[0]!.locked;
      return held;
    },
    onLost(listener) {
      listeners.push(listener);
    },
    async release() {
      const open = client;
      held = false;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}

/**
 * Runs `work` while this process holds transaction-level advisory locks on `names` (taken in a fixed
 * order, so two holders of overlapping sets cannot deadlock). The locking transaction only waits:
 * `work` uses other connections, and the locks go when it commits, or when its connection dies.
 */
export async function holdingXactLocks<T>(db: Kysely<any>, names: { exclusive: string[]; shared?: string[] }, work: () => Promise<T>): Promise<T> {
  const exclusive = [...new Set(names.exclusive.map(lockKey))].sort();
  const shared = [...new Set((names.shared ?? []).map(lockKey))].sort();
  return db.transaction().execute(async (trx) => {
    for (const key of shared) await sql`select pg_advisory_xact_lock_shared(${key}::bigint)`.execute(trx);
    if (exclusive.length > 0) await sql`select pg_advisory_xact_lock(k::bigint) from unnest(${exclusive}::text[]) as k`.execute(trx);
    return work();
  });
}
