import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { dbCountersProjector } from '../../../../projectors/admin/db-counters.projector.ts';
import { upstreamConnectionsProjector } from '../../../../projectors/admin/upstream-connections.projector.ts';
import { freshDatabase } from '../../../support/database.ts';

let position = 0;
const stored = (streamId: string, revision: number, type: string, data: unknown, createdAt = '2026-01-01T00:00:00.000Z') =>
  ({ id: `e${++position}`, type, data, streamId, revision, position: { commit: BigInt(position), prepare: BigInt(position) }, metadata: {}, createdAt: new Date(createdAt) }) as unknown as StoredEvent;
const claim = (source: string, external_id: string) => ({ kind: 'artist', source, external_id, entity_id: 'A', at: 'x' });

describe('admin counters projectors', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (projector: typeof dbCountersProjector, events: StoredEvent[]) => database.db.transaction().execute((trx) => projector.apply(trx, events));

  it('db_counters: counts the log by category and type and refs by source, a replayed batch counting nothing twice', async () => {
    const batch = [
      stored('artist-A', 0, 'EntityRegistered', { kind: 'artist', id: 'A', at: 'x' }, '2026-01-01T00:00:00.000Z'),
      stored('refclaim-artist.metabase.h1', 0, 'RefClaimed', claim('metabase', 'm1')),
      stored('refclaim-artist.metabase.h2', 0, 'RefClaimed', claim('metabase', 'm2')),
      stored('refclaim-artist.metabase.h2', 1, 'RefReleased', claim('metabase', 'm2')),
      stored('artist-A', 1, 'RefLinked', { kind: 'artist', id: 'A' }, '2026-01-03T00:00:00.000Z'),
    ];
    await apply(dbCountersProjector, batch);
    await apply(dbCountersProjector, batch);
    await apply(dbCountersProjector, batch.slice(3));
    const counts = await database.db.selectFrom('event_counts').selectAll().orderBy('category').orderBy('event_type').execute();
    expect(counts.map((c) => [c.category, c.event_type, Number(c.events), Number(c.streams)])).to.deep.equal([
      ['artist', 'EntityRegistered', 1, 1],
      ['artist', 'RefLinked', 1, 0],
      ['refclaim', 'RefClaimed', 2, 2],
      ['refclaim', 'RefReleased', 1, 0],
    ]);
    const artist = counts.filter((c) => c.category === 'artist');
    expect([artist[0]!.first_at.toISOString(), artist[1]!.last_at.toISOString()]).to.deep.equal(['2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
    const refs = await database.db.selectFrom('ref_counts').selectAll().execute();
    expect(refs.map((r) => [r.kind, r.source, Number(r.refs)])).to.deep.equal([['artist', 'metabase', 1]]);
  });

  it('upstream_connections: links, syncs and unlinks applied twice leave what once does', async () => {
    const account = { id: 1, uuid: 'u', username: 'ann', title: 'ann', thumb: null };
    const batch = [
      stored('mediaserverlink-ann', 0, 'MediaserverLinked', { username: 'Ann', credential_id: 'c', account, pin_credential_id: null, at: '2026-01-01T00:00:00.000Z' }),
      stored('mediaserverplaylists-ann', 0, 'MediaserverPlaylistsListed', { username: 'Ann', server_id: 's', playlists: [], at: '2026-01-05T00:00:00.000Z' }),
      stored('mediaserverplaylists-ann', 1, 'MediaserverPlaylistsListed', { username: 'Ann', server_id: 's', playlists: [], at: '2026-01-04T00:00:00.000Z' }),
      stored('user-bob', 3, 'ScrobblerLinked', { username: 'bob', scrobbler_username: 'b', credential_id: 'c', at: '2026-01-02T00:00:00.000Z' }),
      stored('scrobbles-cat', 0, 'ScrobblesImported', { username: 'cat', scrobbler_username: 'c', task_id: null, page: null, total_pages: null, scrobbles: [], at: '2026-01-02T00:00:00.000Z' }),
      stored('user-dan', 3, 'ScrobblerLinked', { username: 'dan', scrobbler_username: 'd', credential_id: 'c', at: '2026-01-02T00:00:00.000Z' }),
      stored('user-dan', 4, 'ScrobblerUnlinked', { username: 'dan', at: '2026-01-03T00:00:00.000Z' }),
    ];
    const rows = () => database.db.selectFrom('upstream_connections').selectAll().orderBy('username_key').execute();
    await apply(upstreamConnectionsProjector, batch);
    const once = await rows();
    await apply(upstreamConnectionsProjector, batch);
    expect(await rows()).to.deep.equal(once);
    expect(once.map((r) => [r.username, r.upstream, r.linked_at.toISOString(), r.last_sync_at?.toISOString() ?? null])).to.deep.equal([
      ['Ann', 'mediaserver', '2026-01-01T00:00:00.000Z', '2026-01-05T00:00:00.000Z'],
      ['bob', 'scrobbler', '2026-01-02T00:00:00.000Z', null],
    ]);
    await apply(upstreamConnectionsProjector, [stored('user-ann', 9, 'UserDeleted', { username: 'ann', deleted_by: 'admin', at: 'x' })]);
    expect((await rows()).map((r) => r.username)).to.deep.equal(['bob']);
  });
});
