import { expect } from 'chai';
import { sql } from 'kysely';
import { dashboardProjector } from '../../../projectors/scrobbler/dashboard.projector.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { DAY, givenCanonicalLink, givenScrobblerLink, givenScrobbles, nowUts } from '../../support/scrobbles.ts';

const noon = (daysAgo: number) => (Math.floor(nowUts() / DAY) - daysAgo) * DAY + 12 * 3600;

describe('dashboard attribution: manual canonical links and merges', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('given scrobbles stamped with one track, one of them then linked by hand to another', () => {
    let client: ApiClient;
    before(async () => {
      let username: string;
      ({ client, username } = await signedInAs(app, 'viewer'));
      await givenScrobblerLink(app, username, username);
      const made = await givenScrobbles(app, username, [
        { artist: 'Band', album: 'LP', track: 'Live Song', artistId: 'ART-1', albumId: 'ALB-1', trackId: 'TRK-1', uts: noon(3) },
        { artist: 'Band', album: 'LP', track: 'Live Song', artistId: 'ART-1', albumId: 'ALB-1', trackId: 'TRK-1', uts: noon(1) },
        { artist: 'Band', track: 'Unmatched', uts: noon(2) },
      ]);
      await givenCanonicalLink(app, username, made[1]!.scrobble_id, { artist: 'ART-1', album: 'ALB-2', track: 'TRK-2' });
      await givenCanonicalLink(app, username, made[2]!.scrobble_id, { artist: 'ART-1', album: null, track: 'TRK-3' });
    });

    it('when stats are read, then the play moved from the old track and album to the new ones', async () => {
      const old = (await client.get('/me/stats/tracks/TRK-1')).body;
      expect(old).to.include({ plays: 1, last_played_at: new Date(noon(3) * 1000).toISOString() });
      expect((await client.get('/me/stats/tracks/TRK-2')).body).to.include({ plays: 1, first_played_at: new Date(noon(1) * 1000).toISOString() });
      expect((await client.get('/me/stats/albums/ALB-1')).body.plays).to.equal(1);
      expect((await client.get('/me/stats/albums/ALB-2')).body.plays).to.equal(1);
      expect((await client.get('/me/stats/artists/ART-1')).body.plays).to.equal(3);
    });

    it('when the dashboard is read, then the unmatched scrobble counts under its new canonical track and the totals follow', async () => {
      const body = (await client.get('/scrobbler/me/dashboard?window_days=30')).body;
      expect(body.totals).to.deep.equal({ scrobbles: 3, artists: 1, albums: 2, tracks: 3 });
      expect(body.top_artists).to.deep.equal([{ canonical_id: 'ART-1', name: 'Band', artist_name: null, plays: 3 }]);
      const tracks = body.top_tracks.map((t: { canonical_id: string | null; plays: number }) => [t.canonical_id, t.plays]);
      expect(tracks).to.have.deep.members([['TRK-1', 1], ['TRK-2', 1], ['TRK-3', 1]]);
      expect(body.latest_scrobbles[0]).to.include({ canonical_track_id: 'TRK-2', canonical_album_id: 'ALB-2' });
    });
  });

  describe('given plays of two duplicate artists, then merged by an admin', () => {
    let client: ApiClient;
    let username: string;
    let target: string;
    let source: string;
    before(async () => {
      ({ client, username } = await signedInAs(app, 'viewer'));
      target = await reconcile(app.ctx, { source: 'catalog', kind: 'artist', external_id: '4242', facts: { name: 'The Merged' } });
      source = await reconcile(app.ctx, { source: 'scrobbler', kind: 'artist', external_id: 'merged, the', facts: { name: 'Merged, The' } });
      await givenScrobblerLink(app, username, username);
      await givenScrobbles(app, username, [
        { artist: 'The Merged', track: 'x', artistId: target, uts: noon(40) },
        { artist: 'Merged, The', track: 'y', artistId: source, uts: noon(5) },
        { artist: 'Merged, The', track: 'y', artistId: source, uts: noon(4) },
      ]);
      const admin = await signedInAdmin(app);
      const merged = await admin.post(`/admin/canonical/artists/${target}/merge`, { source_id: source });
      expect(merged.status).to.equal(200);
    });

    it('when stats are read by either id, then the chain is followed and both ids count', async () => {
      for (const id of [source, target]) {
        const res = await client.get(`/me/stats/artists/${id}`);
        expect(res.body).to.include({ canonical_id: target, plays: 3, rank: 1 });
        expect(res.body.first_played_at).to.equal(new Date(noon(40) * 1000).toISOString());
        expect(res.body.last_played_at).to.equal(new Date(noon(4) * 1000).toISOString());
      }
    });

    it('when the dashboard is read, then the two count as one artist in totals and top lists', async () => {
      const body = (await client.get('/scrobbler/me/dashboard')).body;
      expect(body.totals.artists).to.equal(1);
      expect(body.top_artists.map((a: { canonical_id: string; plays: number }) => [a.canonical_id, a.plays])).to.deep.equal([[target, 3]]);
      const windowed = (await client.get('/scrobbler/me/dashboard?window_days=30')).body;
      expect(windowed.top_artists.map((a: { canonical_id: string; plays: number }) => [a.canonical_id, a.plays])).to.deep.equal([[target, 2]]);
      expect(windowed.new_artists).to.equal(0);
    });

    it('when a scrobble still stamped with the merged-away id arrives, then it counts under the target', async () => {
      await givenScrobbles(app, username, [{ artist: 'Merged, The', track: 'z', artistId: source, uts: noon(1) }]);
      expect((await client.get(`/me/stats/artists/${target}`)).body.plays).to.equal(4);
      expect((await client.get('/scrobbler/me/dashboard')).body.totals.artists).to.equal(1);
    });
  });

  describe('given every history above, links and merges included', () => {
    it('when the dashboard read model is rebuilt from the log, then it equals the live one', async () => {
      const snapshot = async () => {
        const out: Record<string, string[]> = {};
        for (const table of dashboardProjector.tables) {
          const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(app.ctx.db);
          out[table] = rows.map((r) => JSON.stringify(r)).sort();
        }
        return out;
      };
      const live = await snapshot();
      expect(live.dashboard_scrobbles).to.not.be.empty;
      await app.ctx.projections!.rebuild([dashboardProjector.name]);
      expect(await snapshot()).to.deep.equal(live);
    });
  });
});
