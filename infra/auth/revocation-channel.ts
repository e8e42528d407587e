import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import { messageOf } from '../../shared/errors.ts';
import type { Database } from '../db/database.ts';
import { dedicatedClient } from '../db/dedicated-client.ts';
import { log } from '../logger.ts';

const CHANNEL = 'music_library_session_revoked';
const RECONNECT_MS = 1000;
const Revocation = z.object({ key: z.string(), sv: z.number().int() });

export interface RevocationChannel {
  announce(key: string, sessionVersion: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Ended sessions pushed to every process on one PostgreSQL (LISTEN/NOTIFY): a logout on one `api`
 * process holds on the others within milliseconds, not after their session cache's 5 s. A process
 * whose listening connection is down falls back on that re-read until it reconnects. Carries a
 * username key and a session version, never a token.
 */
export function revocationChannel(connectionString: string, db: Kysely<Database>, heard: (key: string, sessionVersion: number) => void): RevocationChannel {
  let stopped = false;
  let client: pg.Client | undefined;
  const listening = (async () => {
    while (!stopped) {
      const fresh = await dedicatedClient(connectionString, 'session revocations');
      const ended = new Promise<void>((resolve) => {
        fresh.on('error', (error) => (log.warn('session revocations: connection lost', { error: error.message }), resolve()));
        fresh.on('end', () => resolve());
      });
      fresh.on('notification', ({ payload }) => {
        const parsed = Revocation.safeParse(JSON.parse(payload ?? 'null'));
        if (parsed.success) heard(parsed.data.key, parsed.data.sv);
      });
      try {
        await fresh.connect();
        await fresh.query(`listen ${CHANNEL}`);
        client = fresh;
        await ended;
      } catch (error) {
        log.warn('session revocations: cannot listen', { error: messageOf(error) });
      }
      client = undefined;
      await fresh.end().catch(() => undefined);
      if (!stopped) await sleep(RECONNECT_MS);
    }
  })();
  return {
    async announce(key, sessionVersion) {
      await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ key, sv: sessionVersion })})`
        .execute(db)
        .catch((error: unknown) => log.warn('session revocations: cannot announce', { error: messageOf(error) }));
    },
    async stop() {
      stopped = true;
      await client?.end().catch(() => undefined);
      await listening;
    },
  };
}
