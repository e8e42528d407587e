import { migrateTask } from '../../command/canonical/migrate.task.ts';
import { rebuildTask } from '../../command/canonical/rebuild.task.ts';
import { bulkImportTask } from '../../command/scrobbler/import-scrobbles.task.ts';
// The slices' tables of canonical ids, registered for the migrate task on import.
import '../../command/me/rekeyers.ts';
import '../../command/scrobbler/rekeyers.ts';
import { syncAllTask, syncLibraryTask } from '../../command/mediaserver/sync-library.task.ts';
import { syncAllPlaylistsTask, syncPlaylistsTask } from '../../command/mediaserver/sync-playlists.task.ts';
import { hydrateMbTask } from '../../command/enrichment/hydrate-mb.task.ts';
import { promoteScrobblerTask } from '../../command/enrichment/promote-scrobbler.task.ts';
import { mbRelationsTask } from '../../command/enrichment/mb-relations.task.ts';
import { mbCreditsTask } from '../../command/enrichment/mb-credits.task.ts';
import { enrichCatalogAlbumsTask } from '../../command/metabase/enrich-catalog-albums.task.ts';
import { linkIsrcsTask } from '../../command/metabase/link-isrcs.task.ts';
import { streamerSyncTask } from '../../command/streamer/sync.task.ts';
import { audioFeaturesTask } from '../../command/streamer/audio-features.task.ts';
import { audioFeaturesSchedule } from '../../command/streamer/audio-features.schedule.ts';
import type { Schedule } from './schedule.ts';
import { audioQualityTask } from '../../command/enrichment/audio-quality.task.ts';
import { tagsTask } from '../../command/enrichment/tags.task.ts';
import { artistReprojectTask } from '../../command/enrichment/artist-reproject.task.ts';
import { lyricsTask } from '../../command/enrichment/lyrics.task.ts';
import { featuresBackfillTask } from '../../command/enrichment/features-backfill.task.ts';
import { discoverCatalogTask } from '../../command/enrichment/discover-catalog.task.ts';
import { linkAlbumTracksTask } from '../../command/enrichment/link-album-tracks.task.ts';
import { discoverStoreTask } from '../../command/enrichment/discover-store.task.ts';
import { releasedbDiscoverTask, releasedbReprojectTask } from '../../command/enrichment/releasedb.tasks.ts';
import { discoveryAlbumsTask } from '../../command/radio/discovery-albums.task.ts';
import type { AppContext } from '../context.ts';
import type { RebuildReadModels } from '../projections/rebuild-port.ts';
import type { TaskDefinition } from './task.ts';

/** Every background task of the service. `context` is read when a task runs, after the service is built. */
export function taskDefinitions(deps: { rebuild: RebuildReadModels; context: () => AppContext }): TaskDefinition<any>[] {
  const { context } = deps;
  return [
    rebuildTask(deps.rebuild),
    migrateTask(context),
    bulkImportTask(context),
    syncLibraryTask(context),
    syncAllTask(context),
    syncPlaylistsTask(context),
    syncAllPlaylistsTask(context),
    hydrateMbTask(context),
    promoteScrobblerTask(context),
    mbRelationsTask(context),
    mbCreditsTask(context),
    enrichCatalogAlbumsTask(context),
    linkIsrcsTask(context),
    streamerSyncTask(context),
    audioFeaturesTask(context),
    audioQualityTask(context),
    tagsTask(context),
    artistReprojectTask(context),
    lyricsTask(context),
    discoverCatalogTask(context),
    linkAlbumTracksTask(context),
    discoverStoreTask(context),
    releasedbDiscoverTask(context),
    releasedbReprojectTask(context),
    discoveryAlbumsTask(context),
    featuresBackfillTask(context),
  ];
}

/** Tasks the worker starts on a timer. */
export const taskSchedules: Schedule[] = [
  audioFeaturesSchedule,
];
