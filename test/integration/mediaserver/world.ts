import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';
import { pollTask } from '../tasks/test-tasks.ts';

export const SERVER = 'fakemachine0001';

/** The fake server, the app pointed at it, and the steps the client walks: sync, link, resolve, read bytes. */
export interface MediaserverWorld {
  fake: MediaserverFake;
  app: TestApp;
  admin: ApiClient;
  close(): Promise<void>;
  sync(quick?: boolean): Promise<Record<string, any>>;
  /** A new user who linked their account through a PIN; `token` is the one the fake issued. */
  linkedUser(): Promise<{ client: ApiClient; username: string; token: string }>;
  trackId(ratingKey: string): Promise<string>;
  albumId(ratingKey: string): Promise<string>;
  /** A GET as the client's browser tab, with the body as bytes. */
  bytes(client: ApiClient, path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: Buffer }>;
}

export async function startWorld(setup: (fake: MediaserverFake) => void = () => {}, env: Record<string, string> = {}): Promise<MediaserverWorld> {
  const fake = await startMediaserverFake();
  setup(fake);
  const app = await startTestApp({ ...mediaserverEnv(fake), ...env });
  const admin = await signedInAdmin(app);
  const resolve = async (kind: 'tracks' | 'albums', ratingKey: string) => {
    const res = await admin.get(`/${kind}/resolve?mediaserver_server=${SERVER}&mediaserver_rating_key=${ratingKey}`);
    expect(res.status, `resolve ${kind} ${ratingKey}`).to.equal(200);
    return res.body.id as string;
  };
  return {
    fake,
    app,
    admin,
    async close() {
      await app.close();
      await fake.close();
    },
    async sync(quick = false) {
      const res = await admin.post(`/mediaserver/admin/libraries/5/sync?quick=${quick}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const task = await pollTask(admin, res.body.task_id, undefined, 60_000);
      expect(task.status, task.error ?? '').to.equal('completed');
      return task.summary as Record<string, any>;
    },
    async linkedUser() {
      const { client, username } = await signedInAs(app, 'viewer');
      expect((await client.post('/mediaserver/me/auth/start')).status).to.equal(200);
      const token = fake.linkPin();
      expect((await client.post('/mediaserver/me/auth/finish')).body.status).to.equal('completed');
      return { client, username, token };
    },
    trackId: (ratingKey) => resolve('tracks', ratingKey),
    albumId: (ratingKey) => resolve('albums', ratingKey),
    async bytes(client, path, headers = {}) {
      const res = await fetch(app.url + path, { headers: { ...headers, cookie: `media_session=${client.cookie('media_session')}` } });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    },
  };
}
