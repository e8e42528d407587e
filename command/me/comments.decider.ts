import type { Kind } from '../../shared/events/canonical.events.ts';
import type { CommentEvent } from '../../shared/events/me.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** One note, stream `comment-<id>`: its edits and its deletion stay in the log. */
export interface CommentState {
  status: 'none' | 'posted' | 'deleted';
  author: string | null;
  body: string | null;
  postedAt: string | null;
}

export const initialState = (): CommentState => ({ status: 'none', author: null, body: null, postedAt: null });

export function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentPosted':
      return { status: 'posted', author: event.data.username, body: event.data.body, postedAt: event.data.at };
    case 'CommentEdited':
      return { ...state, body: event.data.body };
    case 'CommentDeleted':
      return { ...state, status: 'deleted', body: null };
    default:
      return assertNever(event);
  }
}

interface Meta {
  commentId: string;
  /** The caller: only the author edits or deletes, whatever their role. */
  username: string;
  /** When the caller's account was registered: a deleted namesake's notes are not theirs. */
  userSince: string;
  now: string;
}

export type CommentCommand =
  | { type: 'PostComment'; kind: Kind; canonicalId: string; body: string; meta: Meta }
  | { type: 'EditComment'; body: string; meta: Meta }
  | { type: 'DeleteComment'; meta: Meta };

export function decide(state: CommentState, command: CommentCommand): CommentEvent[] {
  const { commentId: comment_id, username, userSince, now: at } = command.meta;
  if (command.type === 'PostComment') {
    if (state.status !== 'none') throw new Conflict(`comment ${comment_id} already exists`);
    return [{ type: 'CommentPosted', data: { comment_id, username, kind: command.kind, canonical_id: command.canonicalId, body: command.body, at } }];
  }
  // Someone else's note and no note at all look the same: the caller learns nothing about others' notes.
  const mine = usernameKey(state.author ?? '') === usernameKey(username) && state.postedAt! >= userSince;
  if (state.status !== 'posted' || !mine) throw new CommentNotFound();
  switch (command.type) {
    case 'EditComment':
      return state.body === command.body ? [] : [{ type: 'CommentEdited', data: { comment_id, username, body: command.body, at } }];
    case 'DeleteComment':
      return [{ type: 'CommentDeleted', data: { comment_id, username, at } }];
    default:
      return assertNever(command);
  }
}

export class CommentNotFound extends NotFound {
  constructor() {
    super('Comment not found');
  }
}
