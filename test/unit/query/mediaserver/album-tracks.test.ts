import { expect } from 'chai';
import { titleMatchKey } from '../../../../query/mediaserver/album-tracks.ts';
import { parseMediaserverRef } from '../../../../projectors/mediaserver/playback.reads.ts';

describe('mediaserver album-tracks keys', () => {
  it('given titles with qualifiers, when keyed loosely, then brackets, dash tails and featured artists drop', () => {
    expect(titleMatchKey('Try It Out (Neon mix)')).to.equal('try it out');
    expect(titleMatchKey('Song - Live at Wembley')).to.equal('song');
    expect(titleMatchKey('Song feat. Somebody')).to.equal('song');
    expect(titleMatchKey('Beyoncé [Bonus Track]')).to.equal('beyonce');
  });

  it('given a title that is only a qualifier, when keyed loosely, then it keeps its words', () => {
    expect(titleMatchKey('(Intro)')).to.equal('intro');
  });

  it('given mediaserver external ids, when parsed, then server and rating key come apart; other shapes do not parse', () => {
    expect(parseMediaserverRef('mediaserver::abc123::158')).to.deep.equal({ serverId: 'abc123', ratingKey: '158' });
    expect(parseMediaserverRef('scrobbler::x')).to.equal(undefined);
  });
});
