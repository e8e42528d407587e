import type { PGlite } from '@electric-sql/pglite';
import { log } from '../logger.ts';

const CHECKPOINT_EVERY_MS = 60_000;

/**
 * PGlite runs PostgreSQL in single-user mode: no checkpointer process runs, so the write-ahead
 * log would grow without bound. A periodic CHECKPOINT lets it recycle its segments.
 */
export function startEmbeddedMaintenance(pglite: PGlite): () => void {
  const timer = setInterval(() => {
    pglite.exec('CHECKPOINT').catch((error) => log.warn('embedded database checkpoint failed', { error: String(error) }));
  }, CHECKPOINT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
