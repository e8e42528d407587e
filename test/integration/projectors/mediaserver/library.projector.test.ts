import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { mediaserverLibraryProjector } from '../../../../projectors/mediaserver/library.projector.ts';
import type { MirrorItem } from '../../../../shared/events/mediaserver-library.events.ts';
import { freshDatabase } from '../../../support/database.ts';

const at = '2026-01-01T00:00:00.000Z';
let position = 0;
const stored = (type: string, data: unknown) => ({ id: `e${++position}`, type, data, stream_id: 's', revision: position, position: String(position), metadata: {}, created_at: new Date(at) }) as unknown as StoredEvent;

const item = (rating_key: string, extra: Partial<MirrorItem> = {}): MirrorItem => ({
  rating_key, kind: 'track', title: `Track ${rating_key}`, parent_rating_key: 'A1', grandparent_rating_key: 'R1', parent_title: 'Album', grandparent_title: 'Artist',
  index: 1, disc: 1, year: null, duration_ms: 1000, thumb: null, genres: [], added_at: 1, updated_at: 2, view_count: null, last_viewed_at: null, user_rating: null,
  media: { codec: 'flac', container: 'flac', bit_depth: 16, sampling_rate: 44100, bitrate: 900, lossless: true, size: 10, part_id: 1, part_key: '/library/parts/1/1/file.flac' },
  canonical_id: 'C1', ...extra,
});

describe('mediaserver library projector', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  async function apply(...events: StoredEvent[]) {
    await database.db.transaction().execute((trx) => mediaserverLibraryProjector.apply(trx, events));
  }
  const rows = () => database.db.selectFrom('mediaserver_items').select(['rating_key', 'title', 'deleted', 'codec']).orderBy('rating_key').execute();

  it('given the same sightings and removals applied twice, then the mirror is the same as after once', async () => {
    const synced = stored('MediaserverItemsSynced', { server_id: 'S', section_id: '5', items: [item('1'), item('2')], at });
    const removed = stored('MediaserverItemsRemoved', { server_id: 'S', section_id: '5', rating_keys: ['2'], at });
    await apply(synced, removed);
    const once = await rows();
    await apply(synced, removed);
    expect(await rows()).to.deep.equal(once);
    expect(once).to.deep.equal([
      { rating_key: '1', title: 'Track 1', deleted: false, codec: 'flac' },
      { rating_key: '2', title: 'Track 2', deleted: true, codec: 'flac' },
    ]);
  });

  it('given a removed item seen again, then it is live again with its new facts', async () => {
    await apply(stored('MediaserverItemsSynced', { server_id: 'S', section_id: '5', items: [item('2', { title: 'Back Again', media: null })], at }));
    expect((await rows()).find((r) => r.rating_key === '2')).to.deep.equal({ rating_key: '2', title: 'Back Again', deleted: false, codec: null });
  });
});
