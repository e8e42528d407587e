import type { EventsTable, StreamsTable } from '../eventstore/postgres/event-tables.ts';
import type { ProjectionCheckpointsTable } from '../projections/checkpoints.ts';
import type { CredentialsTable } from '../credentials/credential-store.ts';
import type { TaskHistoryTable } from '../../projectors/tasks/task-history.table.ts';
import type { UsersTable } from '../../projectors/auth/users.table.ts';
import type { MediaserverPlaylistItemsTable, MediaserverPlaylistsTable, ReactorCheckpointsTable } from '../../projectors/mediaserver/playlists.table.ts';
import type { MediaserverLinksTable } from '../../projectors/mediaserver/links.table.ts';
import type { MediaserverItemsTable, MediaserverSectionsTable, MediaserverServersTable } from '../../projectors/mediaserver/library.table.ts';
import type { CanonicalDocsTable, ExternalRefsTable } from '../../projectors/canonical/canonical-docs.table.ts';
import type { CatalogCacheTable } from '../upstreams/catalog/cache.ts';
import type { FavoritesTable } from '../../projectors/me/favorites.table.ts';
import type { AlbumCollectionTable } from '../../projectors/me/album-collection.table.ts';
import type { CommentsTable } from '../../projectors/me/comments.table.ts';

/** Every table of the database, for kysely's typing. */
export interface Database {
  events: EventsTable;
  streams: StreamsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  credentials: CredentialsTable;
  task_history: TaskHistoryTable;
  users: UsersTable;
  canonical_docs: CanonicalDocsTable;
  external_refs: ExternalRefsTable;
  catalog_cache: CatalogCacheTable;
  favorites: FavoritesTable;
  album_collection: AlbumCollectionTable;
  comments: CommentsTable;
  mediaserver_links: MediaserverLinksTable;
  mediaserver_servers: MediaserverServersTable;
  mediaserver_sections: MediaserverSectionsTable;
  mediaserver_items: MediaserverItemsTable;
  mediaserver_playlists: MediaserverPlaylistsTable;
  mediaserver_playlist_items: MediaserverPlaylistItemsTable;
  reactor_checkpoints: ReactorCheckpointsTable;
}
