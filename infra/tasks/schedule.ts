import type { AppContext } from '../context.ts';
import { log } from '../logger.ts';

/** A task the worker starts on its own, about every `everyMs`, while `enabled` says so. */
export interface Schedule {
  readonly task: string;
  readonly everyMs: number;
  enabled(ctx: AppContext): boolean;
}

/** The first look waits this long after start: a boot is busy enough, and a restart loop must not fire a run each time. */
const FIRST_LOOK_MS = 60_000;
const LOOK_EVERY_MS = 60 * 60_000;

/**
 * Starts each schedule's task when its last run (in the task history, so across restarts) began
 * more than `everyMs` ago. One process with the worker role should run schedules.
 */
export function startSchedules(ctx: AppContext, schedules: readonly Schedule[]): () => void {
  const due = schedules.filter((s) => s.enabled(ctx));
  if (due.length === 0) return () => undefined;
  const look = async () => {
    for (const schedule of due) {
      try {
        const last = await ctx.db.selectFrom('task_history').select(['status', 'started_at']).where('name', '=', schedule.task).orderBy('started_at', 'desc').limit(1).executeTakeFirst();
        if (last?.status === 'running' || (last && Date.now() - last.started_at.getTime() < schedule.everyMs)) continue;
        await ctx.tasks.start(schedule.task, {}, null);
      } catch (error) {
        log.warn('schedules: could not start a scheduled task', { task: schedule.task, error: String(error) });
      }
    }
  };
  const first = setTimeout(() => void look(), FIRST_LOOK_MS);
  const every = setInterval(() => void look(), LOOK_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
