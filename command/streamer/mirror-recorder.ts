import type { AppContext } from '../../infra/context.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import type { EventMetadata } from '../../infra/eventstore/event-store.ts';
import type { StreamerMirrorEvent } from '../../shared/events/streamer.events.ts';
import { streamerMirrorStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Data<T extends StreamerMirrorEvent['type']> = Omit<Extract<StreamerMirrorEvent, { type: T }>['data'], 'username' | 'account_id' | 'at'>;

/** Rows per event: a page of the API is 50 or 100, a playlist may hold thousands. */
const ROWS_PER_EVENT = 500;

/**
 * Appends what a sync found changed in the account. The mirror stream records observations, not
 * decisions: appends go at any revision. Nothing is appended for an empty change.
 */
export function mirrorRecorder(ctx: AppContext, username: string, accountId: string, metadata: EventMetadata) {
  const stream = streamerMirrorStream(usernameKey(username));
  const owner = () => ({ username, account_id: accountId, at: new Date().toISOString() });

  async function append(events: StreamerMirrorEvent[]): Promise<void> {
    if (events.length > 0) await ctx.store.append(stream, events.map((e) => toNewEvent(e, metadata)), 'any');
  }

  /** One event per chunk of rows; none for no rows. */
  function chunks<T>(rows: T[], event: (chunk: T[]) => StreamerMirrorEvent): StreamerMirrorEvent[] {
    const events: StreamerMirrorEvent[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_EVENT) events.push(event(rows.slice(i, i + ROWS_PER_EVENT)));
    return events;
  }

  return {
    tracksSaved: (tracks: Data<'StreamerTracksSaved'>['tracks']) => append(chunks(tracks, (c) => ({ type: 'StreamerTracksSaved', data: { ...owner(), tracks: c } }))),
    tracksUnsaved: (ids: string[]) => append(chunks(ids, (c) => ({ type: 'StreamerTracksUnsaved', data: { ...owner(), track_ids: c } }))),
    albumsSaved: (albums: Data<'StreamerAlbumsSaved'>['albums']) => append(chunks(albums, (c) => ({ type: 'StreamerAlbumsSaved', data: { ...owner(), albums: c } }))),
    albumsUnsaved: (ids: string[]) => append(chunks(ids, (c) => ({ type: 'StreamerAlbumsUnsaved', data: { ...owner(), album_ids: c } }))),
    artistsFollowed: (artists: Data<'StreamerArtistsFollowed'>['artists']) => append(chunks(artists, (c) => ({ type: 'StreamerArtistsFollowed', data: { ...owner(), artists: c } }))),
    artistsUnfollowed: (ids: string[]) => append(chunks(ids, (c) => ({ type: 'StreamerArtistsUnfollowed', data: { ...owner(), artist_ids: c } }))),
    /** A playlist's items go in one event: the projector replaces the playlist's rows with them. */
    playlistMirrored: (data: Data<'StreamerPlaylistMirrored'>) => append([{ type: 'StreamerPlaylistMirrored', data: { ...owner(), ...data } }]),
    playlistsDropped: (ids: string[]) => append(chunks(ids, (c) => ({ type: 'StreamerPlaylistsDropped', data: { ...owner(), playlist_ids: c } }))),
    playsRecorded: (plays: Data<'StreamerPlaysRecorded'>['plays']) => append(chunks(plays, (c) => ({ type: 'StreamerPlaysRecorded', data: { ...owner(), plays: c } }))),
  };
}

export type MirrorRecorder = ReturnType<typeof mirrorRecorder>;
