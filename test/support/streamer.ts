import type { ApiClient } from './api.ts';
import type { StreamerFake } from '../fakes/streamer/server.ts';

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
