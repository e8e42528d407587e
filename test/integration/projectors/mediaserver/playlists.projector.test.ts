import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { mediaserverPlaylistsProjector } from '../../../../projectors/mediaserver/playlists.projector.ts';
import type { PlaylistFacts, PlaylistItemFacts } from '../../../../shared/events/mediaserver-playlists.events.ts';
import { freshDatabase } from '../../../support/database.ts';

const at = '2026-01-01T00:00:00.000Z';
let position = 0;
const stored = (type: string, data: unknown) => ({ id: `e${++position}`, type, data, stream_id: 's', revision: position, position: String(position), metadata: {}, created_at: new Date(at) }) as unknown as StoredEvent;
const playlist = (rating_key: string): PlaylistFacts => ({
  playlist_id: `S::${rating_key}`, rating_key, title: `List ${rating_key}`, playlist_type: 'audio', smart: false, composite: null, leaf_count: 2, duration_ms: 1, added_at: 1, updated_at: 2,
});
const item = (rating_key: string): PlaylistItemFacts => ({ rating_key, playlist_item_id: `i${rating_key}`, kind: 'track', title: `T${rating_key}`, parent_title: null, grandparent_title: null, duration_ms: 1 });

describe('mediaserver playlists projector', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (...events: StoredEvent[]) => database.db.transaction().execute((trx) => mediaserverPlaylistsProjector.apply(trx, events));
  const state = async () => ({
    playlists: await database.db.selectFrom('mediaserver_playlists').select(['playlist_id', 'title']).orderBy('playlist_id').execute(),
    items: await database.db.selectFrom('mediaserver_playlist_items').select(['playlist_id', 'position', 'rating_key']).orderBy('playlist_id').orderBy('position').execute(),
  });

  it('given a listing and item pages applied twice, then the rows equal those after once', async () => {
    const listed = stored('MediaserverPlaylistsListed', { username: 'Ann', server_id: 'S', playlists: [playlist('1'), playlist('2')], at });
    const first = stored('MediaserverPlaylistItemsListed', { username: 'Ann', playlist: playlist('1'), offset: 0, items: [item('a'), item('b')], at });
    const second = stored('MediaserverPlaylistItemsListed', { username: 'Ann', playlist: playlist('1'), offset: 2, items: [item('c')], at });
    await apply(listed, first, second);
    const once = await state();
    await apply(listed, first, second);
    expect(await state()).to.deep.equal(once);
    expect(once.items.map((i) => i.rating_key)).to.deep.equal(['a', 'b', 'c']);
  });

  it('given a later listing without a playlist, then that playlist and its items go; an unlink clears the rest', async () => {
    await apply(stored('MediaserverPlaylistsListed', { username: 'Ann', server_id: 'S', playlists: [playlist('2')], at }));
    expect(await state()).to.deep.equal({ playlists: [{ playlist_id: 'S::2', title: 'List 2' }], items: [] });
    await apply(stored('MediaserverUnlinked', { username: 'ann', unlinked_by: 'admin', at }));
    expect(await state()).to.deep.equal({ playlists: [], items: [] });
  });
});
