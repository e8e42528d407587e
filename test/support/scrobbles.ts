import type { Scrobble } from '../../shared/events/scrobbles.events.ts';
import { hashedId } from '../../shared/ids.ts';
import { scrobblesStream, userStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { TestApp } from './api.ts';

/**
 * The scrobbler link and the import are another slice's commands: these helpers append the events
 * they produce, so dashboard tests do not depend on the upstream.
 */
export const DAY = 86_400;
export const nowUts = () => Math.floor(Date.now() / 1000);

export interface Play {
  uts: number;
  artist: string;
  track: string;
  album?: string | null;
  artistId?: string | null;
  albumId?: string | null;
  trackId?: string | null;
}

export function scrobble(username: string, p: Play): Scrobble {
  return {
    scrobble_id: hashedId(usernameKey(username), p.uts, p.artist, p.track),
    uts: p.uts,
    artist: p.artist,
    album: p.album ?? null,
    track: p.track,
    artist_mbid: null,
    album_mbid: null,
    track_mbid: null,
    canonical_artist_id: p.artistId ?? null,
    canonical_album_id: p.albumId ?? null,
    canonical_track_id: p.trackId ?? null,
  };
}

export async function givenScrobblerLink(app: TestApp, username: string, scrobblerUsername: string): Promise<void> {
  const at = new Date().toISOString();
  const result = await app.ctx.store.append(
    userStream(usernameKey(username)),
    [{ type: 'ScrobblerLinked', data: { username, scrobbler_username: scrobblerUsername, credential_id: `test-${username}`, at } }],
    'any',
  );
  await app.ctx.readModels.catchUp(result.position);
}

export async function givenScrobblerUnlinked(app: TestApp, username: string): Promise<void> {
  const result = await app.ctx.store.append(userStream(usernameKey(username)), [{ type: 'ScrobblerUnlinked', data: { username, at: new Date().toISOString() } }], 'any');
  await app.ctx.readModels.catchUp(result.position);
}

/** One ScrobblesImported page per 200 plays, as the importer writes them; returns the scrobbles. */
export async function givenScrobbles(app: TestApp, username: string, plays: Play[], scrobblerUsername = username): Promise<Scrobble[]> {
  const scrobbles = plays.map((p) => scrobble(username, p));
  const at = new Date().toISOString();
  const events = [];
  for (let i = 0; i < Math.max(1, scrobbles.length); i += 200) {
    const data = { username, scrobbler_username: scrobblerUsername, task_id: null, page: null, total_pages: null, scrobbles: scrobbles.slice(i, i + 200), at };
    events.push({ type: 'ScrobblesImported', data });
  }
  const result = await app.ctx.store.append(scrobblesStream(usernameKey(username)), events, 'any');
  await app.ctx.readModels.catchUp(result.position);
  return scrobbles;
}

export async function givenScrobblesDeleted(app: TestApp, username: string, scrobbleIds: string[]): Promise<void> {
  const data = { username, scrobble_ids: scrobbleIds, reason: 'admin_delete' as const, deleted_by: 'admin', at: new Date().toISOString() };
  const result = await app.ctx.store.append(scrobblesStream(usernameKey(username)), [{ type: 'ScrobblesDeleted', data }], 'any');
  await app.ctx.readModels.catchUp(result.position);
}

export async function givenCanonicalLink(
  app: TestApp,
  username: string,
  scrobbleId: string,
  ids: { artist: string | null; album: string | null; track: string | null },
): Promise<void> {
  const data = {
    username,
    scrobble_id: scrobbleId,
    canonical_artist_id: ids.artist,
    canonical_album_id: ids.album,
    canonical_track_id: ids.track,
    linked_by: username,
    at: new Date().toISOString(),
  };
  const result = await app.ctx.store.append(scrobblesStream(usernameKey(username)), [{ type: 'ScrobbleCanonicalLinked', data }], 'any');
  await app.ctx.readModels.catchUp(result.position);
}
