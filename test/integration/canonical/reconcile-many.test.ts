import { expect } from 'chai';
import type { Observation } from '../../../command/canonical/observation.ts';
import { reconcile, reconcileMany } from '../../../command/canonical/reconciler.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { hashedId } from '../../../shared/ids.ts';
import { refClaimStream } from '../../../shared/streams.ts';

/** What both apps are given before the batch: refs, identifiers and names to match against. */
function seed(): Observation[] {
  const beatles = artistSeen('mediaserver', 'mediaserver::srv::1', 'The Beatles', { mbid: 'mb-beatles' });
  const abbey = albumSeen('mediaserver', 'mediaserver::srv::2', 'Abbey Road', beatles, { upc: 'UPC-ABBEY', genres: ['Rock'] });
  return [
    trackSeen('mediaserver', 'mediaserver::srv::3', 'Come Together', beatles, abbey, { isrc: 'ISRC-CT', disc: 1, track_number: 1 }),
    artistSeen('metabase', 'mb-nirvana-1', 'Nirvana', { mbid: 'mb-nirvana-1' }),
  ];
}

/** A batch that walks every matching rule, several of them against entities the batch itself creates. */
function mixedBatch(): Observation[] {
  const beatlesCat = artistSeen('catalog', 'c-1', 'Beatles');
  const abbeyCat = albumSeen('catalog', 'c-2', 'Abbey Road (Remastered)', beatlesCat, { upc: 'UPC-ABBEY' });
  const scArtist = artistSeen('scrobbler', 'the beatles', 'the beatles');
  const newArtist = artistSeen('catalog', 'c-10', 'Khruangbin');
  const newAlbumCat = albumSeen('catalog', 'c-11', 'Con Todo El Mundo', newArtist, { upc: 'UPC-CTEM' });
  const newAlbumMs = albumSeen('mediaserver', 'mediaserver::srv::11', 'Con Todo El Mundo [Deluxe Edition]', artistSeen('mediaserver', 'mediaserver::srv::10', 'Khruangbin'));
  return [
    artistSeen('mediaserver', 'mediaserver::srv::1', 'The Beatles', { mbid: 'mb-beatles' }), // existing ref, same facts
    trackSeen('catalog', 'c-3', 'Come Together - Remastered 2009', beatlesCat, abbeyCat, { isrc: 'ISRC-CT', preview_url: 'https://p/1.mp3' }), // isrc, upc, name key
    artistSeen('metabase', 'mb-beatles', 'The Beatles', { mbid: 'mb-beatles' }), // mbid
    trackSeen('scrobbler', 'the beatles::Come Together', 'Come Together', scArtist, albumSeen('scrobbler', 'the beatles::Abbey Road', 'Abbey Road', scArtist)),
    artistSeen('metabase', 'mb-nirvana-2', 'Nirvana', { mbid: 'mb-nirvana-2' }), // conflict guard: a second Nirvana
    artistSeen('scrobbler', 'nirvana', 'nirvana'), // name key: the first Nirvana
    trackSeen('catalog', 'c-12', 'Maria También', newArtist, newAlbumCat, { isrc: 'ISRC-MT' }), // all new
    trackSeen('mediaserver', 'mediaserver::srv::12', 'Maria Tambien', artistSeen('mediaserver', 'mediaserver::srv::10', 'Khruangbin'), newAlbumMs, { disc: 1, track_number: 2 }), // name keys on what the batch created
    artistSeen('metabase', 'mb-nirvana-2', 'Nirvana', { mbid: 'mb-nirvana-2', cover_url: 'https://c/n.jpg' }), // a ref claimed earlier in the batch, new facts
    artistSeen('streamer', 's-1', 'Nirvana', { mbid: 'mb-nirvana-3' }), // conflicts with both: a third
    artistSeen('streamer', 's-2', 'nirvana'), // name key: the oldest Nirvana
  ];
}

