import type { Projector } from '../infra/projections/projector.ts';
import { usersProjector } from './auth/users.projector.ts';
import { taskHistoryProjector } from './tasks/task-history.projector.ts';
import { canonicalDocsProjector } from './canonical/canonical-docs.projector.ts';
import { externalRefsProjector } from './canonical/external-refs.projector.ts';
import { scrobblesProjector } from './scrobbler/scrobbles.projector.ts';
import { mediaserverLinksProjector } from './mediaserver/links.projector.ts';
import { mediaserverLibraryProjector } from './mediaserver/library.projector.ts';
import { mediaserverPlaylistsProjector } from './mediaserver/playlists.projector.ts';
import { favoritesProjector } from './me/favorites.projector.ts';
import { albumCollectionProjector } from './me/album-collection.projector.ts';
import { commentsProjector } from './me/comments.projector.ts';
import { dashboardProjector } from './scrobbler/dashboard.projector.ts';
import { assistantConversationsProjector } from './assistant/conversations.projector.ts';
import { enrichmentErrorsProjector } from './enrichment/enrichment-errors.projector.ts';
import { monitorEventsProjector } from './monitor/monitor-events.projector.ts';
import { dbCountersProjector } from './admin/db-counters.projector.ts';
import { upstreamConnectionsProjector } from './admin/upstream-connections.projector.ts';
import { streamerLinksProjector } from './streamer/links.projector.ts';
import { streamerMirrorProjector } from './streamer/mirror.projector.ts';
import { radioSessionsProjector } from './radio/radio-sessions.projector.ts';
import { radioFeedbackProjector } from './radio/radio-feedback.projector.ts';
import { radioDiscoveriesProjector } from './radio/radio-discoveries.projector.ts';

/** Every read model of the service. */
export const projectors: Projector[] = [
  taskHistoryProjector,
  usersProjector,
  canonicalDocsProjector,
  externalRefsProjector,
  favoritesProjector,
  albumCollectionProjector,
  commentsProjector,
  scrobblesProjector,
  dashboardProjector,
  mediaserverLinksProjector,
  mediaserverLibraryProjector,
  mediaserverPlaylistsProjector,
  assistantConversationsProjector,
  enrichmentErrorsProjector,
  monitorEventsProjector,
  dbCountersProjector,
  upstreamConnectionsProjector,
  streamerLinksProjector,
  streamerMirrorProjector,
  radioSessionsProjector,
  radioFeedbackProjector,
  radioDiscoveriesProjector,
];

/**
 * What `POST /admin/canonical/rebuild` replays: the canonical read models. User data and the task
 * history are not touched (a rebuilt task history would hide the rebuild's own task while it runs).
 */
export const rebuildableReadModels: string[] = [canonicalDocsProjector.name, externalRefsProjector.name];
