import { foldName } from '../../shared/names.ts';
import type { Observation } from './observation.ts';
import { flatten } from './reconcile-view.ts';

/** Held shared by every batch, exclusively by a batch too big to lock key by key. */
const EVERY_KEY = 'reconcile:*';
/** Past this many keys a batch (an import) locks everything rather than filling the lock table. */
const MAX_KEYS = 64;

/**
 * The advisory locks a batch holds while it reconciles (across processes on PostgreSQL): one per
 * ref, exact identifier and folded name it matches on, so two processes observing one entity take
 * turns and the second matches what the first minted; batches on other names run side by side.
 */
export function reconcileLocks(observations: Observation[]): { exclusive: string[]; shared: string[] } {
  const keys = new Set<string>();
  for (const o of flatten(observations)) {
    keys.add(`reconcile:${o.kind}|ref|${o.source}|${o.external_id}`);
    for (const id of ['isrc', 'upc', 'mbid'] as const) if (o.facts[id]) keys.add(`reconcile:${o.kind}|${id}|${o.facts[id]}`);
    keys.add(`reconcile:${o.kind}|name|${foldName(o.facts.name)}`);
  }
  if (keys.size > MAX_KEYS) return { exclusive: [EVERY_KEY], shared: [] };
  return { exclusive: [...keys], shared: [EVERY_KEY] };
}