/** The app's canonical layer with each id replaced by its entity's first ref, so that two apps compare. */
async function snapshot(app: TestApp, ids: string[]) {
  const refs = await app.ctx.db.selectFrom('external_refs').selectAll().orderBy('kind').orderBy('source').orderBy('external_id').execute();
  const label = new Map<string, string>();
  for (const r of refs) if (!label.has(r.entity_id)) label.set(r.entity_id, `${r.kind}/${r.source}/${r.external_id}`);
  const relabel = (text: string) => text.replace(/[0-9A-HJKMNP-TV-Z]{26}/g, (id) => label.get(id) ?? `unlabelled ${id}`);
  const l = (id: string | null) => (id ? relabel(id) : null);
  const docs = await app.ctx.db.selectFrom('canonical_docs').selectAll().execute();
  const events = await app.ctx.store.readAll({ maxCount: 100_000 });
  return {
    results: ids.map(l),
    docs: docs
      .map((d) => ({ id: l(d.id), kind: d.kind, name: d.name, artist_id: l(d.artist_id), album_id: l(d.album_id), isrc: d.isrc, upc: d.upc, mbid: d.mbid, sources: d.sources, source_count: d.source_count, facts: JSON.parse(relabel(JSON.stringify(d.facts))) }))
      .sort((a, b) => a.id!.localeCompare(b.id!)),
    refs: refs.map((r) => ({ ref: `${r.kind}/${r.source}/${r.external_id}`, entity: l(r.entity_id), evidence: r.evidence })),
    eventTypes: events.map((e) => e.type).filter((t) => t !== 'UserRegistered').sort(),
  };
}

describe('reconcileMany', () => {
  let oneByOne: TestApp;
  let batched: TestApp;
  before(async () => {
    [oneByOne, batched] = [await startTestApp(), await startTestApp()];
  });
  after(async () => {
    await oneByOne.close();
    await batched.close();
  });

  it('given the same seed, when a mixed batch is reconciled at once, then ids, docs, refs, evidence and events equal one reconcile after another', async () => {
    const seededA: string[] = [];
    for (const o of seed()) seededA.push(await reconcile(oneByOne.ctx, o));
    const seededB = await reconcileMany(batched.ctx, seed());
    const singleIds: string[] = [];
    for (const o of mixedBatch()) singleIds.push(await reconcile(oneByOne.ctx, o));
    const batchIds = await reconcileMany(batched.ctx, mixedBatch());

    const [a, b] = [await snapshot(oneByOne, [...seededA, ...singleIds]), await snapshot(batched, [...seededB, ...batchIds])];
    expect(b.results).to.deep.equal(a.results);
    expect(b.refs).to.deep.equal(a.refs);
    expect(b.docs).to.deep.equal(a.docs);
    expect(b.eventTypes).to.deep.equal(a.eventTypes);

    // The rules fired as the issue orders them: the mixed batch reached every one.
    const rules = new Set(a.refs.map((r) => (r.evidence as { rule: string }).rule));
    expect([...rules].sort()).to.deep.equal(['isrc', 'mbid', 'name_key', 'new_entity', 'upc']);
    // results: the two seed observations, then the batch in order.
    const nirvanas = new Set([a.results[1], a.results[6], a.results[11]]);
    expect(nirvanas.size, 'three Nirvanas kept apart by their metabase ids').to.equal(3);
    expect(a.results[7]).to.equal(a.results[1]);
    expect(a.results[12]).to.equal(a.results[1]);
    expect(a.results[9]).to.equal(a.results[8]);
  });

  it('when the same batch comes again, then it changes nothing and answers the same ids', async () => {
    // Without the observation that changes a ref's facts within the batch (it flips back and forth on every run).
    const steady = () => mixedBatch().filter((_, i) => i !== 8);
    const first = await reconcileMany(batched.ctx, steady());
    const before = await batched.ctx.store.headPosition();
    const again = await reconcileMany(batched.ctx, steady());
    expect(again).to.deep.equal(first);
    expect(await batched.ctx.store.headPosition()).to.deep.equal(before);
  });

  it('when a ref was claimed by a writer the read model has not seen yet, then the batch conflicts, reads the claim and joins its owner', async () => {
    const theirs = await reconcile(batched.ctx, artistSeen('releasedb', 'r-0', 'Portishead'));
    // Another process claimed r-1 for that entity and has not linked it yet: no external_refs row.
    await batched.ctx.store.append(refClaimStream('artist', 'releasedb', hashedId('r-1')), [
      { type: 'RefClaimed', data: { kind: 'artist', source: 'releasedb', external_id: 'r-1', entity_id: theirs, at: new Date().toISOString() } },
    ], 'no_stream');
    const ids = await reconcileMany(batched.ctx, [artistSeen('releasedb', 'r-1', 'Portishead'), artistSeen('features', 'f-1', 'Portishead')]);
    expect(ids).to.deep.equal([theirs, theirs]);
  });
});
