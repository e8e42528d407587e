import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkThroughBrowser } from '../../support/scrobbler.ts';
import { type ScrobblerFake, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { liveState } from '../../fakes/scrobbler/live-state.ts';

describe('scrobbler me reads: profile, top lists, weekly charts, stats', () => {
  let fake: ScrobblerFake;
  let app: TestApp;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('RJ', listHistory([]));
    app = await startTestApp(fake.env);
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  const calls = (method: string) => fake.requests.filter((r) => r.query.method === method);
  const linked = async () => {
    const user = await signedInAs(app, 'viewer');
    expect((await linkThroughBrowser(user.client, fake, 'RJ')).status).to.equal(302);
    fake.requests.length = 0;
    return user.client;
  };

  describe('given a caller without a scrobbler link', () => {
    it('answers the empty envelopes, and never asks the scrobbler', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const top = await client.get('/scrobbler/me/top-artists?limit=10');
      expect(top.status).to.equal(200);
      expect(top.body.topartists.artist).to.deep.equal([]);
      expect(top.body.topartists['@attr']).to.include({ total: '0', perPage: '10', page: '1' });
      expect((await client.get('/scrobbler/me/info')).body).to.deep.equal({ user: null });
      expect((await client.get('/scrobbler/me/loved-tracks')).body.lovedtracks.track).to.deep.equal([]);
      expect((await client.get('/scrobbler/me/charts/list')).body.weeklychartlist.chart).to.deep.equal([]);
      const week = await client.get('/scrobbler/me/charts/1700000000/1700604800/tracks');
      expect(week.body.weeklytrackchart).to.deep.include({ track: [] });
      const stats = await client.get('/scrobbler/me/tracks/Queen/Bohemian%20Rhapsody/stats');
      expect(stats.status).to.equal(200);
      expect(stats.body).to.include({ kind: 'track', artist: 'Queen', name: 'Bohemian Rhapsody', user_playcount: 0 });
      expect(fake.requests).to.deep.equal([]);
    });
  });

  describe('given a linked caller', () => {
    it('asks with the linked scrobbler username and passes period and paging through', async () => {
      const client = await linked();
      const res = await client.get('/scrobbler/me/top-artists?period=7day&limit=3&page=2');
      expect(res.status).to.equal(200);
      expect(res.body.topartists.artist).to.have.length(3);
      expect(calls('user.getTopArtists')[0]?.query).to.include({ user: 'RJ', period: '7day', limit: '3', page: '2' });
      const info = await client.get('/scrobbler/me/info');
      expect(info.body.user.name).to.equal('RJ');
      expect((await client.get('/scrobbler/me/library/artists')).body.artists.artist).to.have.length(1);
      expect(calls('library.getArtists')[0]?.query).to.include({ user: 'RJ' });
    });

    it('reads a weekly chart with the path’s range as from and to', async () => {
      const client = await linked();
      const res = await client.get('/scrobbler/me/charts/1700000000/1700604800/artists');
      expect(res.status).to.equal(200);
      expect(res.body.weeklyartistchart.artist[0].name).to.equal('Queen');
      expect(calls('user.getWeeklyArtistChart')[0]?.query).to.include({ user: 'RJ', from: '1700000000', to: '1700604800' });
      expect((await client.get('/scrobbler/me/charts/x/1/albums')).status).to.equal(422);
    });

    it('answers the caller’s plays of an artist, album and track from getInfo with their username', async () => {
      const client = await linked();
      const live = liveState(fake.state);
      live.setPlays('RJ', 'Cher', 42);
      live.setPlays('RJ', 'Cher::Believe', 7);
      live.setPlays('RJ', 'Cher::Strong Enough', 3);
      const artist = await client.get('/scrobbler/me/artists/Cher/stats');
      expect(artist.body).to.include({ kind: 'artist', artist: 'Cher', user_playcount: 42 });
      expect(artist.body.listeners).to.be.a('number');
      const album = await client.get('/scrobbler/me/albums/Cher/Believe/stats');
      expect(album.body).to.include({ kind: 'album', name: 'Believe', user_playcount: 7 });
      const track = await client.get('/scrobbler/me/tracks/Cher/Strong%20Enough/stats');
      expect(track.body).to.include({ kind: 'track', user_playcount: 3, user_loved: false });
      expect(calls('track.getInfo')[0]?.query).to.include({ artist: 'Cher', track: 'Strong Enough', username: 'RJ' });
      live.unknownArtists.add('nobody');
      expect((await client.get('/scrobbler/me/albums/Nobody/Nothing/stats')).status).to.equal(404);
    });

    it('sees its own love at once: the write drops the cached answers about its scrobbler user', async () => {
      const client = await linked();
      const before = await client.get('/scrobbler/me/tracks/Cher/Believe/stats');
      expect(before.body.user_loved).to.equal(false);
      expect((await client.get('/scrobbler/me/loved-tracks')).body.lovedtracks.track).to.deep.equal([]);
      expect((await client.post('/scrobbler/me/love', { artist: 'Cher', track: 'Believe' })).status).to.equal(200);
      expect((await client.get('/scrobbler/me/tracks/Cher/Believe/stats')).body.user_loved).to.equal(true);
      const loved = await client.get('/scrobbler/me/loved-tracks');
      expect(loved.body.lovedtracks.track.map((t: { name: string }) => t.name)).to.deep.equal(['Believe']);
      await client.post('/scrobbler/me/unlove', { artist: 'Cher', track: 'Believe' });
    });
  });
});
