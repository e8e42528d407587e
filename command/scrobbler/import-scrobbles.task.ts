import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import { RECENT_TRACKS_MAX_LIMIT, scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { ScrobblerFailure } from '../../infra/upstreams/scrobbler/errors.ts';
import type { RecentTracksPage } from '../../infra/upstreams/scrobbler/schemas.ts';
import { StoppedByCancel, type TaskContext, type TaskDefinition } from '../../infra/tasks/task.ts';
import { PreconditionFailed } from '../../shared/errors.ts';
import { BULK_IMPORT_TASK } from '../../shared/scrobbles/tasks.ts';
import { importPage } from './import-page.ts';
import { currentLink, sessionKeyOf } from './scrobbler-link.ts';
import { canonicalStamper } from './stamp-canonical.ts';

/**
 * Where an import stands. The history is walked newest first by time, not by page number: each
 * window ends at the oldest scrobble read so far (plus a second, so scrobbles sharing that second
 * are read again and deduplicated rather than skipped, whether the scrobbler's `to` is inclusive or
 * not). The first window has no upper bound, so scrobbles the scrobbler dates in the future are
 * mirrored too. Scrobbles made while an import runs land above the window and are left to the next
 * refresh.
 */
export interface ImportCursor {
  /** Upper bound of the window still to read; null before the first page. */
  to: number | null;
  /** Page within that window: past 1 only when a whole page shared one second. */
  page: number;
  /** Pages read so far by this import, across the runs that continued it. */
  pages: number;
}

export const FIRST_WINDOW: ImportCursor = { to: null, page: 1, pages: 0 };

/**
 * The window after a page: below its oldest scrobble, or the next page of the same window when the
 * whole page sat at one second (so a burst of same-second scrobbles cannot stall the walk).
 */
export function nextWindow(cursor: ImportCursor, oldestUts: number): ImportCursor {
  const to = oldestUts + 1;
  if (cursor.to !== null && to >= cursor.to) return { to: cursor.to, page: cursor.page + 1, pages: cursor.pages + 1 };
  return { to, page: 1, pages: cursor.pages + 1 };
}

/** A cursor kept by a task, or by an import recorded before windows (`{to, page}` under a fixed bound). */
export function storedCursor(value: unknown): ImportCursor | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { to, page, pages } = value as Record<string, unknown>;
  if (!(to === null || Number.isSafeInteger(to)) || !Number.isSafeInteger(page) || (page as number) < 1) return undefined;
  return { to: to as number | null, page: page as number, pages: Number.isSafeInteger(pages) ? (pages as number) : (page as number) - 1 };
}

export interface BulkImportParams {
  username: string;
  /** Set when this run continues a cancelled or failed one. */
  resume?: ImportCursor;
}

/** Rounds of waiting when a transient error outlasts the client's own retries. */
const OUTER_ROUNDS = 3;

/**
 * The full-history import: every page of the user's recent tracks, newest first, each recorded as
 * it arrives. Resumable: progress carries the cursor, so a restart (or a new run after a cancel)
 * continues at the window where it stopped; re-reading a scrobble adds nothing.
 */
export function bulkImportTask(context: () => AppContext): TaskDefinition<BulkImportParams> {
  return {
    name: BULK_IMPORT_TASK,
    resumable: true,
    async run(task) {
      const ctx = context();
      const { username } = task.params;
      const link = await currentLink(ctx, username);
      if (!link) throw new PreconditionFailed('Scrobbler not linked');
      const sessionKey = await sessionKeyOf(ctx, link);
      const resumed = storedCursor(task.resumedFrom?.cursor) ?? task.params.resume;
      let cursor: ImportCursor = resumed ?? FIRST_WINDOW;
      const stamper = canonicalStamper(ctx, username);
      let imported = 0;
      let totalPages: number | null = null;
      let totalScrobbles: number | null = null;
      const summary = () => ({ scrobbler_username: link.scrobblerUsername, cursor, imported, total_pages: totalPages, resumed_from_page: resumed ? resumed.pages + 1 : null });
      // The next page is fetched while this one is stamped and recorded: the import waits on the
      // scrobbler or on the database, not on one after the other.
      const fetchAhead = (at: ImportCursor) => {
        const fetching = fetchPage(ctx, task, link.scrobblerUsername, at, sessionKey);
        fetching.catch(() => undefined);
        return fetching;
      };
      let ahead = fetchAhead(cursor);
      try {
        for (;;) {
          task.checkpoint();
          const page = await ahead;
          // Each window counts what is left below it: pages read plus the window's own.
          totalPages = cursor.pages + page.totalPages - cursor.page + 1;
          if (cursor.to === null) totalScrobbles = page.total;
          const last = cursor.page >= page.totalPages || page.scrobbles.length === 0;
          const following = last ? { ...cursor, pages: cursor.pages + 1 } : nextWindow(cursor, Math.min(...page.scrobbles.map((s) => s.uts)));
          if (!last) ahead = fetchAhead(following);
          const { inserted } = await importPage(ctx, {
            username,
            scrobblerUsername: link.scrobblerUsername,
            taskId: task.taskId,
            page: cursor.pages + 1,
            totalPages,
            rows: page.scrobbles,
            recordEmpty: false,
            stamper,
          });
          imported += inserted;
          cursor = following;
          void task.progress({ ...summary(), page: cursor.pages, total_scrobbles: totalScrobbles });
          if (last) return summary();
        }
      } catch (error) {
        // Stopped by a cancel mid-await: say exactly where, so the next run starts there.
        if (task.signal.aborted && task.signal.reason === 'cancel') throw new StoppedByCancel(summary());
        if (error instanceof StoppedByCancel) throw new StoppedByCancel(summary());
        throw error;
      }
    },
  };
}

async function fetchPage(ctx: AppContext, task: TaskContext<BulkImportParams>, user: string, cursor: ImportCursor, sessionKey: string | undefined): Promise<RecentTracksPage> {
  const client = scrobblerClient(ctx.config);
  const waitMs = ctx.config.UPSTREAM_PACING === 'real' ? 30_000 : 50;
  for (let round = 1; ; round++) {
    try {
      return await client.recentTracks(user, { page: cursor.page, limit: RECENT_TRACKS_MAX_LIMIT, to: cursor.to ?? undefined, sessionKey }, task.signal);
    } catch (error) {
      if (!(error instanceof ScrobblerFailure) || !error.retryable || round >= OUTER_ROUNDS) throw error;
      log.warn('scrobbler import: upstream still failing, waiting before the same page', { task_id: task.taskId, page: cursor.pages + 1, code: error.code });
      await abortableSleep(waitMs * round, task.signal);
    }
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
