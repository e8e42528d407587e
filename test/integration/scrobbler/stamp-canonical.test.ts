import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { canonicalStamper } from '../../../command/scrobbler/stamp-canonical.ts';
import { oneByOneStamper } from '../../../command/scrobbler/stamp-one-by-one.ts';
import type { ScrobbleRow } from '../../../infra/upstreams/scrobbler/schemas.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';

const row = (artist: string, track: string, album: string | null, mbids: Partial<Pick<ScrobbleRow, 'artist_mbid' | 'album_mbid' | 'track_mbid'>> = {}): ScrobbleRow => ({
  uts: 1_700_000_000,
  artist,
  album,
  track,
  artist_mbid: null,
  album_mbid: null,
  track_mbid: null,
  ...mbids,
});

/** Two pages that meet known refs, name-key matches, case variants, missing albums and repeats. */
const PAGES: ScrobbleRow[][] = [
  [
    row('Portishead', 'Roads', 'Dummy'),
    row('Cher', 'Believe', 'Believe', { artist_mbid: 'mb-cher', album_mbid: 'mb-believe' }),
    row('cher', 'Believe', 'Believe'),
    row('Portishead', 'Sour Times', 'Dummy', { track_mbid: 'mb-sour' }),
    row('', 'Nameless', null),
    row('Cher', 'Strong Enough', null),
    row('Portishead', 'Roads', 'Dummy'),
  ],
  [
    row('Cher', 'Believe', 'Believe'),
    row('Portishead', 'Glory Box', 'Dummy'),
    row('Massive Attack', 'Teardrop', 'Mezzanine'),
    row('Cher', 'Strong Enough', 'Believe'),
  ],
];

/** What both apps hold before the import: a mediaserver artist and album the scrobbler names too. */
async function seed(app: TestApp) {
  const artist = { source: 'mediaserver' as const, kind: 'artist' as const, external_id: 'mediaserver::srv::1', facts: { name: 'Portishead' } };
  await reconcile(app.ctx, { source: 'mediaserver', kind: 'album', external_id: 'mediaserver::srv::2', facts: { name: 'Dummy' }, artist });
  await reconcile(app.ctx, { source: 'scrobbler', kind: 'track', external_id: 'Portishead::Roads', facts: { name: 'Roads' } });
}

/** The canonical layer and the stamps with each id replaced by its entity's first ref, so that two apps compare. */
async function snapshot(app: TestApp, stamps: unknown) {
  const refs = await app.ctx.db.selectFrom('external_refs').selectAll().orderBy('kind').orderBy('source').orderBy('external_id').execute();
  const label = new Map<string, string>();
  for (const r of refs) if (!label.has(r.entity_id)) label.set(r.entity_id, `${r.kind}/${r.source}/${r.external_id}`);
  const relabel = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/[0-9A-HJKMNP-TV-Z]{26}/g, (id) => label.get(id) ?? `unlabelled ${id}`));
  const docs = await app.ctx.db.selectFrom('canonical_docs').select(['id', 'kind', 'name', 'artist_id', 'album_id', 'mbid', 'sources', 'facts']).orderBy('kind').execute();
  return relabel({
    stamps,
    refs: refs.map((r) => ({ ref: `${r.kind}/${r.source}/${r.external_id}`, entity: r.entity_id, evidence: r.evidence })),
    docs: docs.map((d) => ({ ...d, label: label.get(d.id) })).sort((a, b) => String(a.label).localeCompare(String(b.label))),
  });
}

describe('scrobble stamping: one batch per page', () => {
  let oneByOne: TestApp;
  let batched: TestApp;
  before(async () => {
    oneByOne = await startTestApp();
    batched = await startTestApp();
  });
  after(async () => {
    await oneByOne.close();
    await batched.close();
  });

  it('given the same canonical layer, then a page batch yields the same entities, evidence, facts and stamps as one ref at a time', async () => {
    await seed(oneByOne);
    await seed(batched);
    const single = oneByOneStamper(oneByOne.ctx, 'alice');
    const expected = [];
    for (const page of PAGES) for (const r of page) expected.push(await single(r));
    const stampPage = canonicalStamper(batched.ctx, 'alice');
    const actual = [];
    for (const page of PAGES) actual.push(...(await stampPage(page)));
    expect(actual.filter((s) => s.canonical_track_id).length).to.equal(10);
    expect(await snapshot(batched, actual)).to.deep.equal(await snapshot(oneByOne, expected));
  });

  it('given a page whose refs are all known, then stamping it appends nothing', async () => {
    const before = await batched.ctx.store.headPosition();
    const stamps = await canonicalStamper(batched.ctx, 'alice')(PAGES[1]!);
    expect(stamps.every((s) => s.canonical_artist_id && s.canonical_track_id)).to.equal(true);
    expect(await batched.ctx.store.headPosition()).to.deep.equal(before);
  });
});
