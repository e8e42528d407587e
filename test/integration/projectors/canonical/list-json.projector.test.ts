import { expect } from 'chai';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { canonicalDocsProjector } from '../../../../projectors/canonical/canonical-docs.projector.ts';
import { listJson, withRefs } from '../../../../projectors/canonical/canonical-docs.json.ts';
import { toDoc } from '../../../../projectors/canonical/canonical-docs.reads.ts';
import type { Facts } from '../../../../shared/events/canonical.events.ts';
import { freshDatabase } from '../../../support/database.ts';

let position = 0;
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const stored = (type: string, data: Record<string, unknown>) =>
  ({ id: `e${++position}`, type, data, stream_id: 's', revision: position, position: String(position), metadata: {}, created_at: new Date() }) as unknown as StoredEvent;
/** Each event a second and a millisecond after the last: times with milliseconds, as events carry them. */
const at = () => new Date((clock += 1001)).toISOString();

const registered = (kind: string, id: string) => stored('EntityRegistered', { kind, id, at: at() });
const linked = (kind: string, id: string, source: string, external_id: string) => stored('RefLinked', { kind, id, source, external_id, evidence: { rule: 'new_entity', value: null }, at: at() });
const observed = (kind: string, id: string, source: string, external_id: string, facts: Facts) => stored('FactsObserved', { kind, id, source, external_id, facts, at: at() });
const seen = (kind: string, id: string, source: string, external_id: string, facts: Facts) => [linked(kind, id, source, external_id), observed(kind, id, source, external_id, facts)];

/** Names that JSON must escape, or that PostgreSQL and JavaScript could print apart. */
const ODD = ['Sigur Rós', 'Quote " and \\ backslash', 'Tab\tnew\nline\u0001', '日本語 🎵', 'slash / and </script>', 'line\u2028separator'];

