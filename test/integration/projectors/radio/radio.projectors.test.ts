import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../../../infra/projections/projector.ts';
import { listDiscoveries } from '../../../../projectors/radio/radio-discoveries.reads.ts';
import { radioDiscoveriesProjector } from '../../../../projectors/radio/radio-discoveries.projector.ts';
import { feedbackSums, tally } from '../../../../projectors/radio/radio-feedback.reads.ts';
import { radioFeedbackProjector } from '../../../../projectors/radio/radio-feedback.projector.ts';
import { findSession, recentSessions } from '../../../../projectors/radio/radio-sessions.reads.ts';
import { radioSessionsProjector } from '../../../../projectors/radio/radio-sessions.projector.ts';
import { freshDatabase } from '../../../support/database.ts';

let position = 0;
const stored = (type: string, data: unknown) => ({ id: `e${++position}`, type, data, streamId: 's', revision: position, position: String(position), metadata: {}, createdAt: new Date() }) as unknown as StoredEvent;
const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const session = (session_id: string, username: string, minute: number) => ({ session_id, username, at: at(minute) });
const started = (id: string, username: string, minute: number) =>
  stored('RadioSessionStarted', { ...session(id, username, minute), seed_kind: 'mood', seed_id: 'calm', seed_label: 'calm', pool_size: 12, pool: [] });
const picked = (id: string, username: string, p: number, track: string) =>
  stored('RadioTrackPicked', { ...session(id, username, 10 + p), position: p, canonical_track_id: track, artist_id: `artist-${track}`, score: 1, reason: 'mood: calm' });
const wanted = (id: string, username: string) =>
  stored('RadioDiscoveriesWanted', { ...session(id, username, 1), wanted: [{ discovery_id: `D-${username.toLowerCase()}`, artist_name: 'X', title: 'Y', similarity: 0.5, status: 'not_in_library', canonical_track_id: null }] });

describe('radio projectors', () => {
  let database: DatabaseHandle;
  before(async function () {
    this.timeout(120_000);
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (projector: Projector, events: StoredEvent[]) => database.db.transaction().execute((trx) => projector.apply(trx, events.filter((e) => projector.handles.includes(e.type))));
  const applyAll = async (events: StoredEvent[]) => {
    for (const p of [radioSessionsProjector, radioFeedbackProjector, radioDiscoveriesProjector]) await apply(p, events);
  };
  const snapshot = async () => [
    await recentSessions(database.db, 'alice', 10),
    await findSession(database.db, 'alice', 'S1'),
    await feedbackElsewhere(database.db, 'alice', 'none'),
    await listDiscoveries(database.db, 'alice', 10, 0),
  ];

  const events = [
    started('S1', 'Alice', 0),
    wanted('S1', 'Alice'),
    picked('S1', 'Alice', 1, 't1'),
    stored('RadioOutcomeLogged', { ...session('S1', 'Alice', 12), position: 1, canonical_track_id: 't1', artist_id: 'artist-t1', outcome: 'disliked' }),
    picked('S1', 'Alice', 2, 't2'),
    stored('RadioFeedbackGiven', { ...session('S1', 'Alice', 13), canonical_track_id: 't2', artist_id: 'artist-t2', signal: 'up' }),
    stored('RadioSessionEnded', { ...session('S1', 'Alice', 14), cause: 'replaced' }),
    started('S2', 'alice', 15),
    wanted('S2', 'alice'),
    picked('S2', 'alice', 1, 't3'),
    started('S3', 'bob', 16),
    wanted('S3', 'bob'),
  ];

  it('given the same events applied twice, then every radio read model is the same as after once', async () => {
    await applyAll(events);
    const once = await snapshot();
    await applyAll(events);
    expect(await snapshot()).to.deep.equal(once);
    const [recent, s1, feedback, discoveries] = once as [any, any, any, any];
    expect(recent.map((s: { session_id: string; active: boolean }) => [s.session_id, s.active])).to.deep.equal([['S2', true], ['S1', false]]);
    expect(s1.tracks.map((t: { outcome: string | null; feedback: string | null }) => [t.outcome, t.feedback])).to.deep.equal([['disliked', null], [null, 'up']]);
    expect(feedback.artists.get('artist-t1')).to.deep.equal({ ups: 0, downs: 1, skips: 0 });
    expect(discoveries.items[0]).to.include({ discovery_id: 'D-alice', wanted_count: 2 });
  });

  it("given a deleted account, then its sessions, feedback and discoveries leave and others' stay", async () => {
    await applyAll([stored('UserDeleted', { username: 'alice', deleted_by: 'admin', at: at(30) })]);
    expect((await snapshot())[0]).to.deep.equal([]);
    expect((await feedbackElsewhere(database.db, 'alice', 'none')).tracks.size).to.equal(0);
    expect((await listDiscoveries(database.db, 'bob', 10, 0)).total).to.equal(1);
    expect((await recentSessions(database.db, 'bob', 10)).map((s) => s.session_id)).to.deep.equal(['S3']);
  });
});

/** The user's radio feedback from every session but `exceptSession`, summed by track and by artist. */
async function feedbackElsewhere(db: Kysely<Database>, username: string, exceptSession: string) {
  const [tracks, artists] = await Promise.all([feedbackSums(db, username, exceptSession, 'canonical_track_id').execute(), feedbackSums(db, username, exceptSession, 'artist_id').execute()]);
  return {
    tracks: new Map(tracks.map((r) => [r.key, tally(r)])),
    artists: new Map(artists.map((r) => [r.key, tally(r)])),
  };
}
