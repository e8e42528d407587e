import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { DAY, givenScrobblerLink, givenScrobbles, nowUts } from '../../support/scrobbles.ts';

describe('the scrobbler dashboard heatmap cell', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('given a heatmap cell with scrobbles in and out of the window', () => {
    let client: ApiClient;
    // The most recent Monday at least a week ago, and the same hour 10 weeks earlier.
    const monday = (weeksBack: number) => {
      const today = Math.floor(nowUts() / DAY);
      const daysSinceMonday = (today + 3) % 7;
      return (today - daysSinceMonday - 7 * weeksBack) * DAY + 10 * 3600;
    };
    before(async () => {
      let username: string;
      ({ client, username } = await signedInAs(app, 'viewer'));
      await givenScrobblerLink(app, username, username);
      await givenScrobbles(app, username, [
        { artist: 'C', track: 'Recent', uts: monday(1) + 100 },
        { artist: 'C', track: 'Recent later', uts: monday(1) + 200 },
        { artist: 'C', track: 'Other hour', uts: monday(1) + 3600 },
        { artist: 'C', track: 'Old', uts: monday(10) },
      ]);
    });

    it('when the cell is read with the default window, then the recent scrobbles of that cell come, newest first', async () => {
      const res = await client.get('/scrobbler/me/dashboard/heatmap-cell?dow=0&hour=10');
      expect(res.status).to.equal(200);
      expect(res.body.map((s: { track: string }) => s.track)).to.deep.equal(['Recent later', 'Recent']);
      expect(res.body[0]).to.include({ artist: 'C', canonical_track_id: null });
    });

    it('when the window is all time, then older scrobbles of the cell come too, and the dashboard heatmap agrees', async () => {
      const res = await client.get('/scrobbler/me/dashboard/heatmap-cell?dow=0&hour=10&window_days=0');
      expect(res.body.map((s: { track: string }) => s.track)).to.deep.equal(['Recent later', 'Recent', 'Old']);
      const dash = (await client.get('/scrobbler/me/dashboard')).body;
      expect(dash.heatmap[0][10]).to.equal(3);
      expect(dash.heatmap[0][11]).to.equal(1);
    });

    it('when dow or hour is out of range or missing, then 422', async () => {
      for (const q of ['dow=7&hour=0', 'dow=0&hour=24', 'hour=3']) {
        expect((await client.get(`/scrobbler/me/dashboard/heatmap-cell?${q}`)).status, q).to.equal(422);
      }
    });
  });
});
