import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { ReleasePayload } from '../../infra/upstreams/metabase/schemas.ts';
import { albumTracks } from '../../projectors/canonical/canonical-docs.reads.ts';
import { type CodeItem, unlinkedByCode } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { RefOwned } from '../canonical/ref-claim.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { type DrainParams, runDrain } from '../enrichment/drain.ts';
import { enrichmentCommands } from '../enrichment/enrichment-commands.ts';
import { METABASE_DRAIN_CAP } from '../enrichment/metabase-drains.ts';
import { releaseFacts } from '../enrichment/metabase-facts.ts';
import { matchTracks } from './track-positions.ts';

export const ENRICH_CATALOG_ALBUMS_TASK = 'metabase.enrich-catalog-albums';
/** Albums one run works: a barcode search and a release lookup each, about two minutes at one request a second. */
export const CATALOG_ALBUM_BATCH = 50;

/**
 * One batch of albums with a UPC and no metabase ref: the release carrying the barcode (an official
 * one first), then metabase refs on the album (the release, and its release group unless another
 * album of the library holds it: two editions) and on its tracks by (disc, position). A barcode no
 * release carries, or a ref another entity owns, is an `mb_barcode` error row.
 */
export function enrichCatalogAlbumsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: ENRICH_CATALOG_ALBUMS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const mb = metabase(ctx);
      const canonical = canonicalCommands(ctx, task.startedBy);
      const enrichment = enrichmentCommands(ctx, task.startedBy);
      const evidence = (upc: string) => ({ rule: 'upc' as const, value: upc });

      async function linkTracks(album: CodeItem, release: ReleasePayload): Promise<number> {
        let linked = 0;
        for (const { trackId, recording } of matchTracks(await albumTracks(ctx.db, album.id), release)) {
          try {
            await canonical.link('track', trackId, { source: 'metabase', external_id: recording }, evidence(album.code));
            linked++;
          } catch (error) {
            if (!(error instanceof RefOwned)) throw error;
            await enrichment.failed('track', trackId, 'mb_barcode', error);
          }
        }
        return linked;
      }

      return runDrain<CodeItem>({
        ctx,
        task,
        name: ENRICH_CATALOG_ALBUMS_TASK,
        scope: {},
        batchCap: CATALOG_ALBUM_BATCH,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => unlinkedByCode(ctx.db, 'upc', after, n),
        keyOf: (item) => item.key,
        errors: { source: 'mb_barcode', entityOf: (item) => ({ kind: 'album', id: item.id }) },
        async work(album) {
          const { releases } = await mb.releasesByBarcode(album.code);
          const chosen = releases.find((r) => r.status === 'Official') ?? releases[0];
          if (!chosen) throw new UpstreamNotFound('metabase', `no release carries barcode ${album.code}`);
          const release = ReleasePayload.parse(await mb.lookup('release', String(chosen.id)));
          await canonical.link('album', album.id, { source: 'metabase', external_id: release.id }, evidence(album.code));
          const group = release['release-group'];
          let shared = false;
          if (group) {
            try {
              await canonical.link('album', album.id, { source: 'metabase', external_id: group.id }, evidence(album.code));
            } catch (error) {
              if (!(error instanceof RefOwned)) throw error;
              shared = true;
            }
          }
          await enrichment.enrich('album', album.id, 'metabase', { source: 'metabase', external_id: release.id }, releaseFacts(release));
          const tracks = await linkTracks(album, release);
          return shared ? 'linked_edition' : tracks > 0 ? 'linked_with_tracks' : 'linked';
        },
      });
    },
  };
}
