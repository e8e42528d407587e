import { expect } from 'chai';
import { fixtureJson } from '../../../../fakes/harness.ts';
import { pickerRows, upstreamPage } from '../../../../../infra/upstreams/scrobbler/picker.ts';

describe('scrobbler picker rows', () => {
  it('reads the recorded artist.search answer, dropping the placeholder picture', () => {
    const rows = pickerRows('artist', fixtureJson('lastfm', 'artist.search.json'));
    expect(rows).to.deep.equal([{ external_id: 'rammstein', title: 'Rammstein', subtitle: '1,913,191 listeners', thumbnail: null }]);
  });

  it('reads a one-match list collapsed into an object, and an empty list sent as a string', () => {
    const one = { results: { albummatches: { album: { name: 'Believe', artist: 'Cher', image: [{ size: 'large', '#text': 'https://x/1.png' }] } } } };
    expect(pickerRows('album', one)).to.deep.equal([{ external_id: 'Cher::Believe', title: 'Believe', subtitle: 'Cher', thumbnail: 'https://x/1.png' }]);
    expect(pickerRows('track', { results: { trackmatches: { track: '\n' } } })).to.deep.equal([]);
    expect(pickerRows('track', { results: {} })).to.deep.equal([]);
  });

  it('pages as offset // limit + 1', () => {
    expect(upstreamPage(0, 20)).to.equal(1);
    expect(upstreamPage(19, 20)).to.equal(1);
    expect(upstreamPage(20, 20)).to.equal(2);
    expect(upstreamPage(25, 10)).to.equal(3);
  });
});
