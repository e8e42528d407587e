import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { streamerMirrorProjector } from '../../../../projectors/streamer/mirror.projector.ts';
import { freshDatabase } from '../../../support/database.ts';

const at = '2026-01-01T00:00:00.000Z';
let position = 0;
const stored = (type: string, data: Record<string, unknown>) =>
  ({ id: `e${++position}`, type, data: { username: 'Ann', account_id: 'acc', at, ...data }, stream_id: 's', revision: position, position: String(position), metadata: {}, created_at: new Date(at) }) as unknown as StoredEvent;
const track = (track_id: string, canonical_track_id: string | null = `C${track_id}`) => ({ track_id, name: `Song ${track_id}`, artist_name: 'A', album_name: 'B', isrc: null, duration_ms: 1000, canonical_track_id });
const meta = (snapshot_id: string) => ({ playlist_id: 'P', name: 'Mine', description: null, owner_id: 'acc', owner_name: null, owned: true, public: true, collaborative: false, snapshot_id, image_url: null, tracks_total: 2 });

describe('streamer mirror projector', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (...events: StoredEvent[]) => database.db.transaction().execute((trx) => streamerMirrorProjector.apply(trx, events));
  const tracks = () => database.db.selectFrom('streamer_saved_tracks').select(['track_id', 'canonical_track_id']).orderBy('track_id').execute();
  const items = () => database.db.selectFrom('streamer_playlist_items').select(['position', 'track_id', 'is_local']).orderBy('position').execute();

  it('given the same changes applied twice, then the mirror is the same as after once', async () => {
    const events = [
      stored('StreamerTracksSaved', { tracks: [{ ...track('1'), added_at: at }, { ...track('2'), added_at: at }] }),
      stored('StreamerTracksUnsaved', { track_ids: ['2'] }),
      stored('StreamerPlaylistMirrored', { playlist: meta('s1'), items: [{ ...track('1'), added_at: at, is_local: false }, { ...track('x', null), track_id: null, added_at: null, is_local: true }] }),
      stored('StreamerPlaysRecorded', { plays: [{ ...track('1'), played_at: at }] }),
    ];
    await apply(...events);
    const once = { tracks: await tracks(), items: await items() };
    await apply(...events);
    expect({ tracks: await tracks(), items: await items() }).to.deep.equal(once);
    expect(once.tracks).to.deep.equal([{ track_id: '1', canonical_track_id: 'C1' }]);
    expect(once.items).to.deep.equal([
      { position: 0, track_id: '1', is_local: false },
      { position: 1, track_id: null, is_local: true },
    ]);
  });

  it('given a new snapshot of a playlist, then its items are replaced; a dropped playlist leaves nothing', async () => {
    await apply(stored('StreamerPlaylistMirrored', { playlist: meta('s2'), items: [{ ...track('3'), added_at: at, is_local: false }] }));
    expect(await items()).to.deep.equal([{ position: 0, track_id: '3', is_local: false }]);
    await apply(stored('StreamerPlaylistsDropped', { playlist_ids: ['P'] }));
    expect(await items()).to.deep.equal([]);
    expect(await database.db.selectFrom('streamer_playlists').selectAll().execute()).to.deep.equal([]);
  });
});
