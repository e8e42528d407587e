import { expect } from 'chai';
import { openPostgres } from '../../../infra/db/create-db.ts';
import { isDatabaseUnavailable } from '../../../infra/db/unavailable.ts';
import { type ApiClient, type ApiResponse, type TestApp, startTestApp } from '../../support/api.ts';
import { engineUnderTest, freshDatabase, takeDown } from '../../support/database.ts';
import { signedInAs } from '../../support/given.ts';

function expectRetryLater(res: ApiResponse): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(503);
  expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
  expect(res.body.detail).to.equal('The database is unavailable; try again shortly');
}

describe('db: a database that is down answers 503 with Retry-After, never 500', () => {
  let app: TestApp;
  const clients = {} as { viewer: ApiClient; admin: ApiClient; credentials: { username: string; password: string } };
  before(async () => {
    const database = await freshDatabase();
    app = await startTestApp({}, database);
    const viewer = await signedInAs(app, 'viewer');
    const admin = await signedInAs(app, 'admin');
    await takeDown(database);
    Object.assign(clients, { viewer: viewer.client, admin: admin.client, credentials: viewer });
  });
  after(() => app.close());

  it('when a signed-in user reads their data', async () => {
    expectRetryLater(await clients.viewer.get('/me/favorites/artists'));
  });

  it('when an admin reads the task history', async () => {
    expectRetryLater(await clients.admin.get('/admin/task-history'));
  });

  it('when someone signs in (not a 401: the password was never checked)', async () => {
    const { username, password } = clients.credentials;
    expectRetryLater(await app.client().post('/auth/login', { username, password }));
  });
});

describe('db: a saturated PostgreSQL pool answers 503 with Retry-After once the acquire timeout passes', () => {
  let app: TestApp;
  before(async function () {
    if (engineUnderTest !== 'postgres') this.skip();
    app = await startTestApp({}, await freshDatabase({ max: 1, acquireTimeoutMs: 1000 }));
  });
  after(() => app?.close());

  it('when the only connection is held by a long transaction', async () => {
    const { client } = await signedInAs(app, 'viewer');
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    let holding!: () => void;
    const holds = new Promise<void>((done) => (holding = done));
    const transaction = app.ctx.db.transaction().execute(async () => {
      holding();
      await held;
    });
    await holds;
    try {
      expectRetryLater(await client.get('/me/favorites/artists'));
    } finally {
      release();
      await transaction;
    }
    expect((await client.get('/me/favorites/artists')).status, 'served again once the connection is free').to.equal(200);
  });
});

describe('db: failures that mean "unavailable"', () => {
  it('a server that refuses connections', async () => {
    const handle = await openPostgres('postgres://postgres@127.0.0.1:1/none', { acquireTimeoutMs: 2000 });
    try {
      const error = await handle.db.selectFrom('users').selectAll().execute().then(() => undefined, (e: unknown) => e);
      expect(isDatabaseUnavailable(error), String(error)).to.equal(true);
    } finally {
      await handle.close();
    }
  });

  it('not a query that is wrong', () => {
    const syntax = Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
    expect(isDatabaseUnavailable(syntax)).to.equal(false);
    expect(isDatabaseUnavailable(new Error('duplicate key value violates unique constraint'))).to.equal(false);
  });
});
