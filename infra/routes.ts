import { authRoutes } from '../command/auth/auth.routes.ts';
import { userAdminRoutes } from '../command/auth/users.routes.ts';
import { userQueryRoutes } from '../query/auth/users.routes.ts';
import { canonicalRoutes } from '../query/canonical/canonical.routes.ts';
import { resolveRoutes } from '../query/canonical/resolve.routes.ts';
import { refsRoutes } from '../command/canonical/refs.routes.ts';
import { mergeRoutes } from '../command/canonical/merge.routes.ts';
import { rebuildRoutes } from '../command/canonical/rebuild.routes.ts';
import { migrateRoutes } from '../command/canonical/migrate.routes.ts';
import { cancelTaskRoutes } from '../command/tasks/cancel.routes.ts';
import { maintenanceRoutes } from '../query/canonical/maintenance.routes.ts';
import { libraryRoutes } from '../query/library/library.routes.ts';
import { taskHistoryRoutes } from '../query/tasks/task-history.routes.ts';
import { meQueryRoutes } from '../query/me/favorites.routes.ts';
import { meWriteRoutes } from '../command/me/me.routes.ts';
import { commentQueryRoutes } from '../query/me/comments.routes.ts';
import { commentWriteRoutes } from '../command/me/comments.routes.ts';
import { linkRoutes as scrobblerLinkRoutes } from '../command/scrobbler/link.routes.ts';
import { mirrorRoutes } from '../command/scrobbler/mirror.routes.ts';
import { canonicalLinkRoutes } from '../command/scrobbler/canonical-link.routes.ts';
import { scrobblesQueryRoutes } from '../query/scrobbler/scrobbles.routes.ts';
import { invalidScrobblesRoutes } from '../query/admin/invalid-scrobbles.routes.ts';
import { adminScrobblesRoutes } from '../command/admin/scrobbles.routes.ts';
import { proxyCatalogRoutes } from '../query/scrobbler/proxy-catalog.routes.ts';
import { proxyChartsRoutes } from '../query/scrobbler/proxy-charts.routes.ts';
import { userProxyRoutes } from '../query/scrobbler/proxy-users.routes.ts';
import { meProxyRoutes } from '../query/scrobbler/proxy-me.routes.ts';
import { proxyStatsRoutes } from '../query/scrobbler/proxy-stats.routes.ts';
import { pickerRoutes } from '../query/scrobbler/picker.routes.ts';
import { liveWriteRoutes } from '../command/scrobbler/live-writes.routes.ts';
import { personalByNameRoutes } from '../command/scrobbler/personal-by-name.routes.ts';
import { personalByNameQueryRoutes } from '../query/scrobbler/personal-by-name.routes.ts';
import { dashboardRoutes } from '../query/scrobbler/dashboard.routes.ts';
import { discoverRoutes } from '../query/scrobbler/discover.routes.ts';
import { statsRoutes } from '../query/me/stats.routes.ts';
import { linkCommandRoutes } from '../command/mediaserver/link.routes.ts';
import { linkQueryRoutes } from '../query/mediaserver/link.routes.ts';
import { libraryCommandRoutes } from '../command/mediaserver/library.routes.ts';
import { libraryQueryRoutes } from '../query/mediaserver/library.routes.ts';
import { homeUserRoutes } from '../command/mediaserver/home-users.routes.ts';
import { playQueryRoutes } from '../query/mediaserver/play.routes.ts';
import { timelineRoutes } from '../command/mediaserver/timeline.routes.ts';
import { playlistQueryRoutes } from '../query/mediaserver/playlists.routes.ts';
import { playlistCommandRoutes } from '../command/mediaserver/playlists.routes.ts';
import { favoritesPlaylistRoutes } from '../command/mediaserver/favorites-playlist.routes.ts';
import { operationsRoutes } from '../query/operations/operations.routes.ts';
import { askCommandRoutes } from '../command/assistant/ask.routes.ts';
import { playlistCreateRoutes } from '../command/assistant/playlist.routes.ts';
import { conversationQueryRoutes } from '../query/assistant/conversations.routes.ts';
import { libraryAskRoutes } from '../query/assistant/library-ask.routes.ts';
import { seedFromTextRoutes } from '../query/assistant/seed-from-text.routes.ts';
import { metabaseProxyRoutes } from '../query/metabase/proxy.routes.ts';
import { enrichRoutes } from '../command/enrichment/enrich.routes.ts';
import { enrichmentCoverageRoutes } from '../query/enrichment/coverage.routes.ts';
import { libraryDrainRoutes } from '../command/enrichment/library-drains.routes.ts';
import { libraryCoverageRoutes } from '../query/enrichment/library-coverage.routes.ts';
import { lyricsDrainRoutes } from '../command/enrichment/lyrics.routes.ts';
import { lyricsQueryRoutes } from '../query/enrichment/lyrics.routes.ts';
import { featuresBackfillRoutes } from '../command/enrichment/features.routes.ts';
import { featuresQueryRoutes } from '../query/enrichment/features.routes.ts';
import { catalogDrainRoutes } from '../command/enrichment/catalog-drains.routes.ts';
import { catalogCoverageRoutes } from '../query/enrichment/catalog-coverage.routes.ts';
import { metabaseAdminCommandRoutes } from '../command/metabase/admin.routes.ts';
import { metabaseAdminQueryRoutes } from '../query/metabase/admin.routes.ts';
import { artistPageRoutes } from '../query/canonical/artist-pages.routes.ts';
import { monitorWebhookRoutes } from '../command/monitor/webhooks.routes.ts';
import { monitorRoutes } from '../query/admin/monitor.routes.ts';
import { dbStatsRoutes } from '../query/admin/db-stats.routes.ts';
import { streamerLinkRoutes } from '../command/streamer/link.routes.ts';
import { streamerLinkQueryRoutes } from '../query/streamer/link.routes.ts';
import { streamerSyncRoutes } from '../command/streamer/sync.routes.ts';
import { streamerPlaylistRoutes } from '../query/streamer/playlists.routes.ts';
import { streamerImportFavoritesRoutes } from '../command/streamer/import-favorites.routes.ts';
import { audioFeaturesCronRoutes } from '../query/streamer/audio-features-cron.routes.ts';
import { auditRoutes } from '../query/admin/audit.routes.ts';
import type { Route } from './http/define-route.ts';
import { radioCommandRoutes } from '../command/radio/radio.routes.ts';
import { radioQueryRoutes } from '../query/radio/radio.routes.ts';
import { discoveryCommandRoutes } from '../command/radio/discoveries.routes.ts';
import { discoveryQueryRoutes } from '../query/radio/discoveries.routes.ts';
import { discoveryAlbumsCommandRoutes } from '../command/radio/discovery-albums.routes.ts';
import { discoveryAlbumsQueryRoutes } from '../query/radio/discovery-albums.routes.ts';

