import { expect } from 'chai';
import * as decider from '../../../../command/scrobbler/scrobbles.decider.ts';
import type { ScrobblesCommand } from '../../../../command/scrobbler/scrobbles.decider.ts';
import type { Scrobble, ScrobbleEvent } from '../../../../shared/events/scrobbles.events.ts';
import { NotFound } from '../../../../shared/errors.ts';

const at = '2026-01-01T00:00:00.000Z';
const since = '2025-06-01T00:00:00.000Z';
const meta = { now: at, actor: 'ann', userSince: since };

function scrobble(uts: number, track = 'Song'): Scrobble {
  return {
    scrobble_id: decider.scrobbleId('ann', uts, 'Band', track),
    uts,
    artist: 'Band',
    album: null,
    track,
    artist_mbid: null,
    album_mbid: null,
    track_mbid: null,
    canonical_artist_id: null,
    canonical_album_id: null,
    canonical_track_id: null,
  };
}

const importPage = (scrobbles: Scrobble[], recordEmpty = false): ScrobblesCommand => ({
  type: 'ImportPage',
  username: 'ann',
  scrobblerUsername: 'ann_fm',
  taskId: 't1',
  page: 1,
  totalPages: 1,
  scrobbles,
  recordEmpty,
  meta,
});
const imported = (scrobbles: Scrobble[], taskId: string | null = 't1'): ScrobbleEvent => ({
  type: 'ScrobblesImported',
  data: { username: 'ann', scrobbler_username: 'ann_fm', task_id: taskId, page: 1, total_pages: 1, scrobbles, at },
});

function given(...events: ScrobbleEvent[]) {
  const state = events.reduce(decider.evolve, decider.initialState());
  return {
    when: (command: ScrobblesCommand) => ({
      then: (expected: ScrobbleEvent[] | (new (...a: any[]) => Error)) => {
        const run = () => decider.decide(state, command);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

describe('scrobbles decider', () => {
  const a = scrobble(100);
  const b = scrobble(200);

  it('identifies a scrobble by user, time, artist and track', () => {
    expect(decider.scrobbleId('ann', 100, 'Band', 'Song')).to.equal(a.scrobble_id);
    expect(decider.scrobbleId('bob', 100, 'Band', 'Song')).not.to.equal(a.scrobble_id);
    expect(decider.scrobbleId('ann', 101, 'Band', 'Song')).not.to.equal(a.scrobble_id);
    expect(scrobble(100, 'Other').scrobble_id).not.to.equal(a.scrobble_id);
  });

  it('records a page with only the scrobbles the stream does not hold, each once', () => {
    given().when(importPage([a, b, a])).then([imported([a, b])]);
    given(imported([a])).when(importPage([a, b])).then([imported([b])]);
  });

  it('decides nothing when the page holds nothing new, unless a refresh asks to be recorded', () => {
    given(imported([a, b])).when(importPage([a, b])).then([]);
    given(imported([a, b])).when(importPage([a], true)).then([imported([])]);
  });

  it('does not bring a deleted scrobble back on re-import', () => {
    const deleted: ScrobbleEvent = { type: 'ScrobblesDeleted', data: { username: 'ann', scrobble_ids: [a.scrobble_id], reason: 'admin_delete', deleted_by: 'admin', at } };
    given(imported([a]), deleted).when(importPage([a])).then([]);
  });

  it('ignores what a deleted namesake recorded before this account was registered', () => {
    const before = '2025-01-01T00:00:00.000Z';
    const namesakes: ScrobbleEvent = { type: 'ScrobblesImported', data: { ...(imported([a]).data as object), at: before } as never };
    given(namesakes).when(importPage([a, b])).then([imported([a, b])]);
    const namesakeDeleted: ScrobbleEvent = { type: 'ScrobblesDeleted', data: { username: 'ann', scrobble_ids: [a.scrobble_id], reason: 'admin_delete', deleted_by: 'admin', at: before } };
    given(namesakes, namesakeDeleted, imported([a])).when({ type: 'LinkCanonical', username: 'ann', scrobbleId: a.scrobble_id, canonical: { artist: null, album: null, track: null }, meta }).then([
      { type: 'ScrobbleCanonicalLinked', data: { username: 'ann', scrobble_id: a.scrobble_id, canonical_artist_id: null, canonical_album_id: null, canonical_track_id: null, linked_by: 'ann', at } },
    ]);
  });

  it('stamps canonical ids only on a scrobble it holds and has not deleted', () => {
    const link = (id: string): ScrobblesCommand => ({ type: 'LinkCanonical', username: 'ann', scrobbleId: id, canonical: { artist: 'A1', album: null, track: 'T1' }, meta });
    given(imported([a])).when(link(a.scrobble_id)).then([
      { type: 'ScrobbleCanonicalLinked', data: { username: 'ann', scrobble_id: a.scrobble_id, canonical_artist_id: 'A1', canonical_album_id: null, canonical_track_id: 'T1', linked_by: 'ann', at } },
    ]);
    given().when(link(a.scrobble_id)).then(NotFound);
    const deleted: ScrobbleEvent = { type: 'ScrobblesDeleted', data: { username: 'ann', scrobble_ids: [a.scrobble_id], reason: 'admin_delete', deleted_by: 'admin', at } };
    given(imported([a]), deleted).when(link(a.scrobble_id)).then(NotFound);
  });

  it('deletes only live scrobbles, and nothing twice', () => {
    const del = (ids: string[]): ScrobblesCommand => ({ type: 'DeleteScrobbles', username: 'ann', scrobbleIds: ids, reason: 'invalid_purge', meta: { now: at, actor: 'admin', userSince: since } });
    const deleted: ScrobbleEvent = { type: 'ScrobblesDeleted', data: { username: 'ann', scrobble_ids: [a.scrobble_id], reason: 'invalid_purge', deleted_by: 'admin', at } };
    given(imported([a])).when(del([a.scrobble_id, a.scrobble_id, 'unknown'])).then([deleted]);
    given(imported([a]), deleted).when(del([a.scrobble_id])).then([]);
  });
});
