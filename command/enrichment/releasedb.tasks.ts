import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { cacheRelease } from '../../infra/upstreams/releasedb/cache.ts';
import { releasedbClient } from '../../infra/upstreams/releasedb/client.ts';
import { type CatalogCandidate, undiscovered } from '../../projectors/enrichment/catalog-discovery.reads.ts';
import { type CachedRelease, unprojectedReleases } from '../../projectors/enrichment/releasedb.reads.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';

export const RELEASEDB_DISCOVER_TASK = 'enrich.releasedb-discover';
export const RELEASEDB_REPROJECT_TASK = 'enrich.releasedb-reproject';

/** A barcode as printed ("7 20642 51052 0") against a UPC: digits only, leading zeros aside. */
export const sameBarcode = (printed: string, upc: string) => printed.replace(/\D/g, '').replace(/^0+/, '') === upc.replace(/\D/g, '').replace(/^0+/, '');

/**
 * Albums with a UPC and no releasedb ref: a barcode search (about one request a second), and the
 * first release one of whose printed barcodes is exactly the UPC becomes the album's releasedb ref
 * (claim-guarded); its search row is cached for releasedb-reproject. No barcode match: an error row.
 */
export function releasedbDiscoverTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: RELEASEDB_DISCOVER_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const releasedb = releasedbClient(ctx.config);
      const canonical = canonicalCommands(ctx, task.startedBy);
      return runDrain<CatalogCandidate>({
        ctx,
        task,
        name: RELEASEDB_DISCOVER_TASK,
        scope: {},
        batchCap: BATCH_CAP,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => undiscovered(ctx.db, 'album', after, n, 'releasedb'),
        keyOf: (item) => item.id,
        errors: { source: 'releasedb_discover', entityOf: (item) => ({ kind: 'album', id: item.id }) },
        async work(item) {
          const rows = await releasedb.releasesByBarcode(item.code);
          const release = rows.find((r) => r.barcode.some((b) => sameBarcode(b, item.code)));
          if (!release) throw new UpstreamNotFound('releasedb', `no release has barcode ${item.code}`);
          await cacheRelease(ctx.db, release);
          await canonical.link('album', item.id, { source: 'releasedb', external_id: String(release.id) }, { rule: 'upc', value: item.code });
          return 'linked';
        },
      });
    },
  };
}

/** Styles, genres and labels from the cached release rows onto their albums (no network). */
export function releasedbReprojectTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: RELEASEDB_REPROJECT_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      return runDrain<CachedRelease>({
        ctx,
        task,
        name: RELEASEDB_REPROJECT_TASK,
        scope: {},
        batchCap: LIBRARY_BATCH_CAP,
        drainCap: LIBRARY_DRAIN_CAP,
        backlog: (after, n) => unprojectedReleases(ctx.db, after, n),
        keyOf: (item) => item.key,
        errors: { source: 'releasedb_reproject', entityOf: (item) => ({ kind: 'album', id: item.id }) },
        async work(item) {
          const unique = (xs: string[] | undefined) => [...new Set(xs ?? [])];
          const facts = { styles: unique(item.payload.style), genres: unique(item.payload.genre), labels: unique(item.payload.label) };
          const appended = await enrich.enrich('album', item.id, 'releasedb', { source: 'releasedb', external_id: item.release_id }, facts);
          return appended ? 'reprojected' : 'unchanged';
        },
      });
    },
  };
}
