import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { linkThroughBrowser } from '../../support/scrobbler.ts';
import { type ScrobblerFake, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

describe('admin invalid scrobbles: list by bucket, delete, purge', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let admin: ApiClient;
  let user: ApiClient;
  const now = Math.floor(Date.now() / 1000);

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser(
      'odd_fm',
      listHistory([
        { uts: now - 600, artist: 'Low', track: 'Lullaby' },
        { uts: now - 1200, artist: 'Low', track: 'Words' },
        { uts: 0, artist: 'Low', track: 'Zero One' },
        { uts: 0, artist: 'Low', track: 'Zero Two' },
        { uts: 946684800, artist: 'Low', track: 'Y2K' },
        { uts: now + 5 * 86_400, artist: 'Low', track: 'Tomorrow' },
      ]),
    );
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    ({ client: user } = await signedInAs(app, 'viewer'));
    await linkThroughBrowser(user, fake, 'odd_fm');
    expect((await user.post('/scrobbler/me/refresh-mirror')).body.inserted).to.equal(6);
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('lists invalid scrobbles with the count of every bucket, and keeps them out of recent tracks', async () => {
    const res = await admin.get('/admin/scrobbles/invalid');
    expect(res.status).to.equal(200);
    expect(res.body.counts_by_kind).to.deep.equal({ all: 4, zero: 2, before_service: 1, future: 1 });
    expect(res.body.total).to.equal(4);
    const zero = await admin.get('/admin/scrobbles/invalid?kind=zero&limit=1');
    expect(zero.body).to.include({ total: 2, kind: 'zero', limit: 1 });
    expect(zero.body.items).to.have.length(1);
    expect(zero.body.items[0]).to.include({ uts: 0, invalid_kind: 'zero' });
    expect(zero.body.counts_by_kind.all).to.equal(4);
    expect((await admin.get('/admin/scrobbles/invalid?kind=nonsense')).status).to.equal(422);
    const recent = await user.get('/scrobbler/me/recent-tracks');
    expect(recent.body.items.map((s: { track: string }) => s.track)).to.deep.equal(['Lullaby', 'Words']);
  });

  it('is for admins only', async () => {
    expect((await user.get('/admin/scrobbles/invalid')).status).to.equal(403);
    expect((await user.post('/admin/scrobbles/invalid/purge', { kind: 'all' })).status).to.equal(403);
  });

  it('deletes one scrobble by id, 404 for an unknown one; a re-import does not bring it back', async () => {
    const [future] = (await admin.get('/admin/scrobbles/invalid?kind=future')).body.items;
    const res = await admin.delete(`/admin/scrobbles/${future.scrobble_id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ scrobble_id: future.scrobble_id, deleted: 1 });
    expect((await admin.delete(`/admin/scrobbles/${future.scrobble_id}`)).status).to.equal(404);
    expect((await user.post('/scrobbler/me/refresh-mirror')).body.inserted).to.equal(0);
    expect((await admin.get('/admin/scrobbles/invalid')).body.counts_by_kind).to.deep.equal({ all: 3, zero: 2, before_service: 1, future: 0 });
  });

  it('purges one bucket, then the rest', async () => {
    const zero = await admin.post('/admin/scrobbles/invalid/purge', { kind: 'zero' });
    expect(zero.status).to.equal(200);
    expect(zero.body).to.deep.equal({ kind: 'zero', deleted: 2 });
    expect((await admin.get('/admin/scrobbles/invalid')).body.counts_by_kind).to.deep.equal({ all: 1, zero: 0, before_service: 1, future: 0 });
    expect((await admin.post('/admin/scrobbles/invalid/purge', { kind: 'all' })).body).to.deep.equal({ kind: 'all', deleted: 1 });
    expect((await admin.post('/admin/scrobbles/invalid/purge', { kind: 'all' })).body).to.deep.equal({ kind: 'all', deleted: 0 });
    expect((await admin.post('/admin/scrobbles/invalid/purge', {})).status).to.equal(422);
    expect((await user.get('/scrobbler/me/recent-tracks')).body.total).to.equal(2);
  });

  it('an admin may delete a valid scrobble too; the listing and its count follow', async () => {
    const [first] = (await user.get('/scrobbler/me/recent-tracks')).body.items;
    expect((await admin.delete(`/admin/scrobbles/${first.scrobble_id}`)).status).to.equal(200);
    const recent = await user.get('/scrobbler/me/recent-tracks');
    expect(recent.body.total).to.equal(1);
    expect(recent.body.items.map((s: { track: string }) => s.track)).to.deep.equal(['Words']);
  });
});
