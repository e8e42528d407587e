import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { DAY, type Play, givenScrobblerLink, givenScrobblerUnlinked, givenScrobbles, givenScrobblesDeleted, nowUts } from '../../support/scrobbles.ts';

/** Noon UTC `daysAgo` days before today: far from day edges, so windows and streaks are unambiguous. */
const noon = (daysAgo: number) => (Math.floor(nowUts() / DAY) - daysAgo) * DAY + 12 * 3600;
const plays = (n: number, p: Omit<Play, 'uts'>, uts: (i: number) => number): Play[] => Array.from({ length: n }, (_, i) => ({ ...p, uts: uts(i) }));

describe('the scrobbler dashboard', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('given a user without a scrobbler link', () => {
    let client: ApiClient;
    before(async () => {
      client = (await signedInAs(app, 'viewer')).client;
    });

    it('when the dashboard is read, then its state is no_scrobbler', async () => {
      const res = await client.get('/scrobbler/me/dashboard');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ state: 'no_scrobbler', window_days: null });
    });

    it('then every listening view answers an empty result, not an error', async () => {
      for (const path of ['/scrobbler/me/dashboard/heatmap-cell?dow=0&hour=0', '/scrobbler/me/rediscover', '/scrobbler/me/new-artists']) {
        const res = await client.get(path);
        expect(res.status, path).to.equal(200);
        expect(res.body, path).to.deep.equal([]);
      }
      const stats = await client.get('/me/stats/artists/01HZZZZZZZZZZZZZZZZZZZZZZZ');
      expect(stats.status).to.equal(200);
      expect(stats.body).to.include({ plays: 0, rank: null, first_played_at: null });
    });
  });

  describe('given a linked user with nothing imported yet', () => {
    it('when the dashboard is read, then its state is no_scrobbles', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, username, `${username}-fm`);
      const res = await client.get('/scrobbler/me/dashboard?window_days=7');
      expect(res.body).to.deep.equal({ state: 'no_scrobbles', window_days: 7 });
    });
  });

  describe('given a history spread over recent and old days', () => {
    let client: ApiClient;
    let username: string;
    before(async () => {
      ({ client, username } = await signedInAs(app, 'viewer'));
      await givenScrobblerLink(app, username, 'Listener-One');
      await givenScrobbles(
        app,
        username,
        [
          // Recent: artist A on the last three days (a current streak of 3).
          ...plays(3, { artist: 'Artist A', album: 'Album A', track: 'Song A1', artistId: 'ART-A', albumId: 'ALB-A', trackId: 'TRK-A1' }, (i) => noon(i)),
          { artist: 'Artist A', album: 'Album A', track: 'Song A2', artistId: 'ART-A', albumId: 'ALB-A', trackId: 'TRK-A2', uts: noon(1) + 60 },
          // Old: artist B on five consecutive days, 60 to 56 days ago (the longest streak).
          ...plays(5, { artist: 'Artist B', album: 'Album B', track: 'Song B1', artistId: 'ART-B', albumId: 'ALB-B', trackId: 'TRK-B1' }, (i) => noon(60 - i)),
          ...plays(5, { artist: 'Artist B', album: 'Album B', track: 'Song B1', artistId: 'ART-B', albumId: 'ALB-B', trackId: 'TRK-B1' }, (i) => noon(60 - i) + 1800),
          // Invalid: never counted.
          { artist: 'Ghost', track: 'Zero', uts: 0 },
          { artist: 'Ghost', track: 'Too old', uts: Date.UTC(2001, 5, 1) / 1000 },
          { artist: 'Ghost', track: 'Future', uts: nowUts() + 3 * DAY },
        ],
        'Listener-One',
      );
    });

    it('when the dashboard is read for all time, then totals, streaks, top lists and mirror cover every valid scrobble', async () => {
      const res = await client.get('/scrobbler/me/dashboard');
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(body.state).to.equal('ready');
      expect(body.window_days).to.equal(null);
      expect(body.totals).to.deep.equal({ scrobbles: 14, artists: 2, albums: 2, tracks: 3 });
      expect(body.streak).to.include({ current_days: 3, longest_days: 5 });
      expect(body.top_artists.map((a: { canonical_id: string; plays: number }) => [a.canonical_id, a.plays])).to.deep.equal([['ART-B', 10], ['ART-A', 4]]);
      expect(body.top_tracks[0]).to.deep.include({ canonical_id: 'TRK-B1', name: 'Song B1', artist_name: 'Artist B', plays: 10 });
      expect(body.new_artists).to.equal(2);
      expect(body.mirror).to.include({ scrobbler_username: 'Listener-One', scrobbles: 14, invalid_scrobbles: 3 });
      expect(body.latest_scrobbles[0]).to.include({ track: 'Song A1', canonical_track_id: 'TRK-A1', uts: noon(0) });
      expect(body.plays_per_day).to.have.length(8);
      expect(body.heatmap.flat().reduce((a: number, b: number) => a + b, 0)).to.equal(14);
    });

    it('when the dashboard is read with window_days, then time-scoped sections cover the window only', async () => {
      const body = (await client.get('/scrobbler/me/dashboard?window_days=30')).body;
      expect(body.window_days).to.equal(30);
      expect(body.top_artists.map((a: { canonical_id: string }) => a.canonical_id)).to.deep.equal(['ART-A']);
      expect(body.top_albums).to.deep.equal([{ canonical_id: 'ALB-A', name: 'Album A', artist_name: 'Artist A', plays: 4 }]);
      expect(body.new_artists).to.equal(1);
      expect(body.plays_per_day.map((d: { plays: number }) => d.plays)).to.deep.equal([1, 2, 1]);
      expect(body.heatmap[0]).to.have.length(24);
      expect(body.heatmap.flat().reduce((a: number, b: number) => a + b, 0)).to.equal(4);
      // Not time-scoped.
      expect(body.totals.scrobbles).to.equal(14);
      expect(body.streak.longest_days).to.equal(5);
    });

    it('when the window is zero or negative, then it means all time', async () => {
      for (const w of [0, -3]) {
        const body = (await client.get(`/scrobbler/me/dashboard?window_days=${w}`)).body;
        expect(body.window_days).to.equal(null);
        expect(body.top_artists).to.have.length(2);
      }
    });

    it('when new artists are asked for, then only those first played in the window come, with their tracks', async () => {
      const res = await client.get('/scrobbler/me/new-artists');
      expect(res.status).to.equal(200);
      expect(res.body).to.have.length(1);
      expect(res.body[0]).to.include({ canonical_id: 'ART-A', name: 'Artist A', plays: 4 });
      expect(res.body[0].tracks.map((t: { canonical_id: string; plays: number }) => [t.canonical_id, t.plays])).to.deep.equal([['TRK-A1', 3], ['TRK-A2', 1]]);
      const one = await client.get('/scrobbler/me/new-artists?window_days=0&tracks_per_artist=1');
      expect(one.body.map((a: { canonical_id: string }) => a.canonical_id)).to.deep.equal(['ART-B', 'ART-A']);
      expect(one.body[1].tracks).to.have.length(1);
    });

    it('when rediscover is asked for, then heavily played tracks not played lately come, by all-time plays', async () => {
      const res = await client.get('/scrobbler/me/rediscover?not_played_days=30');
      expect(res.body.map((t: { canonical_id: string }) => t.canonical_id)).to.deep.equal(['TRK-B1']);
      expect(res.body[0]).to.include({ plays: 10, canonical_artist_id: 'ART-B' });
      expect((await client.get('/scrobbler/me/rediscover')).body).to.deep.equal([]);
    });

    it('when entity stats are read, then plays, first and last play, months and rank come from the mirror', async () => {
      const res = await client.get('/me/stats/artists/ART-A');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ kind: 'artist', canonical_id: 'ART-A', plays: 4, rank: 2, ranked_among: 2 });
      expect(res.body.first_played_at).to.equal(new Date(noon(2) * 1000).toISOString());
      expect(res.body.last_played_at).to.equal(new Date(noon(0) * 1000).toISOString());
      expect(res.body.plays_by_month.reduce((n: number, m: { plays: number }) => n + m.plays, 0)).to.equal(4);
      const track = (await client.get('/me/stats/tracks/TRK-B1')).body;
      expect(track).to.include({ plays: 10, rank: 1 });
      expect((await client.get('/me/stats/albums/ALB-B')).body.plays).to.equal(10);
    });

    it('then another user sees none of it', async () => {
      const other = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, other.username, 'someone-else');
      expect((await other.client.get('/scrobbler/me/dashboard')).body.state).to.equal('no_scrobbles');
      expect((await other.client.get('/scrobbler/me/new-artists?window_days=0')).body).to.deep.equal([]);
      expect((await other.client.get('/me/stats/artists/ART-A')).body.plays).to.equal(0);
    });
  });

  describe('given scrobbles an admin then deletes', () => {
    it('when the dashboard is read, then the deleted ones no longer count anywhere', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, username, username);
      const made = await givenScrobbles(app, username, [
        { artist: 'D', track: 'd1', artistId: 'ART-D', trackId: 'TRK-D1', uts: noon(2) },
        { artist: 'D', track: 'd1', artistId: 'ART-D', trackId: 'TRK-D1', uts: noon(1) },
        { artist: 'E', track: 'e1', artistId: 'ART-E', trackId: 'TRK-E1', uts: noon(0) },
      ]);
      await givenScrobblesDeleted(app, username, [made[1]!.scrobble_id, made[2]!.scrobble_id]);
      const body = (await client.get('/scrobbler/me/dashboard')).body;
      expect(body.totals).to.deep.equal({ scrobbles: 1, artists: 1, albums: 0, tracks: 1 });
      expect(body.streak).to.include({ current_days: 0, longest_days: 1 });
      expect(body.plays_per_day).to.have.length(1);
      expect(body.top_artists.map((a: { canonical_id: string }) => a.canonical_id)).to.deep.equal(['ART-D']);
      const stats = (await client.get('/me/stats/artists/ART-D')).body;
      expect(stats).to.include({ plays: 1, last_played_at: new Date(noon(2) * 1000).toISOString() });
    });
  });

  describe('given an all-time dashboard already read', () => {
    it('when scrobbles are imported and then deleted, then each read of plays per day shows the history as it is', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, username, username);
      const day = (daysAgo: number) => new Date(noon(daysAgo) * 1000).toISOString().slice(0, 10);
      const perDay = async () => (await client.get('/scrobbler/me/dashboard')).body.plays_per_day;
      await givenScrobbles(app, username, [{ artist: 'H', track: 'h1', uts: noon(3) }]);
      expect(await perDay()).to.deep.equal([{ date: day(3), plays: 1 }]);
      expect(await perDay()).to.deep.equal([{ date: day(3), plays: 1 }]);

      const made = await givenScrobbles(app, username, [
        { artist: 'H', track: 'h2', uts: noon(3) + 60 },
        { artist: 'H', track: 'h3', uts: noon(1) },
      ]);
      expect(await perDay()).to.deep.equal([{ date: day(3), plays: 2 }, { date: day(1), plays: 1 }]);

      await givenScrobblesDeleted(app, username, [made[1]!.scrobble_id]);
      expect(await perDay()).to.deep.equal([{ date: day(3), plays: 2 }]);
    });
  });

  describe('given a user who unlinks', () => {
    it('when the dashboard is read, then its state is no_scrobbler again', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, username, username);
      await givenScrobbles(app, username, [{ artist: 'F', track: 'f', uts: noon(1) }]);
      expect((await client.get('/scrobbler/me/dashboard')).body.state).to.equal('ready');
      await givenScrobblerUnlinked(app, username);
      expect((await client.get('/scrobbler/me/dashboard')).body.state).to.equal('no_scrobbler');
    });

    it('when they link another scrobbler account, then the old account\'s scrobbles do not show', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobblerLink(app, username, 'first-account');
      await givenScrobbles(app, username, [{ artist: 'G', track: 'g', uts: noon(1) }], 'first-account');
      await givenScrobblerLink(app, username, 'second-account');
      expect((await client.get('/scrobbler/me/dashboard')).body.state).to.equal('no_scrobbles');
      await givenScrobblerLink(app, username, 'FIRST-account');
      expect((await client.get('/scrobbler/me/dashboard')).body.totals.scrobbles).to.equal(1);
    });
  });
});
