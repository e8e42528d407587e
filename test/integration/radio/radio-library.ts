import { reconcile } from '../../../command/canonical/reconciler.ts';
import { liveState } from '../../fakes/scrobbler/live-state.ts';
import { type ScrobblerFake, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';

export interface RadioLibrary {
  app: TestApp;
  scrobbler: ScrobblerFake;
  /** Canonical ids by short name: artists, albums and tracks. */
  ids: Record<string, string>;
}

let next = 0;
const ref = () => `mediaserver::srv::${++next}`;

/**
 * A media server library of 13 playable tracks around Depeche Mode (whose recorded similar tracks
 * the scrobbler fake answers), INXS (a recorded similar artist), Yazoo (sharing the synth-pop
 * tag), three tracks with a rare mood, and The Human League known to the scrobbler only.
 */
export async function givenRadioLibrary(env: Record<string, string> = {}): Promise<RadioLibrary> {
  const scrobbler = await startScrobblerFake();
  liveState(scrobbler.state).unknownArtists.add('yazoo');
  const app = await startTestApp({ ...scrobbler.env, ...env });
  const ids: Record<string, string> = {};
  const dm = artistSeen('mediaserver', ref(), 'Depeche Mode');
  const speak = albumSeen('mediaserver', ref(), 'Speak & Spell', dm, { genres: ['Synth-pop'], year: 1981 });
  ids.dm = await reconcile(app.ctx, dm);
  ids.speak = await reconcile(app.ctx, speak);
  const dmTracks = ['New Life', "Just Can't Get Enough", 'Dreaming of Me', 'Photographic', 'Puppets', 'Boys Say Go!'];
  for (const [i, title] of dmTracks.entries()) ids[title] = await reconcile(app.ctx, trackSeen('mediaserver', ref(), title, dm, speak, { disc: 1, track_number: i + 1 }));
  const inxs = artistSeen('mediaserver', ref(), 'INXS');
  const kick = albumSeen('mediaserver', ref(), 'Kick', inxs, { genres: ['Rock'] });
  ids.inxs = await reconcile(app.ctx, inxs);
  for (const [i, title] of ['Need You Tonight', 'New Sensation', 'Never Tear Us Apart'].entries()) ids[title] = await reconcile(app.ctx, trackSeen('mediaserver', ref(), title, inxs, kick, { disc: 1, track_number: i + 1 }));
  const yazoo = artistSeen('mediaserver', ref(), 'Yazoo');
  const upstairs = albumSeen('mediaserver', ref(), "Upstairs at Eric's", yazoo, { genres: ['Synth-pop'] });
  ids.yazoo = await reconcile(app.ctx, yazoo);
  for (const [i, title] of ['Only You', "Don't Go", 'Situation', 'Midnight'].entries()) {
    ids[title] = await reconcile(app.ctx, trackSeen('mediaserver', ref(), title, yazoo, upstairs, { disc: 1, track_number: i + 1, tags: i < 3 ? ['Rare Mood'] : [] }));
  }
  const league = artistSeen('scrobbler', 'the human league', 'The Human League');
  const dare = albumSeen('scrobbler', 'the human league::dare', 'Dare', league);
  ids.dare = await reconcile(app.ctx, dare);
  ids["Don't You Want Me"] = await reconcile(app.ctx, trackSeen('scrobbler', "the human league::don't you want me", "Don't You Want Me", league, dare));
  return { app, scrobbler, ids };
}
