import { PGliteThread } from './pglite-thread.ts';

/**
 * The embedded database's thread, started as this module is evaluated: infra/main.ts imports it
 * before anything else, so the thread boots (a Node environment and PGlite's module, 60–290 ms
 * depending on the load) while the main thread evaluates the rest, reads the settings and checks
 * the port; it opens the database once DATA_DIR is known. The settings' own rule (an empty
 * DATABASE_URL is unset) keeps it from starting for PostgreSQL.
 */
export const earlyThread = process.env.DATABASE_URL?.trim() ? undefined : PGliteThread.start();
