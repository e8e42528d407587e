import type { ApiClient, TestApp } from './api.ts';
import { pollUntil } from './scrobbler.ts';
import type { StreamerFake } from '../fakes/streamer/server.ts';
import { artist, play, playlist, savedAlbum, savedTrack, track } from '../fakes/streamer/state.ts';

/** The callback request a browser makes after the user approved `accountId` on the authorize page. */
export async function approvedCallback(client: ApiClient, fake: StreamerFake, accountId: string): Promise<string> {
  const start = await client.post('/streamer/me/auth/start');
  if (start.status !== 200) throw new Error(`start failed: ${start.status} ${JSON.stringify(start.body)}`);
  const { code, state } = fake.state.approve(accountId, start.body.url as string);
  return `/streamer/auth/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`;
}

/** Links the client's user to `accountId` the way a browser does: start, approve, callback. */
export async function linkStreamer(client: ApiClient, fake: StreamerFake, accountId: string) {
  const res = await client.get(await approvedCallback(client, fake, accountId));
  if (res.status !== 302 || !res.headers.get('location')?.includes('streamer=linked')) throw new Error(`link failed: ${res.status} ${res.headers.get('location')}`);
  return res;
}

/** Posts a sync and waits until its task is no longer running; answers the start and the task record. */
export async function syncAndWait(client: ApiClient, app: TestApp) {
  const start = await client.post('/streamer/me/sync');
  if (start.status !== 200) throw new Error(`sync failed to start: ${start.status} ${JSON.stringify(start.body)}`);
  await app.ctx.tasks.idle();
  const task = await pollUntil(
    async () => (await client.get(`/me/tasks/${start.body.task_id}`)).body,
    (t) => t.status !== 'running',
  );
  return { start: start.body, task };
}

/** A small account: 5 saved tracks, 2 saved albums, 3 followed artists, an owned and a followed playlist, 2 plays. */
export function smallLibrary(fake: StreamerFake, accountId: string) {
  const account = fake.state.addAccount(accountId, accountId.toUpperCase());
  const tracks = Array.from({ length: 5 }, (_, i) => track({ name: `Song ${i + 1}`, artist: i < 3 ? 'Squirrel Nut Zippers' : 'Lars Winnerbäck', album: i < 3 ? 'Hot' : 'In & ut', isrc: `USTEST00000${i + 1}` }));
  account.savedTracks = tracks.map((t, i) => savedTrack(t, `2024-01-0${i + 1}T10:00:00Z`));
  account.savedAlbums = [savedAlbum({ name: 'Hot', artist: 'Squirrel Nut Zippers', upc: '00602537623730' }), savedAlbum({ name: 'In & ut', artist: 'Lars Winnerbäck', upc: '00602537623731' })];
  account.followedArtists = ['Squirrel Nut Zippers', 'Lars Winnerbäck', 'Petter'].map(artist);
  account.playlists = [playlist('Mine', accountId, [tracks[0]!, tracks[3]!]), playlist('Theirs', 'spotify', [tracks[1]!, tracks[2]!, tracks[4]!])];
  account.recentlyPlayed = [play(tracks[0]!, '2024-05-02T10:00:00.000Z'), play(tracks[4]!, '2024-05-01T10:00:00.000Z')];
  return { account, tracks };
}
