import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { type AlbumToLink, albumsWithUnlinkedTracks, tracksToPlace } from '../../projectors/enrichment/album-tracks.reads.ts';
import { Conflict } from '../../shared/errors.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { catalogExternalId, trackObservation } from '../canonical/catalog-observations.ts';
import { matchAlbumTracks } from './album-track-matcher.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';

export const LINK_ALBUM_TRACKS_TASK = 'enrich.link-album-tracks';
/** Sources whose album tracklists can be read: the catalog's. */
export const TRACKLIST_SOURCES = ['catalog'] as const;

type Params = DrainParams & { source: (typeof TRACKLIST_SOURCES)[number]; title_fallback: boolean };

/**
 * Links the tracks of albums that have a source ref to that source's tracks, by (disc, track)
 * position when the album's track and disc counts match and the titles align; with
 * `title_fallback`, a skipped album's tracks whose title is unique on both sides are linked too
 * (`title_matched`). A source track another canonical track owns is left alone (`conflicts`).
 */
export function linkAlbumTracksTask(context: () => AppContext): TaskDefinition<Params> {
  return {
    name: LINK_ALBUM_TRACKS_TASK,
    resumable: true,
    async run(task) {
      const ctx = context();
      const catalog = catalogClient(ctx.config);
      const canonical = canonicalCommands(ctx, task.startedBy);
      const { source, title_fallback } = task.params;
      const tally = { position_matched: 0, title_matched: 0, conflicts: 0, albums_skipped: 0 };

      async function link(album: AlbumToLink): Promise<string> {
        const theirs = await catalog.albumTracks(album.external_id);
        const ours = await tracksToPlace(ctx.db, album.id, source);
        const match = matchAlbumTracks(
          ours.map((t) => ({ key: t.id, disc: t.disc, track: t.track_number, title: t.name ?? '' })),
          theirs.map((t) => ({ key: catalogExternalId(t.id), disc: t.disk_number ?? 1, track: t.track_position ?? null, title: t.title })),
          title_fallback,
        );
        if (match.outcome === 'skipped') tally.albums_skipped++;
        const unlinked = new Set(ours.filter((t) => !t.linked).map((t) => t.id));
        for (const pair of match.pairs.filter((p) => unlinked.has(p.canonical))) {
          const payload = theirs.find((t) => catalogExternalId(t.id) === pair.source)!;
          const ref = { source, external_id: pair.source };
          try {
            await canonical.link('track', pair.canonical, ref, { rule: 'existing_ref', value: `${source} album ${album.external_id} ${pair.by}` });
          } catch (error) {
            if (!(error instanceof Conflict)) throw error;
            tally.conflicts++;
            continue;
          }
          await canonical.observe('track', pair.canonical, ref, trackObservation(payload).facts);
          tally[pair.by === 'position' ? 'position_matched' : 'title_matched']++;
        }
        return match.outcome;
      }

      const summary = await runDrain<AlbumToLink>({
        ctx,
        task,
        name: LINK_ALBUM_TRACKS_TASK,
        scope: { source, title_fallback },
        batchCap: BATCH_CAP,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => albumsWithUnlinkedTracks(ctx.db, source, after, n),
        keyOf: (item) => item.id,
        errors: { source: 'album_tracks', entityOf: (item) => ({ kind: 'album', id: item.id }) },
        work: link,
      });
      return { ...summary, ...tally };
    },
  };
}
