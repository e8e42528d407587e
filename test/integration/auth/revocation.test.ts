import { expect } from 'chai';
import type { Projector } from '../../../infra/projections/projector.ts';
import { type ApiClient, type ApiResponse, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';

/**
 * A read model that is slow on every session-ending event, in the users read model's lane: until the
 * test opens its gate, the users table does not show the change either.
 */
class Gate {
  private open: Promise<void> = Promise.resolve();
  private release = () => {};

  close(): void {
    this.open = new Promise((resolve) => (this.release = resolve));
  }

  opened(): Promise<void> {
    return this.open;
  }

  reopen(): void {
    this.release();
  }
}

const gate = new Gate();
const slow: Projector = {
  name: 'slow_on_sessions',
  version: 1,
  handles: ['UserSessionsEnded', 'UserPasswordChanged', 'UserRoleChanged', 'UserDeleted'],
  tables: [],
  apply: () => gate.opened(),
};

/** A second browser holding the same session cookie as `client`. */
function sameSession(app: TestApp, client: ApiClient): ApiClient {
  const copy = app.client();
  copy.setCookie('media_session', client.cookie('media_session')!);
  return copy;
}

/** Whether `/auth/me` refuses the session within `ms`; a check held by the database counts as not refused. */
async function refusedWithin(client: ApiClient, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const status = await Promise.race([client.get('/auth/me').then((r) => r.status), new Promise((r) => setTimeout(() => r('held'), deadline - Date.now()))]);
    if (status === 401) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/** Starts `action` with the slow read model held, checks the old session is refused meanwhile, then lets it go. */
async function whileReadModelsLag(session: ApiClient, action: () => Promise<ApiResponse>): Promise<{ refused: boolean; response: ApiResponse }> {
  gate.close();
  const pending = action();
  const refused = await refusedWithin(session, 3000);
  gate.reopen();
  return { refused, response: await pending };
}

describe('auth: ending sessions does not wait for the read models', () => {
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    app = await startTestApp({}, undefined, { service: { extraProjectors: [slow] } });
    admin = await signedInAdmin(app);
  });
  after(async () => {
    gate.reopen();
    await app.close();
  });

  it('logout ends the session at once', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const other = sameSession(app, client);
    expect((await other.get('/auth/me')).status).to.equal(200);
    const { refused, response } = await whileReadModelsLag(other, () => client.post('/auth/logout'));
    expect(refused).to.equal(true);
    expect(response.status).to.equal(200);
  });

  it("a password change ends the other sessions at once, and the caller's new session works", async () => {
    const { client, password } = await signedInAs(app, 'viewer');
    const other = sameSession(app, client);
    const { refused, response } = await whileReadModelsLag(other, () => client.post('/auth/me/password', { current_password: password, new_password: 'another-password' }));
    expect(refused).to.equal(true);
    expect(response.status).to.equal(200);
    expect((await client.get('/auth/me')).status).to.equal(200);
  });

  it("a role change and a deletion end the account's sessions at once", async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const promoted = await whileReadModelsLag(sameSession(app, client), () => admin.patch(`/auth/users/${username}`, { role: 'staff' }));
    expect(promoted).to.deep.include({ refused: true });
    expect(promoted.response.status).to.equal(200);
    const again = (await signedInAs(app, 'viewer')).client;
    const target = (await again.get('/auth/me')).body.username;
    const deleted = await whileReadModelsLag(sameSession(app, again), () => admin.delete(`/auth/users/${target}`));
    expect(deleted).to.deep.include({ refused: true });
    expect(deleted.response.status).to.equal(200);
  });
});
