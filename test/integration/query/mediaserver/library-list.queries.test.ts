import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import { countItems, type ListScope, listPage, walkItems } from '../../../../query/mediaserver/library-list.queries.ts';
import { freshDatabase } from '../../../support/database.ts';

type Item = { rating_key: string; kind: string; title: string; parent_rating_key?: string | null; disc?: number | null; item_index?: number | null; deleted?: boolean };

describe('mediaserver library lists: pages and the streamed walk agree', () => {
  let database: DatabaseHandle;
  const scope = (kind: string, includeDeleted = false): ListScope => ({ serverId: 'S', sectionId: '5', kind, includeDeleted });
  const keysOf = (rows: { rating_key: string }[]) => rows.map((r) => r.rating_key);
  async function walked(s: ListScope, chunkRows: number) {
    const chunks: string[][] = [];
    for await (const rows of walkItems(database.db, s, chunkRows)) chunks.push(keysOf(rows));
    return chunks;
  }

  before(async () => {
    database = await freshDatabase();
    const items: Item[] = [
      // Tracks: nulls, ties and rating keys out of order, so the keyset must resume on every column.
      { rating_key: 't1', kind: 'track', title: 'A', parent_rating_key: 'a2', disc: 1, item_index: 2 },
      { rating_key: 't2', kind: 'track', title: 'B', parent_rating_key: 'a2', disc: null, item_index: 1 },
      { rating_key: 't3', kind: 'track', title: 'C', parent_rating_key: 'a1', disc: 2, item_index: 1 },
      { rating_key: 't4', kind: 'track', title: 'D', parent_rating_key: 'a1', disc: 1, item_index: null },
      { rating_key: 't5', kind: 'track', title: 'E', parent_rating_key: null, disc: null, item_index: null },
      { rating_key: 't6', kind: 'track', title: 'F', parent_rating_key: 'a1', disc: 1, item_index: 3 },
      { rating_key: 't7', kind: 'track', title: 'G', parent_rating_key: 'a1', disc: 1, item_index: 3 },
      { rating_key: 't8', kind: 'track', title: 'H', parent_rating_key: 'a1', disc: 1, item_index: 4, deleted: true },
      { rating_key: 'b2', kind: 'album', title: 'Same' },
      { rating_key: 'b1', kind: 'album', title: 'same' },
      { rating_key: 'b3', kind: 'album', title: 'Another' },
    ];
    await database.db
      .insertInto('mediaserver_items')
      .values(
        items.map((i) => ({
          server_id: 'S',
          section_id: '5',
          rating_key: i.rating_key,
          kind: i.kind,
          title: i.title,
          title_folded: i.title.toLowerCase(),
          parent_rating_key: i.parent_rating_key ?? null,
          disc: i.disc ?? null,
          item_index: i.item_index ?? null,
          genres: JSON.stringify([]),
          deleted: i.deleted ?? false,
          synced_at: new Date(),
        })) as never,
      )
      .execute();
  });
  after(() => database.close());

  it('given tracks, then they come by album, disc (1 when none) and position (unnumbered last), in pages and in any chunking', async () => {
    const order = ['t5', 't6', 't7', 't4', 't3', 't2', 't1'];
    expect(keysOf(await listPage(database.db, scope('track'), 1, 50))).to.deep.equal(order);
    for (const chunkRows of [1, 2, 3, 7, 1000]) expect((await walked(scope('track'), chunkRows)).flat(), `chunks of ${chunkRows}`).to.deep.equal(order);
    expect(await walked(scope('track'), 3)).to.deep.equal([['t5', 't6', 't7'], ['t4', 't3', 't2'], ['t1']]);
    expect(keysOf(await listPage(database.db, scope('track'), 2, 3))).to.deep.equal(['t4', 't3', 't2']);
    expect(await countItems(database.db, scope('track'))).to.equal(7);
  });

  it('given deleted items, then they are counted and listed only when asked for', async () => {
    expect(await countItems(database.db, scope('track', true))).to.equal(8);
    expect((await walked(scope('track', true), 2)).flat()).to.include('t8');
  });

  it('given albums of one folded title, then the rating key breaks the tie', async () => {
    expect((await walked(scope('album'), 1)).flat()).to.deep.equal(['b3', 'b1', 'b2']);
    expect(keysOf(await listPage(database.db, scope('album'), 1, 10))).to.deep.equal(['b3', 'b1', 'b2']);
  });
});
