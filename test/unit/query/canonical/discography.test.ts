import { expect } from 'chai';
import { bucketOf, fallbackCard, shelve } from '../../../../query/canonical/discography.ts';

const card = (primary: string | null, secondary: string[] = [], canonical = false) => ({ primary_type: primary, secondary_types: secondary, canonical });

describe('discography shelves', () => {
  it('puts compilations and live releases on their shelves whatever the primary type, then studio albums, EPs and singles', () => {
    expect(bucketOf(card('Album', ['Compilation', 'Live']))).to.equal('Compilations');
    expect(bucketOf(card('Single', ['Live']))).to.equal('Live');
    expect(bucketOf(card('Album'))).to.equal('Studio');
    expect(bucketOf(card('EP'))).to.equal('EPs & Singles');
    expect(bucketOf(card('Single'))).to.equal('EPs & Singles');
    expect(bucketOf(card('Album', ['Soundtrack']))).to.equal('Other');
    expect(bucketOf(card('Broadcast'))).to.equal('Other');
  });

  it('takes an untyped canonical album for a studio album, an untyped fallback for Other', () => {
    expect(bucketOf(card(null, [], true))).to.equal('Studio');
    expect(bucketOf(card(null))).to.equal('Other');
  });

  it('keeps the first card of each folded title, and drops untitled ones', () => {
    const shelves = shelve([
      fallbackCard('metabase', { title: 'Homework', primary_type: 'Album', year: 1997 }),
      fallbackCard('catalog', { title: 'HOMEWORK', primary_type: 'Album', year: 1997 }),
      fallbackCard('scrobbler', { title: '  ' }),
    ]);
    expect(shelves.flatMap((s) => s.items.map((c) => c.origin))).to.deep.equal(['metabase']);
  });
});