describe('canonical_docs list_json', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (...events: (StoredEvent | StoredEvent[])[]) => database.db.transaction().execute((trx) => canonicalDocsProjector.apply(trx, events.flat()));

  /**
   * Every row's stored JSON is what rendering its columns gives now (what a page built with
   * `row_to_json` over the doc's columns answered), byte for byte, and parses to toDoc's doc
   * without refs, key for key and in order.
   */
  async function expectEveryRowCurrent(): Promise<number> {
    const { rows } = await sql<{ id: string; stored: string | null; rendered: string }>`select id, list_json as stored, ${listJson} as rendered from canonical_docs order by id`.execute(database.db);
    expect(rows.length).to.be.greaterThan(0);
    for (const row of rows) expect(row.stored, row.id).to.equal(row.rendered);
    const docs = await database.db.selectFrom('canonical_docs').selectAll().orderBy('id').execute();
    for (const { facts: _, list_json, ...row } of docs) {
      const { refs: __, ...doc } = toDoc(row, []);
      const parsed = JSON.parse(list_json!);
      expect(Object.keys(parsed), row.id).to.deep.equal(Object.keys(doc));
      expect(parsed, row.id).to.deep.equal(doc);
    }
    return rows.length;
  }

  const doc = async (id: string) => JSON.parse((await database.db.selectFrom('canonical_docs').select('list_json').where('id', '=', id).executeTakeFirstOrThrow()).list_json!);

  it('given docs observed from several sources, with odd names, numbers and empty fields, then each row holds its list JSON', async () => {
    await apply(
      registered('artist', 'ar1'),
      seen('artist', 'ar1', 'mediaserver', 'm-ar1', { name: ODD[0]!, cover_url: 'http://x/ar1.jpg' }),
      seen('artist', 'ar1', 'metabase', 'mb-ar1', {
        name: 'Sigur Ros', mbid: 'mb-ar1', alt_names: ['Sigur Rós', 'SR'],
        external_links: [{ category: 'wiki', type: 'wikipedia', url: 'https://en.wikipedia.org/wiki/S%C3%ADgur' }],
        members: [{ mbid: 'p1', name: 'Jónsi', relation: 'member', begin: '1994', end: null, ended: false }],
      }),
      registered('artist', 'ar2'),
      seen('artist', 'ar2', 'scrobbler', 'ar2', { name: ODD[1]! }),
      registered('album', 'al1'),
      seen('album', 'al1', 'mediaserver', 'm-al1', { name: ODD[3]!, artist_id: 'ar1', artist_name: ODD[0]!, year: 1999, genres: ['Post-Rock', 'Ambient'], upc: '0001' }),
      seen('album', 'al1', 'releasedb', 'r-al1', { labels: ['FatCat'], primary_type: 'Album', secondary_types: ['Live'] }),
      registered('album', 'al2'),
      seen('album', 'al2', 'catalog', 'c-al2', { name: 'Ágætis byrjun', artist_id: 'ar1', artist_name: 'Sigur Rós' }),
      registered('album', 'al3'),
    );
    for (let n = 1; n <= 12; n += 1) {
      const id = `tr${String(n).padStart(2, '0')}`;
      const source = n % 3 === 0 ? 'catalog' : 'mediaserver';
      await apply(
        registered('track', id),
        seen('track', id, source, `x-${id}`, {
          name: ODD[n % ODD.length]!, artist_id: 'ar1', artist_name: ODD[0]!, album_id: n % 2 ? 'al1' : 'al2', album_title: ODD[3]!,
          disc: 1, track_number: n, duration_ms: 123_456 + n, isrc: `IS${n}`,
          ...(n % 2 ? { audio_quality: { codec: 'flac', bit_depth: 24, sample_rate: 96_000, lossless: true } } : {}),
          ...(n % 4 === 0 ? { credits: { composer: [{ name: 'Jónsi', mbid: null, work: 'w' }], lyricist: [], writer: [] } } : {}),
        }),
      );
    }
    expect(await expectEveryRowCurrent()).to.equal(17);
    expect((await doc('tr01')).playable).to.equal(true);
    expect((await doc('tr03')).playable).to.equal(false);
  });

  it('given new facts, enrichment and audio features, then the rows they change hold their new JSON', async () => {
    await apply(
      observed('track', 'tr01', 'mediaserver', 'x-tr01', { name: 'Renamed "one"', disc: 2 }),
      stored('EntityEnriched', { kind: 'track', id: 'tr02', source: 'features', ref: null, facts: { feature_data: { bpm: 120.5, key: 'F# minor', moods: { happy: 1.5e-7, sad: 0.30000000000000004, relaxed: 1 }, genres: { rock: 0.1, jazz: 1e-21 } } }, at: at() }),
      stored('EntityEnriched', { kind: 'track', id: 'tr04', source: 'features', ref: null, facts: { feature_data: null }, at: at() }),
      stored('EntityEnriched', { kind: 'artist', id: 'ar1', source: 'discography', ref: null, facts: { discography: { albums: 2, tracks: 12, first_year: 1999, last_year: null } }, at: at() }),
      stored('EntityEnriched', { kind: 'album', id: 'al1', source: 'tags', ref: null, facts: { tags: ['post-rock'], moods: ['calm'], styles: [], unified_from: 3 }, at: at() }),
    );
    await expectEveryRowCurrent();
    expect((await doc('tr01')).title).to.equal('Renamed "one"');
    expect((await doc('tr02')).feature_data.moods.happy).to.equal(1.5e-7);
    expect((await doc('ar1')).discography).to.deep.equal({ albums: 2, tracks: 12, first_year: 1999, last_year: null });
  });

  it('given a ref unlinked, then the doc is no longer playable in its JSON', async () => {
    await apply(stored('RefUnlinked', { kind: 'track', id: 'tr05', source: 'mediaserver', external_id: 'x-tr05', at: at() }));
    await expectEveryRowCurrent();
    expect((await doc('tr05')).playable).to.equal(false);
  });

  it('given merges of albums and artists, then the tombstones and every row pointing at them hold their new JSON', async () => {
    await apply(
      stored('EntityMergedInto', { kind: 'album', id: 'al2', target_id: 'al1', at: at() }),
      stored('EntityAbsorbed', { kind: 'album', id: 'al1', source_id: 'al2', refs: [{ source: 'catalog', external_id: 'c-al2' }], at: at() }),
      stored('EntityMergedInto', { kind: 'artist', id: 'ar2', target_id: 'ar1', at: at() }),
      stored('EntityAbsorbed', { kind: 'artist', id: 'ar1', source_id: 'ar2', refs: [{ source: 'scrobbler', external_id: 'ar2' }], at: at() }),
    );
    await expectEveryRowCurrent();
    expect(await doc('al2')).to.include({ tombstoned: true, merged_into: 'al1', source_count: 0 });
    expect((await doc('tr02')).album_id).to.equal('al1');
    // A chain collapses: what was merged into the tombstone points at the end.
    await apply(stored('EntityMergedInto', { kind: 'album', id: 'al1', target_id: 'al3', at: at() }), stored('EntityAbsorbed', { kind: 'album', id: 'al3', source_id: 'al1', refs: [], at: at() }));
    await expectEveryRowCurrent();
    expect(await doc('al2')).to.include({ merged_into: 'al3' });
    expect((await doc('tr02')).album_id).to.equal('al3');
  });

  it('given merges undone, then the docs that stand again and the rows pointing back hold their new JSON', async () => {
    await apply(
      stored('EntityUnmerged', { kind: 'album', id: 'al1', target_id: 'al3', refs: [], returning: ['al2'], at: at() }),
      stored('EntityUnabsorbed', { kind: 'album', id: 'al3', source_id: 'al1', refs: [], enriched: [], at: at() }),
      stored('EntityUnmerged', { kind: 'artist', id: 'ar2', target_id: 'ar1', refs: [{ source: 'scrobbler', external_id: 'ar2', evidence: { rule: 'new_entity', value: null } }], returning: [], at: at() }),
      stored('EntityUnabsorbed', { kind: 'artist', id: 'ar1', source_id: 'ar2', refs: [{ source: 'scrobbler', external_id: 'ar2' }], enriched: [], at: at() }),
    );
    await expectEveryRowCurrent();
    expect(await doc('al1')).to.include({ tombstoned: false, merged_into: null });
    expect((await doc('ar2')).name).to.equal(ODD[1]);
  });

  it('with refs spliced in, then a doc is toDoc with its refs, key for key and in order', async () => {
    const refs = sql`(select coalesce(json_agg(json_build_object('source', r.source, 'external_id', r.external_id) order by r.source, r.external_id), '[]')
      from (values ('mediaserver', 'm-1'), ('catalog', 'c "2"')) as r(source, external_id) where canonical_docs.kind <> 'album')`;
    const docs = await database.db.selectFrom('canonical_docs').selectAll().select(withRefs(sql.ref('list_json'), refs).as('with_refs')).orderBy('id').execute();
    for (const { facts: _, list_json: __, with_refs, ...row } of docs) {
      const expected = toDoc(row, row.kind === 'album' ? [] : [{ source: 'catalog', external_id: 'c "2"' }, { source: 'mediaserver', external_id: 'm-1' }]);
      const parsed = JSON.parse(with_refs);
      expect(Object.keys(parsed), row.id).to.deep.equal(Object.keys(expected));
      expect(parsed, row.id).to.deep.equal(expected);
    }
  });
});
