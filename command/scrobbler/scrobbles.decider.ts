import type { Scrobble, ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { hashedId } from '../../shared/ids.ts';
import { assertNever } from '../../shared/never.ts';

/**
 * A user's listening history, stream `scrobbles-<username key>`. The state maps each scrobble id the
 * stream recorded to when it was imported, and each deleted one to when it was deleted (a deleted
 * scrobble stays deleted: a re-import does not bring it back). What was recorded before the
 * account was registered belonged to a deleted namesake and does not count (`meta.userSince`).
 *
 * The state of a long history holds a million ids: `evolve` folds into it in place instead of
 * copying, and the write side keeps it between commands (see scrobble-log.ts).
 */
export interface ScrobblesState {
  known: Map<string, string>;
  deleted: Map<string, string>;
}

interface Meta {
  now: string;
  actor: string | null;
  /** When the account was registered (ISO); earlier events are a namesake's. */
  userSince: string;
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

export const initialState = (): ScrobblesState => ({ known: new Map(), deleted: new Map() });

/** A scrobble is the same scrobble whenever the user, its time, its artist and its track agree. */
export const scrobbleId = (userKey: string, uts: number, artist: string, track: string) => hashedId(userKey, uts, artist, track);

export function evolve(state: ScrobblesState, event: ScrobbleEvent): ScrobblesState {
  switch (event.type) {
    case 'ScrobblesImported':
      for (const s of event.data.scrobbles) state.known.set(s.scrobble_id, event.data.at);
      return state;
    case 'ScrobbleCanonicalLinked':
      return state;
    case 'ScrobblesDeleted':
      for (const id of event.data.scrobble_ids) state.deleted.set(id, event.data.at);
      return state;
    default:
      return assertNever(event);
  }
}

/** Recorded in `map` for this account: at or after its registration. */
const within = (map: Map<string, string>, id: string, since: string) => {
  const at = map.get(id);
  return at !== undefined && at >= since;
};
const holds = (state: ScrobblesState, id: string, since: string) => within(state.known, id, since);
const live = (state: ScrobblesState, id: string, since: string) => holds(state, id, since) && !within(state.deleted, id, since);

/** The scrobbles of a page this account's stream does not hold yet, each once. */
export function newScrobbles(state: ScrobblesState, scrobbles: Scrobble[], userSince: string): Scrobble[] {
  const seen = new Set<string>();
  return scrobbles.filter((s) => {
    if (holds(state, s.scrobble_id, userSince) || seen.has(s.scrobble_id)) return false;
    seen.add(s.scrobble_id);
    return true;
  });
}

export function decide(state: ScrobblesState, command: ScrobblesCommand): ScrobbleEvent[] {
  const at = command.meta.now;
  switch (command.type) {
    case 'ImportPage': {
      const scrobbles = newScrobbles(state, command.scrobbles, command.meta.userSince);
      if (scrobbles.length === 0 && !command.recordEmpty) return [];
      const { username, scrobblerUsername, taskId, page, totalPages } = command;
      return [{ type: 'ScrobblesImported', data: { username, scrobbler_username: scrobblerUsername, task_id: taskId, page, total_pages: totalPages, scrobbles, at } }];
    }
    case 'LinkCanonical': {
      if (!live(state, command.scrobbleId, command.meta.userSince)) throw new NotFound('Scrobble not found');
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
      const ids = [...new Set(command.scrobbleIds)].filter((id) => live(state, id, command.meta.userSince));
      if (ids.length === 0) return [];
      return [{ type: 'ScrobblesDeleted', data: { username: command.username, scrobble_ids: ids, reason: command.reason, deleted_by: command.meta.actor ?? 'system', at } }];
    }
    default:
      return assertNever(command);
  }
}
