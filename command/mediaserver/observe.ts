import type { AppContext } from '../../infra/context.ts';
import { type Observation, reconcile } from '../canonical/reconciler.ts';

/**
 * Reconciles a batch of observations, returning their canonical ids in order. The sync hands the
 * canonical layer whole pages so that a batch reconciler (one append and one settle per batch) can
 * take them as they are; until then each goes through `reconcile`.
 */
export async function observeMany(ctx: AppContext, observations: Observation[], actor: string | null): Promise<string[]> {
  const ids: string[] = [];
  for (const observation of observations) ids.push(await reconcile(ctx, observation, actor));
  return ids;
}
