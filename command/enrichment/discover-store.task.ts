import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { storeClient } from '../../infra/upstreams/store/client.ts';
import { type CatalogCandidate, undiscovered } from '../../projectors/enrichment/catalog-discovery.reads.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { BATCH_CAP } from './metabase-drains.ts';
import { storeAlbumFacts, storeTrackFacts } from './store-facts.ts';

export const DISCOVER_STORE_TASK = 'enrich.discover-store';
export const STORE_KINDS = ['album', 'track'] as const;
/** At 20 requests a minute, a `drain=true` run of this size takes about four hours. */
export const STORE_DRAIN_CAP = 5000;

/**
 * Links albums by UPC and tracks by ISRC to the store (one paced look-up each: about 3 s apart,
 * 20 a minute, for the whole process), and observes the store's facts. Never by name; the ref's
 * claim guards it; a code the store does not know is a `store_discover` error row.
 */
export function discoverStoreTask(context: () => AppContext): TaskDefinition<DrainParams & { kind: (typeof STORE_KINDS)[number] }> {
  return {
    name: DISCOVER_STORE_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const store = storeClient(ctx.config);
      const canonical = canonicalCommands(ctx, task.startedBy);
      const { kind } = task.params;
      return runDrain<CatalogCandidate>({
        ctx,
        task,
        name: DISCOVER_STORE_TASK,
        scope: { kind },
        batchCap: BATCH_CAP,
        drainCap: STORE_DRAIN_CAP,
        backlog: (after, n) => undiscovered(ctx.db, kind, after, n, 'store'),
        keyOf: (item) => item.id,
        errors: { source: 'store_discover', entityOf: (item) => ({ kind, id: item.id }) },
        async work(item) {
          const row = kind === 'album' ? await store.albumByUpc(item.code) : await store.trackByIsrc(item.code);
          const storeId = kind === 'album' ? row?.collectionId : row?.trackId;
          if (!row || storeId === undefined) throw new UpstreamNotFound('store', `no ${kind} has ${kind === 'album' ? 'UPC' : 'ISRC'} ${item.code}`);
          const ref = { source: 'store' as const, external_id: String(storeId) };
          await canonical.link(kind, item.id, ref, { rule: kind === 'album' ? 'upc' : 'isrc', value: item.code });
          await canonical.observe(kind, item.id, ref, kind === 'album' ? storeAlbumFacts(row) : storeTrackFacts(row));
          return 'linked';
        },
      });
    },
  };
}
