/**
 * Stream names, one builder per category. Categories are real prefixes (`<category>-<id>`) so that
 * category filters and subscriptions work on every engine.
 */
export const taskStream = (taskId: string) => `task-${taskId}`;
export const userStream = (username: string) => `user-${username}`;
export const artistStream = (id: string) => `artist-${id}`;
export const albumStream = (id: string) => `album-${id}`;
export const trackStream = (id: string) => `track-${id}`;
/** One claim stream per external ref: the ref's owner, unique under concurrency. */
export const refClaimStream = (kind: string, source: string, externalIdHash: string) => `refclaim-${kind}.${source}.${externalIdHash}`;
export const entityStream = (kind: 'artist' | 'album' | 'track', id: string) => `${kind}-${id}`;
/** One stream per (user, favorite): adding one never reads the user's whole list. */
export const favoriteStream = (userKey: string, kind: string, canonicalId: string) => `favorite-${userKey}.${kind}.${canonicalId}`;
export const albumCollectionStream = (userKey: string, albumId: string) => `albumcollection-${userKey}.${albumId}`;
export const commentStream = (commentId: string) => `comment-${commentId}`;
/** A user's media server link and PIN flow. */
export const mediaserverLinkStream = (userKey: string) => `mediaserverlink-${userKey}`;
/** What a media server showed of itself (identity, sections), and what one of its sections holds. */
export const mediaserverServerStream = (serverId: string) => `mediaserverserver-${serverId}`;
export const mediaserverSectionStream = (serverId: string, sectionId: string) => `mediaserversection-${serverId}.${sectionId}`;
/** A user's playlists on the media server, as last fetched with their token. */
export const mediaserverPlaylistsStream = (userKey: string) => `mediaserverplaylists-${userKey}`;
export const scrobblesStream = (userKey: string) => `scrobbles-${userKey}`;
/** One admin assistant conversation, written by the admin who asked. */
export const assistantConversationStream = (conversationId: string) => `assistantconversation-${conversationId}`;
/** Admin clears of the enrichment error rows (the rows themselves follow the entities' streams). */
export const enrichmentErrorsStream = () => 'enrichmenterrors-all';
/** One delivery of the monitor intake: named from the sender's delivery id when there is one (a repeat finds it taken). */
export const monitorEventStream = (monitorEventId: string) => `monitorevent-${monitorEventId}`;
/** A user's streamer link (identity and the credential holding its tokens). */
export const streamerLinkStream = (userKey: string) => `streamerlink-${userKey}`;
/** What syncs mirrored of the user's streamer account, as changes since the mirror's last state. */
export const streamerMirrorStream = (userKey: string) => `streamermirror-${userKey}`;
/** One radio session: its seed, pool, picks, outcomes and thumbs. */
export const radioStream = (sessionId: string) => `radio-${sessionId}`;
/** Which of a user's radio sessions is the active one: the order of their starts and resumes. */
export const radioListenerStream = (userKey: string) => `radiolistener-${userKey}`;
/** One discovery of one user's (a track the radio wanted and could not play): dismissal, album found. */
export const radioDiscoveryStream = (discoveryId: string) => `radiodiscovery-${discoveryId}`;

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
