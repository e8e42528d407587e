import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';

describe('auth: POST /auth/register', () => {
  let app: TestApp;
  before(async () => {
    // Behind a trusted proxy, so the races below come from addresses of their own (registration is throttled per address).
    app = await startTestApp({ TRUSTED_PROXY: 'loopback' });
  });
  after(() => app.close());

  it('given a new name, then 200 with a viewer, signed in', async () => {
    const client = app.client();
    const res = await client.post('/auth/register', { username: 'newcomer', password: 'newcomer-pw' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ username: 'newcomer', role: 'viewer' });
    expect(client.cookie('media_session')).to.be.a('string');
    const me = await client.get('/auth/me');
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ username: 'newcomer', role: 'viewer' });
  });

  it('the new account signs in with its password', async () => {
    await app.client().post('/auth/register', { username: 'returning', password: 'returning-pw' });
    const res = await app.client().post('/auth/login', { username: 'returning', password: 'returning-pw' });
    expect(res.status).to.equal(200);
  });

  it("never honours a role in the body: the account is a viewer", async () => {
    const client = app.client();
    const res = await client.post('/auth/register', { username: 'sneaky', password: 'sneaky-pw', role: 'admin' });
    expect(res.status).to.be.oneOf([200, 422]);
    if (res.status === 200) expect(res.body.role).to.equal('viewer');
    expect((await client.get('/admin/task-history')).status).to.be.oneOf([401, 403]);
    const listed = (await (await signedInAdmin(app)).get('/auth/users/')).body as { username: string; role: string }[];
    expect(listed.find((u) => u.username === 'sneaky')?.role ?? 'viewer').to.equal('viewer');
  });

  it('given an existing name, then 409 and the existing account keeps its password', async () => {
    await app.client().post('/auth/register', { username: 'taken', password: 'first-pw' });
    const res = await app.client().post('/auth/register', { username: 'taken', password: 'second-pw' });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.be.a('string');
    expect((await app.client().post('/auth/login', { username: 'taken', password: 'first-pw' })).status).to.equal(200);
    expect((await app.client().post('/auth/login', { username: 'taken', password: 'second-pw' })).status).to.equal(401);
  });

  it('given an existing name in another case, then 409', async () => {
    const res = await app.client().post('/auth/register', { username: 'ADMIN', password: 'whatever-pw' });
    expect(res.status).to.equal(409);
  });

  it('given a refused registration, then no session cookie is set', async () => {
    const client = app.client();
    await client.post('/auth/register', { username: 'admin', password: 'whatever-pw' });
    expect(client.cookie('media_session')).to.equal(undefined);
  });

  for (const [what, body, loc] of [
    ['no password', { username: 'nopw' }, ['body', 'password']],
    ['no username', { password: 'some-password' }, ['body', 'username']],
    ['a too short password', { username: 'shortpw', password: 'x' }, ['body', 'password']],
    ['a username with spaces', { username: 'two words', password: 'some-password' }, ['body', 'username']],
    ['a username that is not a string', { username: 42, password: 'some-password' }, ['body', 'username']],
  ] as const) {
    it(`given ${what}, then 422 naming the field`, async () => {
      const res = await app.client().post('/auth/register', body);
      expect(res.status).to.equal(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).to.deep.include(loc);
    });
  }

  it('given malformed JSON, then 422', async () => {
    const res = await app.client().post('/auth/register', '{"username": ');
    expect(res.status).to.equal(422);
  });

  describe('two simultaneous registrations of the same name', () => {
    for (const [first, second, n] of [
      ['race1', 'race1', 1],
      ['race2', 'race2', 2],
      ['race3', 'race3', 3],
      ['Race4', 'race4', 4],
    ] as const) {
      it(`${first} / ${second}: exactly one wins, the other gets 409`, async () => {
        const [a, b] = [app.client(), app.client()];
        const address = { 'x-forwarded-for': `198.51.100.${n}` };
        const results = await Promise.all([
          a.post('/auth/register', { username: first, password: 'first-password' }, address),
          b.post('/auth/register', { username: second, password: 'second-password' }, address),
        ]);
        expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
        const winner = results[0]!.status === 200 ? 'first-password' : 'second-password';
        const loser = winner === 'first-password' ? 'second-password' : 'first-password';
        expect((await app.client().post('/auth/login', { username: second, password: winner })).status).to.equal(200);
        expect((await app.client().post('/auth/login', { username: second, password: loser })).status).to.equal(401);
        const winnerClient = results[0]!.status === 200 ? a : b;
        expect((await winnerClient.get('/auth/me')).status).to.equal(200);
      });
    }
  });
});
