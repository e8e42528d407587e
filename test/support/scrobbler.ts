import type { ApiClient, TestApp } from './api.ts';
import type { ScrobblerFake } from '../fakes/scrobbler/server.ts';

/**
 * Links the client's user to `scrobblerUser` the way a browser does: start, the scrobbler's page
 * (the fake approves at once and redirects back with a token), then the callback.
 */
export async function linkThroughBrowser(client: ApiClient, fake: ScrobblerFake, scrobblerUser: string) {
  fake.state.authorizeAs = scrobblerUser;
  const start = await client.get('/scrobbler/auth/start');
  if (start.status !== 200) throw new Error(`start failed: ${start.status} ${JSON.stringify(start.body)}`);
  const approval = await fetch(start.body.url as string, { redirect: 'manual' });
  const back = new URL(approval.headers.get('location')!);
  return client.get(back.pathname + back.search);
}

export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type { TestApp };
