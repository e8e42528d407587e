import type { EventsTable, StreamsTable } from '../eventstore/postgres/event-tables.ts';
import type { ProjectionCheckpointsTable } from '../projections/checkpoints.table.ts';
import type { CredentialsTable } from '../credentials/credentials.table.ts';
import type { CallbackStatesUsedTable } from '../auth/callback-state.table.ts';
import type { TaskHistoryTable } from '../../projectors/tasks/task-history.table.ts';
import type { UsersTable } from '../../projectors/auth/users.table.ts';
import type { MediaserverPlaylistItemsTable, MediaserverPlaylistsTable } from '../../projectors/mediaserver/playlists.table.ts';
import type { ReactorCheckpointsTable } from '../reactors/reactor-checkpoints.table.ts';
import type { ScrobbleMirrorTable, ScrobblesTable } from '../../projectors/scrobbler/scrobbles.table.ts';
import type { ScrobblerCacheTable } from '../upstreams/scrobbler/proxy-cache.table.ts';
import type { MediaserverLinksTable } from '../../projectors/mediaserver/links.table.ts';
import type { MediaserverItemsTable, MediaserverSectionsTable, MediaserverServersTable } from '../../projectors/mediaserver/library.table.ts';
import type { CanonicalDocsTable, ExternalRefsTable } from '../../projectors/canonical/canonical-docs.table.ts';
import type { CatalogCacheTable } from '../upstreams/catalog/cache.table.ts';
import type { FavoritesTable } from '../../projectors/me/favorites.table.ts';
import type { AlbumCollectionTable } from '../../projectors/me/album-collection.table.ts';
import type { CommentsTable } from '../../projectors/me/comments.table.ts';
import type * as Dashboard from '../../projectors/scrobbler/dashboard.table.ts';
import type { AssistantConversationsTable, AssistantTurnsTable } from '../../projectors/assistant/conversations.table.ts';
import type { EnrichmentErrorsTable } from '../../projectors/enrichment/enrichment-errors.table.ts';
import type { MetabaseCacheTable } from '../upstreams/metabase/cache.table.ts';
import type { ReleasedbCacheTable } from '../upstreams/releasedb/cache.table.ts';
import type { MonitorEventValuesTable, MonitorEventsTable } from '../../projectors/monitor/monitor-events.table.ts';
import type { CountedThroughTable, EventCountsTable, RefCountsTable } from '../../projectors/admin/db-counters.table.ts';
import type { UpstreamConnectionsTable } from '../../projectors/admin/upstream-connections.table.ts';

/**
 * Every table of the database, for kysely's typing. This is the one place of infra/ that sees the
 * read models' table types (`projectors/<slice>/*.table.ts`, type-only, nothing else of them).
 */
export interface Database {
  events: EventsTable;
  streams: StreamsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  credentials: CredentialsTable;
  callback_states_used: CallbackStatesUsedTable;
  task_history: TaskHistoryTable;
  users: UsersTable;
  canonical_docs: CanonicalDocsTable;
  external_refs: ExternalRefsTable;
  catalog_cache: CatalogCacheTable;
  favorites: FavoritesTable;
  album_collection: AlbumCollectionTable;
  comments: CommentsTable;
  scrobbles: ScrobblesTable;
  scrobble_mirror: ScrobbleMirrorTable;
  scrobbler_cache: ScrobblerCacheTable;
  dashboard_scrobbles: Dashboard.DashboardScrobblesTable;
  dashboard_invalid: Dashboard.DashboardInvalidTable;
  dashboard_totals: Dashboard.DashboardTotalsTable;
  dashboard_days: Dashboard.DashboardDaysTable;
  dashboard_hours: Dashboard.DashboardHoursTable;
  dashboard_heatmap: Dashboard.DashboardHeatmapTable;
  dashboard_entity_days: Dashboard.DashboardEntityDaysTable;
  dashboard_entity_months: Dashboard.DashboardEntityMonthsTable;
  dashboard_entities: Dashboard.DashboardEntitiesTable;
  dashboard_streaks: Dashboard.DashboardStreaksTable;
  dashboard_redirects: Dashboard.DashboardRedirectsTable;
  mediaserver_links: MediaserverLinksTable;
  mediaserver_servers: MediaserverServersTable;
  mediaserver_sections: MediaserverSectionsTable;
  mediaserver_items: MediaserverItemsTable;
  mediaserver_playlists: MediaserverPlaylistsTable;
  mediaserver_playlist_items: MediaserverPlaylistItemsTable;
  reactor_checkpoints: ReactorCheckpointsTable;
  assistant_conversations: AssistantConversationsTable;
  assistant_turns: AssistantTurnsTable;
  enrichment_errors: EnrichmentErrorsTable;
  metabase_cache: MetabaseCacheTable;
  releasedb_cache: ReleasedbCacheTable;
  monitor_events: MonitorEventsTable;
  monitor_event_values: MonitorEventValuesTable;
  event_counts: EventCountsTable;
  ref_counts: RefCountsTable;
  counted_through: CountedThroughTable;
  upstream_connections: UpstreamConnectionsTable;
}