/** Every route of the service, in match order (fixed paths before `{param}` ones of the same prefix). */
export const routes: Route[] = [
  ...operationsRoutes,
  ...authRoutes,
  ...userQueryRoutes,
  ...userAdminRoutes,
  ...taskHistoryRoutes,
  ...refsRoutes,
  ...resolveRoutes,
  ...canonicalRoutes,
  ...mergeRoutes,
  ...cancelTaskRoutes,
  ...rebuildRoutes,
  ...meQueryRoutes,
  ...meWriteRoutes,
  ...commentQueryRoutes,
  ...commentWriteRoutes,
  ...scrobblerLinkRoutes,
  ...scrobblesQueryRoutes,
  ...mirrorRoutes,
  ...canonicalLinkRoutes,
  ...invalidScrobblesRoutes,
  ...adminScrobblesRoutes,
  ...personalByNameQueryRoutes,
  ...personalByNameRoutes,
  ...proxyCatalogRoutes,
  ...proxyChartsRoutes,
  ...userProxyRoutes,
  ...meProxyRoutes,
  ...proxyStatsRoutes,
  ...pickerRoutes,
  ...liveWriteRoutes,
  ...migrateRoutes,
  ...libraryRoutes,
  ...maintenanceRoutes,
  ...dashboardRoutes,
  ...discoverRoutes,
  ...statsRoutes,
  ...linkQueryRoutes,
  ...linkCommandRoutes,
  ...libraryCommandRoutes,
  ...libraryQueryRoutes,
  ...homeUserRoutes,
  ...playQueryRoutes,
  ...timelineRoutes,
  ...playlistCommandRoutes,
  ...playlistQueryRoutes,
  ...favoritesPlaylistRoutes,
  ...askCommandRoutes,
  ...conversationQueryRoutes,
  ...libraryAskRoutes,
  ...playlistCreateRoutes,
  ...seedFromTextRoutes,
  ...metabaseProxyRoutes,
  ...enrichRoutes,
  ...enrichmentCoverageRoutes,
  ...metabaseAdminCommandRoutes,
  ...metabaseAdminQueryRoutes,
  ...artistPageRoutes,
  ...monitorWebhookRoutes,
  ...monitorRoutes,
  ...dbStatsRoutes,
  ...streamerLinkQueryRoutes,
  ...streamerLinkRoutes,
  ...streamerSyncRoutes,
  ...streamerPlaylistRoutes,
  ...streamerImportFavoritesRoutes,
  ...audioFeaturesCronRoutes,
  ...libraryDrainRoutes,
  ...libraryCoverageRoutes,
  ...lyricsDrainRoutes,
  ...lyricsQueryRoutes,
  ...catalogDrainRoutes,
  ...catalogCoverageRoutes,
  ...auditRoutes,
  ...radioQueryRoutes,
  ...radioCommandRoutes,
  ...discoveryQueryRoutes,
  ...discoveryCommandRoutes,
  ...discoveryAlbumsQueryRoutes,
  ...discoveryAlbumsCommandRoutes,
  ...featuresBackfillRoutes,
  ...featuresQueryRoutes,
];
