import { expect } from 'chai';
import { ErrorEnvelope, RecentTracksAnswer, SessionAnswer, normalizeRecentTracks } from '../../../../../infra/upstreams/scrobbler/schemas.ts';
import { ScrobblerFailure, errorFromEnvelope } from '../../../../../infra/upstreams/scrobbler/errors.ts';
import { UpstreamNotFound } from '../../../../../shared/errors.ts';
import { fixtureJson } from '../../../../fakes/harness.ts';

const page = (file: string) => normalizeRecentTracks(RecentTracksAnswer.parse(fixtureJson('lastfm', file)));

describe('scrobbler recent tracks parsing', () => {
  it('reads the totals from @attr and one finished scrobble with its mbids', () => {
    const p = page('user.getRecentTracks.limit1.json');
    expect(p).to.include({ user: 'frikandel_', page: 1, perPage: 1, totalPages: 94618, total: 94618, nowPlaying: null });
    expect(p.scrobbles).to.deep.equal([
      {
        uts: 1603188238,
        artist: 'Tame Impala',
        album: 'Lonerism',
        track: 'Feels Like We Only Go Backwards',
        artist_mbid: '63aa26c3-d59b-4da4-84ac-716b54f1ef4d',
        album_mbid: '0d2cb66c-3a32-4f81-b977-9231c461c34a',
        track_mbid: '1587517a-9b2b-385a-b044-673fddf88004',
      },
    ]);
  });

  it('skips the now-playing row (no date) and reads the extended artist name', () => {
    const p = page('user.getRecentTracks.nowplaying.extended1.json');
    expect(p.nowPlaying).to.deep.equal({ artist: 'Tame Impala', track: 'Apocalypse Dreams' });
    expect(p.scrobbles.map((s) => [s.uts, s.artist, s.track, s.artist_mbid])).to.deep.equal([[1603186824, 'Tame Impala', 'Endors Toi', null]]);
  });

  it('accepts a single scrobble collapsed into an object', () => {
    const p = page('legacy-2014.user.getRecentTracks.limit1-single-object.json');
    expect(p.total).to.equal(76536);
    expect(p.scrobbles).to.have.length(1);
    expect(p.scrobbles[0]).to.include({ uts: 1419070612, artist: 'Rick James', track_mbid: null });
    const extended = page('legacy-2018.user.getRecentTracks.extended-single-object.json');
    expect(extended.scrobbles[0]).to.include({ artist: 'Republika', album: 'Koncerty w Trojce - Republika', album_mbid: null });
  });

  it('reads an empty history whose totals sit beside the text node', () => {
    const p = page('legacy-2014.user.getRecentTracks.empty.json');
    expect(p).to.include({ total: 0, totalPages: 0, user: 'RT' });
    expect(p.scrobbles).to.deep.equal([]);
  });
});

describe('scrobbler error envelopes', () => {
  const envelope = (file: string) => ErrorEnvelope.parse(fixtureJson('lastfm', file));

  it('tells "nothing there" (6) apart from a failure', () => {
    const e = envelope('error.6-user-not-found.json');
    expect(errorFromEnvelope(e.error, e.message)).to.be.instanceOf(UpstreamNotFound);
    const bad = envelope('error.4-bad-auth.json');
    const failure = errorFromEnvelope(bad.error, bad.message);
    expect(failure).to.be.instanceOf(ScrobblerFailure);
    expect(failure).to.include({ code: 4, retryable: false, authRejected: true, status: 502 });
  });

  it('marks 8, 11, 16 and 29 retryable and nothing else', () => {
    const retryable = [3, 4, 6, 8, 11, 13, 16, 17, 26, 29].filter((code) => {
      const error = errorFromEnvelope(code, 'x');
      return error instanceof ScrobblerFailure && error.retryable;
    });
    expect(retryable).to.deep.equal([8, 11, 16, 29]);
  });

  it('does not take an answer for an envelope', () => {
    expect(ErrorEnvelope.safeParse(fixtureJson('lastfm', 'user.getRecentTracks.limit1.json')).success).to.equal(false);
    expect(SessionAnswer.parse({ session: { name: 'RJ', key: 'd580d57f32848f5dcf574d1ce18d78b2', subscriber: 0 } }).session.key).to.have.length(32);
  });
});

describe('scrobbler item info parsing', () => {
  it('reads album.getInfo: name, artist, mbid and the largest cover', async () => {
    const { AlbumInfoAnswer, normalizeAlbumInfo } = await import('../../../../../infra/upstreams/scrobbler/schemas.ts');
    const info = normalizeAlbumInfo(AlbumInfoAnswer.parse(fixtureJson('lastfm', 'album.getInfo.Cher-Believe.json')));
    expect(info).to.include({ artist: 'Cher', name: 'Believe', mbid: '03c91c40-49a6-44a7-90e7-a700edf97a62' });
    expect(info.cover_url).to.match(/^https:\/\/.+\.png$/);
  });

  it('reads track.getInfo with its album and a duration in milliseconds; an unknown track is a stub', async () => {
    const { TrackInfoAnswer, normalizeTrackInfo } = await import('../../../../../infra/upstreams/scrobbler/schemas.ts');
    const info = normalizeTrackInfo(TrackInfoAnswer.parse(fixtureJson('lastfm', 'track.getInfo.with-username.json')));
    expect(info).to.include({ artist: 'Linkin Park', name: 'One Step Closer', album: 'Road To Revolution: Live at Milton Keynes', duration_ms: 157000 });
    expect(info.artist_mbid).to.equal('f59c5520-5f46-4d2c-b2c4-822eabf53419');
    const stub = normalizeTrackInfo(TrackInfoAnswer.parse(fixtureJson('lastfm', 'track.getInfo.unknown-track.json')));
    expect(stub).to.include({ name: 'Fake Track', mbid: null, album: null, duration_ms: null });
  });
});
