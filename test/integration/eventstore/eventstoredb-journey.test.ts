import { expect } from 'chai';
import { type EventStoreDbDouble, startEventStoreDb } from '../../fakes/eventstoredb/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { givenMusic } from '../me/entities.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('the service with its log on EventStoreDB (EVENTSTORE_URL, the gRPC double)', () => {
  let eventstore: EventStoreDbDouble;
  let app: TestApp;
  let admin: ApiClient;
  let listener: ApiClient;
  let albumId: string;

  before(async () => {
    eventstore = await startEventStoreDb();
    app = await startTestApp({ EVENTSTORE_URL: eventstore.url });
    admin = await signedInAdmin(app);
    listener = app.client();
    const registered = await listener.post('/auth/register', { username: 'esdb-listener', password: 'esdb-listener-password' });
    expect(registered.status).to.equal(200);
    ({ albumId } = await givenMusic(app, 'Gossip Band'));
  });
  after(async () => {
    await app.close();
    await eventstore.close();
  });

  it('when a listener favorites an album, then the favorite reads back and its events are in EventStoreDB, not the database', async () => {
    const added = await listener.post('/me/favorites/albums', { canonical_id: albumId });
    expect(added.status).to.equal(200);
    const listed = await listener.get('/me/favorites/albums');
    expect(listed.body.map((a: { id: string }) => a.id)).to.deep.equal([albumId]);

    const types = eventstore.log.all.map((e) => e.type);
    expect(types).to.include.members(['UserRegistered', 'FavoriteAdded']);
    const inDatabase = await app.ctx.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(inDatabase.n)).to.equal(0);
  });

  it('when an admin rebuilds the read models, then the task replays the log from EventStoreDB and every answer is as before', async () => {
    const before = { favorites: (await listener.get('/me/favorites/albums')).body, album: (await listener.get(`/library/albums/${albumId}`)).body };
    // A node keeps writing its own statistics: the log ends on a system event the replay must pass over.
    eventstore.collectStats();

    const started = await admin.post('/admin/canonical/rebuild');
    expect(started.status).to.equal(200);
    const task = await pollTask(admin, started.body.task_id);
    expect(task).to.include({ status: 'completed', error: null });
    expect(task.summary!.events_replayed).to.be.above(0);

    expect((await listener.get('/me/favorites/albums')).body).to.deep.equal(before.favorites);
    expect((await listener.get(`/library/albums/${albumId}`)).body).to.deep.equal(before.album);
  });

  it('when the EventStoreDB node restarts, then the service reconnects: a new favorite is written and read back', async () => {
    ({ albumId } = await givenMusic(app, 'Restart Band'));
    await eventstore.close();
    eventstore = await startEventStoreDb({ restartOf: eventstore });

    const added = await listener.post('/me/favorites/albums', { canonical_id: albumId });
    expect(added.status).to.equal(200);
    const listed = await listener.get('/me/favorites/albums');
    expect(listed.body.map((a: { id: string }) => a.id)).to.include(albumId);
    expect(eventstore.log.all.filter((e) => e.type === 'FavoriteAdded')).to.have.length(2);
  });
});
