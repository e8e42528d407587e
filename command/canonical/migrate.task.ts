import type { AppContext } from '../../infra/context.ts';
import type { TaskContext, TaskDefinition } from '../../infra/tasks/task.ts';
import { registeredBackfills, registeredRekeyers } from './migrate-rekeyers.ts';
import { reconcileMany } from './reconciler.ts';
import { type RekeyOutcome, finalIdResolver, rekeyTable } from './rekey.ts';

export const MIGRATE_TASK = 'canonical.migrate';

/**
 * Backfills the canonical layer from every registered source cache (read only), then re-keys every
 * registered table of user data onto the ends of merge chains. Idempotent: the backfill reconciles
 * refs that already exist to the same entities, and a second re-key finds nothing to move.
 */
export function migrateTask(app: () => AppContext): TaskDefinition {
  return {
    name: MIGRATE_TASK,
    // Idempotent from the start: a run cut short by a restart simply runs again.
    resumable: true,
    async run(task) {
      const ctx = app();
      // Re-keying reads the read model for candidates: let it include everything written so far.
      await ctx.settle(await ctx.store.headPosition());
      const backfilled = await backfill(ctx, task);
      const rekeyed: Record<string, RekeyOutcome> = {};
      const resolve = finalIdResolver(ctx);
      for (const rekeyer of registeredRekeyers()) {
        task.checkpoint();
        rekeyed[rekeyer.table] = await rekeyTable(ctx, rekeyer, resolve, () => task.checkpoint());
        await task.progress({ phase: 'rekey', backfilled, rekeyed });
      }
      const total = (field: keyof RekeyOutcome) => Object.values(rekeyed).reduce((n, o) => n + o[field], 0);
      return {
        backfilled,
        rekeyed,
        rows_rekeyed: total('rekeyed'),
        duplicates_removed: total('duplicates_removed'),
        unresolvable_deleted: total('unresolvable_deleted'),
      };
    },
  };
}

async function backfill(ctx: AppContext, task: TaskContext): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (const source of registeredBackfills()) {
    seen[source.name] = 0;
    let count = 0;
    for await (const batch of source.observations(ctx.db)) {
      task.checkpoint();
      await reconcileMany(ctx, batch, task.startedBy);
      count += batch.length;
      seen[source.name] = count;
      await task.progress({ phase: 'backfill', backfilled: seen });
    }
  }
  return seen;
}
