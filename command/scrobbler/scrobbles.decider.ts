import type { Scrobble, ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { hashedId } from '../../shared/ids.ts';
import { assertNever } from '../../shared/never.ts';

/**
 * A user's listening history, stream `scrobbles-<username key>`. The state is the set of scrobble
 * ids the stream ever recorded (a deleted scrobble stays known, so a re-import does not bring it
 * back) and those deleted since.
 *
 * The state of a long history holds a million ids: `evolve` folds into it in place instead of
 * copying, and the write side keeps it between commands (see scrobble-log.ts).
 */
export interface ScrobblesState {
  known: Set<string>;
  deleted: Set<string>;
}

interface Meta {
  now: string;
  actor: string | null;
}

export type ScrobblesCommand =
  | {
      type: 'ImportPage';
      username: string;
      scrobblerUsername: string;
      taskId: string | null;
      page: number | null;
      totalPages: number | null;
      scrobbles: Scrobble[];
      /** A refresh records itself even when nothing was new (it advances `last_refreshed_at`). */
      recordEmpty: boolean;
      meta: Meta;
    }
  | {
      type: 'LinkCanonical';
      username: string;
      scrobbleId: string;
      canonical: { artist: string | null; album: string | null; track: string | null };
      meta: Meta;
    }
  | { type: 'DeleteScrobbles'; username: string; scrobbleIds: string[]; reason: 'admin_delete' | 'invalid_purge'; meta: Meta };

export const initialState = (): ScrobblesState => ({ known: new Set(), deleted: new Set() });

/** A scrobble is the same scrobble whenever the user, its time, its artist and its track agree. */
export const scrobbleId = (userKey: string, uts: number, artist: string, track: string) => hashedId(userKey, uts, artist, track);

export function evolve(state: ScrobblesState, event: ScrobbleEvent): ScrobblesState {
  switch (event.type) {
    case 'ScrobblesImported':
      for (const s of event.data.scrobbles) state.known.add(s.scrobble_id);
      return state;
    case 'ScrobbleCanonicalLinked':
      return state;
    case 'ScrobblesDeleted':
      for (const id of event.data.scrobble_ids) state.deleted.add(id);
      return state;
    default:
      return assertNever(event);
  }
}

const live = (state: ScrobblesState, id: string) => state.known.has(id) && !state.deleted.has(id);

/** The scrobbles of a page the stream does not hold yet, each once. */
export function newScrobbles(state: ScrobblesState, scrobbles: Scrobble[]): Scrobble[] {
  const seen = new Set<string>();
  return scrobbles.filter((s) => {
    if (state.known.has(s.scrobble_id) || seen.has(s.scrobble_id)) return false;
    seen.add(s.scrobble_id);
    return true;
  });
}

export function decide(state: ScrobblesState, command: ScrobblesCommand): ScrobbleEvent[] {
  const at = command.meta.now;
  switch (command.type) {
    case 'ImportPage': {
      const scrobbles = newScrobbles(state, command.scrobbles);
      if (scrobbles.length === 0 && !command.recordEmpty) return [];
      const { username, scrobblerUsername, taskId, page, totalPages } = command;
      return [{ type: 'ScrobblesImported', data: { username, scrobbler_username: scrobblerUsername, task_id: taskId, page, total_pages: totalPages, scrobbles, at } }];
    }
    case 'LinkCanonical': {
      if (!live(state, command.scrobbleId)) throw new NotFound('Scrobble not found');
      const { artist, album, track } = command.canonical;
      return [
        {
          type: 'ScrobbleCanonicalLinked',
          data: {
            username: command.username,
            scrobble_id: command.scrobbleId,
            canonical_artist_id: artist,
            canonical_album_id: album,
            canonical_track_id: track,
            linked_by: command.meta.actor ?? command.username,
            at,
          },
        },
      ];
    }
    case 'DeleteScrobbles': {
      const ids = [...new Set(command.scrobbleIds)].filter((id) => live(state, id));
      if (ids.length === 0) return [];
      return [{ type: 'ScrobblesDeleted', data: { username: command.username, scrobble_ids: ids, reason: command.reason, deleted_by: command.meta.actor ?? 'system', at } }];
    }
    default:
      return assertNever(command);
  }
}
