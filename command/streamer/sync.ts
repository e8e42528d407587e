import type { AppContext } from '../../infra/context.ts';
import { StoppedByCancel } from '../../infra/tasks/task.ts';
import { mirrorState } from '../../projectors/streamer/mirror.reads.ts';
import { streamerLink } from './link.ts';
import { mirrorRecorder } from './mirror-recorder.ts';
import { FIRST_PAGE, PHASES, type Phase, phaseWalkers } from './sync-phases.ts';

/** Where a sync is: the phase, and the page to read next (null: the phase's first). */
export interface SyncCursor {
  phase: Phase;
  next: string | null;
}

export interface SyncRun {
  actor: string | null;
  taskId: string;
  checkpoint(): void;
  progress(progress: Record<string, unknown>): void;
}

export function storedCursor(value: unknown): SyncCursor | undefined {
  const v = value as Partial<SyncCursor> | null | undefined;
  if (!v || !PHASES.includes(v.phase as Phase)) return undefined;
  return { phase: v.phase as Phase, next: typeof v.next === 'string' ? v.next : null };
}

/**
 * Mirrors the linked account phase by phase, page by page, following the API's `next` links. A
 * resumed sync starts at its cursor; a phase walked from its first page also drops what the
 * account no longer lists (a phase resumed midway cannot tell, and leaves that to the next sync).
 */
export async function syncMirror(ctx: AppContext, username: string, run: SyncRun, resume?: SyncCursor) {
  const { accountId, api } = await streamerLink(ctx).session(username);
  const known = await mirrorState(ctx.db, username, accountId);
  const counts: Record<string, number> = {};
  const upcs = new Map([...known.savedAlbums.values()].flatMap((a) => (a.upc ? [[a.album_id, a.upc] as const] : [])));
  const recorder = mirrorRecorder(ctx, username, accountId, { actor: run.actor, correlation_id: run.taskId });
  const walkers = phaseWalkers({ ctx, api, accountId, actor: run.actor, known, recorder, upcs, counts, checkpoint: () => run.checkpoint() });
  let cursor: SyncCursor = resume ?? { phase: PHASES[0], next: null };
  try {
    for (const phase of PHASES.slice(PHASES.indexOf(cursor.phase))) {
      const from = cursor.phase === phase ? cursor.next : null;
      const seen = new Set<string>();
      for (let link: string | null = from ?? FIRST_PAGE[phase]; link; ) {
        cursor = { phase, next: link };
        run.checkpoint();
        link = await walkers[phase].page(link, seen);
        run.progress({ phase, cursor: { phase, next: link }, ...counts });
      }
      if (from === null) await walkers[phase].finish(seen);
      const at = PHASES.indexOf(phase);
      if (at + 1 < PHASES.length) cursor = { phase: PHASES[at + 1]!, next: null };
    }
  } catch (error) {
    // The cursor is the page not yet mirrored: a resumed sync reads it again.
    if (error instanceof StoppedByCancel) throw new StoppedByCancel({ cursor, ...counts });
    throw error;
  }
  return { account_id: accountId, resumed_from: resume ?? null, ...counts };
}
