import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { type CatalogCandidate, undiscovered } from '../../projectors/enrichment/catalog-discovery.reads.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { albumObservation, catalogExternalId, trackObservation } from '../canonical/catalog-observations.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';

export const DISCOVER_CATALOG_TASK = 'enrich.discover-catalog';

/** Codes compare without the leading zeros a GTIN-13 adds to a UPC-A, and without case. */
export const sameCode = (a: string | undefined, b: string) => (a ?? '').replace(/^0+/, '').toUpperCase() === b.replace(/^0+/, '').toUpperCase();

/** The catalog answered an entity whose code is not the one asked for: never linked. */
export class CodeMismatch extends Error {}

/**
 * Links canonical entities to the catalog by exact identifier only: a track by its ISRC
 * (`/track/isrc:…`), an album by its UPC (`/album/upc:…`), an artist through the catalog artist of
 * one of its catalog-linked albums or tracks. Never by name. The ref's claim guards it: a catalog
 * id another entity owns is an error row (`catalog_discover`), as is a code the catalog does not know.
 */
export function discoverCatalogTask(context: () => AppContext): TaskDefinition<DrainParams & { kind: Kind }> {
  return {
    name: DISCOVER_CATALOG_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const catalog = catalogClient(ctx.config);
      const canonical = canonicalCommands(ctx, task.startedBy);
      const { kind } = task.params;

      async function discover(item: CatalogCandidate): Promise<string> {
        if (kind === 'track') {
          const track = await catalog.trackByIsrc(item.code);
          if (!sameCode(track.isrc, item.code)) throw new CodeMismatch(`the catalog answered ISRC ${track.isrc ?? 'none'} for ${item.code}`);
          const ref = { source: 'catalog' as const, external_id: catalogExternalId(track.id) };
          await canonical.link('track', item.id, ref, { rule: 'isrc', value: item.code });
          await canonical.observe('track', item.id, ref, trackObservation(track).facts);
          return 'linked';
        }
        if (kind === 'album') {
          const album = await catalog.albumByUpc(item.code);
          if (!sameCode(album.upc, item.code)) throw new CodeMismatch(`the catalog answered UPC ${album.upc ?? 'none'} for ${item.code}`);
          const ref = { source: 'catalog' as const, external_id: catalogExternalId(album.id) };
          await canonical.link('album', item.id, ref, { rule: 'upc', value: item.code });
          await canonical.observe('album', item.id, ref, albumObservation(album, album.artist).facts);
          return 'linked';
        }
        const sibling = item.via === 'album' ? await catalog.album(item.code) : await catalog.track(item.code);
        if (!sibling.artist) throw new UpstreamNotFound('catalog', `${item.via} ${item.code} names no artist`);
        const ref = { source: 'catalog' as const, external_id: catalogExternalId(sibling.artist.id) };
        await canonical.link('artist', item.id, ref, { rule: 'existing_ref', value: `catalog ${item.via} ${item.code}` });
        return 'linked';
      }

      return runDrain<CatalogCandidate>({
        ctx,
        task,
        name: DISCOVER_CATALOG_TASK,
        scope: { kind },
        batchCap: BATCH_CAP,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => undiscovered(ctx.db, kind, after, n),
        keyOf: (item) => item.id,
        errors: { source: 'catalog_discover', entityOf: (item) => ({ kind, id: item.id }) },
        work: discover,
      });
    },
  };
}
