import { expect } from 'chai';
import { composeDoc } from '../../../../shared/canonical/compose-doc.ts';

describe('composing a canonical doc', () => {
  it('takes each field from the highest-priority source that has it, and unions genres', () => {
    const doc = composeDoc(
      [
        { source: 'scrobbler', facts: { name: 'the beatles', genres: ['Rock'] } },
        { source: 'catalog', facts: { name: 'Beatles', year: 1969, cover_url: 'c.jpg', genres: ['Pop', 'rock'] } },
        { source: 'mediaserver', facts: { name: 'The Beatles' } },
      ],
      ['scrobbler', 'catalog', 'mediaserver'],
    );
    expect(doc).to.include({ name: 'The Beatles', name_folded: 'beatles', year: 1969, cover_url: 'c.jpg', source_count: 3 });
    expect(doc.genres).to.deep.equal(['pop', 'rock']);
    expect(doc.sources).to.include({ mediaserver: true, catalog: true, scrobbler: true, streamer: false });
  });

  it('counts a linked source without facts yet', () => {
    const doc = composeDoc([{ source: 'metabase', facts: {} }], ['metabase']);
    expect(doc).to.include({ name: null, source_count: 1 });
  });
});
