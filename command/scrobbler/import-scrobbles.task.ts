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
 * Where an import stands: pages are counted under a fixed upper bound `to` (the time the import
 * began), so scrobbles made while it runs do not shift the pages still to read.
 */
export interface ImportCursor {
  to: number;
  page: number;
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
 * continues at the page where it stopped; re-reading a page adds nothing.
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
      const resumed = (task.resumedFrom?.cursor as ImportCursor | undefined) ?? task.params.resume;
      let cursor: ImportCursor = resumed ?? { to: Math.floor(Date.now() / 1000), page: 1 };
      const stamper = canonicalStamper(ctx, username);
      let imported = 0;
      let totalPages: number | null = null;
      const summary = () => ({ scrobbler_username: link.scrobblerUsername, cursor, imported, total_pages: totalPages, resumed_from_page: resumed?.page ?? null });
      try {
        for (;;) {
          task.checkpoint();
          const page = await fetchPage(ctx, task, link.scrobblerUsername, cursor, sessionKey);
          totalPages = page.totalPages;
          const { inserted } = await importPage(ctx, {
            username,
            scrobblerUsername: link.scrobblerUsername,
            taskId: task.taskId,
            page: cursor.page,
            totalPages,
            rows: page.scrobbles,
            recordEmpty: false,
            stamper,
          });
          imported += inserted;
          const last = cursor.page >= page.totalPages || page.scrobbles.length === 0;
          cursor = { to: cursor.to, page: cursor.page + 1 };
          void task.progress({ ...summary(), page: cursor.page - 1, total_scrobbles: page.total });
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
      return await client.recentTracks(user, { page: cursor.page, limit: RECENT_TRACKS_MAX_LIMIT, to: cursor.to, sessionKey }, task.signal);
    } catch (error) {
      if (!(error instanceof ScrobblerFailure) || !error.retryable || round >= OUTER_ROUNDS) throw error;
      log.warn('scrobbler import: upstream still failing, waiting before the same page', { task_id: task.taskId, page: cursor.page, code: error.code });
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
