import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { registeredRekeyers } from './migrate-rekeyers.ts';
import { type RekeyOutcome, finalIdResolver, rekeyTable } from './rekey.ts';

export const MIGRATE_TASK = 'canonical.migrate';

/**
 * Re-keys every registered table of user data onto the ends of merge chains. Idempotent: a second
 * run finds nothing to move. (The canonical layer is filled as sources are read: a sync, an import,
 * a resolve or seed reconcile what they see, so there is no cache left to backfill from.)
 */
export function migrateTask(app: () => AppContext): TaskDefinition {
  return {
    name: MIGRATE_TASK,
    // Idempotent from the start: a run cut short by a restart simply runs again.
    resumable: true,
    async run(task) {
      const ctx = app();
      // Re-keying reads the read model for candidates: let it include everything written so far.
      await ctx.readModels.catchUp(await ctx.store.headPosition());
      const rekeyed: Record<string, RekeyOutcome> = {};
      const resolve = finalIdResolver(ctx);
      for (const rekeyer of registeredRekeyers()) {
        task.checkpoint();
        rekeyed[rekeyer.table] = await rekeyTable(ctx, rekeyer, resolve, () => task.checkpoint());
        await task.progress({ phase: 'rekey', rekeyed });
      }
      const total = (field: keyof RekeyOutcome) => Object.values(rekeyed).reduce((n, o) => n + o[field], 0);
      return {
        rekeyed,
        rows_rekeyed: total('rekeyed'),
        duplicates_removed: total('duplicates_removed'),
        unresolvable_deleted: total('unresolvable_deleted'),
      };
    },
  };
}
