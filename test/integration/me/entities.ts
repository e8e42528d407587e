import type { Observation } from '../../../command/canonical/observation.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { TestApp } from '../../support/api.ts';

let counter = 0;

/** A new canonical artist, album and track (the track on the album, both by the artist), unique per call. */
export async function givenMusic(app: TestApp, name = `Band ${++counter}`) {
  const n = ++counter;
  const artist: Observation = { source: 'mediaserver', kind: 'artist', external_id: `mediaserver::srv::a${n}`, facts: { name } };
  const album: Observation = {
    source: 'mediaserver', kind: 'album', external_id: `mediaserver::srv::b${n}`, facts: { name: `${name} Album`, year: 1990 + (n % 30), cover_url: `https://covers.example/${n}.jpg` }, artist,
  };
  const track: Observation = { source: 'mediaserver', kind: 'track', external_id: `mediaserver::srv::t${n}`, facts: { name: `${name} Song`, disc: 1, track_number: 1 }, artist, album };
  const trackId = await reconcile(app.ctx, track);
  const artistId = await reconcile(app.ctx, artist);
  const albumId = await reconcile(app.ctx, album);
  return { artistId, albumId, trackId, name };
}

/** An album only a metabase id distinguishes, so that two of them stay two entities until merged. */
export async function givenAlbum(app: TestApp, title: string, mbid: string): Promise<string> {
  const artist: Observation = { source: 'metabase', kind: 'artist', external_id: `${mbid}-artist`, facts: { name: `${title} Artist`, mbid: `${mbid}-artist` } };
  return reconcile(app.ctx, { source: 'metabase', kind: 'album', external_id: mbid, facts: { name: title, mbid }, artist });
}
