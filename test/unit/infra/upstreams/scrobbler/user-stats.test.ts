import { expect } from 'chai';
import { fixtureJson } from '../../../../fakes/harness.ts';
import { emptyUserStats, userStatsOf } from '../../../../../infra/upstreams/scrobbler/user-stats.ts';
import { cacheKey } from '../../../../../infra/upstreams/scrobbler/proxy-cache.ts';

describe('scrobbler user stats from getInfo', () => {
  it('reads string counts of track.getInfo with a username, and its loved flag', () => {
    const stats = userStatsOf('track', fixtureJson('lastfm', 'track.getInfo.with-username.json'), { artist: 'Linkin Park', name: 'One Step Closer' });
    expect(stats).to.include({ user_playcount: 36, user_loved: false, playcount: 11022708, listeners: 1315650 });
  });

  it('reads numeric counts of album.getInfo, and an artist answer without a user count as zero plays', () => {
    expect(userStatsOf('album', fixtureJson('lastfm', 'album.getInfo.Cher-Believe.json'), { artist: 'Cher', name: 'Believe' })).to.include({ user_playcount: 0, user_loved: null });
    const artist = userStatsOf('artist', fixtureJson('lastfm', 'artist.getInfo.U2.json'), { artist: 'U2' });
    expect(artist).to.include({ user_playcount: 0, listeners: 3623538, name: null });
  });

  it('answers undefined for a shape without the object, and zeros without a link', () => {
    expect(userStatsOf('track', { error: 6 }, { artist: 'a', name: 'b' })).to.equal(undefined);
    expect(emptyUserStats('track', { artist: 'a', name: 'b' })).to.include({ user_playcount: 0, user_loved: false, listeners: null });
  });
});

describe('scrobbler cache key', () => {
  it('ignores parameter order and method case, and tells different values apart', () => {
    expect(cacheKey('artist.getInfo', { artist: 'U2', autocorrect: '0' })).to.equal(cacheKey('ARTIST.GETINFO', { autocorrect: '0', artist: 'U2' }));
    expect(cacheKey('artist.getInfo', { artist: 'U2' })).not.to.equal(cacheKey('artist.getInfo', { artist: 'u2 ' }));
  });
});
