import { expect } from 'chai';
import * as comments from '../../../../command/me/comments.decider.ts';
import type { CommentCommand } from '../../../../command/me/comments.decider.ts';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import { Conflict } from '../../../../shared/errors.ts';
import type { CommentEvent } from '../../../../shared/events/me.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const posted: CommentEvent = { type: 'CommentPosted', data: { comment_id: 'C', username: 'Alice', kind: 'album', canonical_id: 'A', body: 'great', at } };
const edited: CommentEvent = { type: 'CommentEdited', data: { comment_id: 'C', username: 'alice', body: 'superb', at } };
const deleted: CommentEvent = { type: 'CommentDeleted', data: { comment_id: 'C', username: 'alice', at } };

function given(...events: CommentEvent[]) {
  const state = events.reduce(comments.evolve, comments.initialState());
  return {
    when: (command: WithoutMeta<CommentCommand>, username = 'alice', userSince = '2025-06-01T00:00:00.000Z') => ({
      then: (expected: CommentEvent[] | (new (...a: any[]) => Error)) => {
        const run = () => comments.decide(state, { ...command, meta: { commentId: 'C', username, userSince, now: at } } as CommentCommand);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

describe('comments decider', () => {
  it('posts a note once', () => {
    given().when({ type: 'PostComment', kind: 'album', canonicalId: 'A', body: 'great' }, 'Alice').then([posted]);
    given(posted).when({ type: 'PostComment', kind: 'album', canonicalId: 'A', body: 'great' }).then(Conflict);
  });

  it('lets the author edit (whatever the case of the name), and an unchanged body decides nothing', () => {
    given(posted).when({ type: 'EditComment', body: 'superb' }).then([edited]);
    given(posted, edited).when({ type: 'EditComment', body: 'superb' }).then([]);
  });

  it('lets the author delete, once', () => {
    given(posted, edited).when({ type: 'DeleteComment' }).then([deleted]);
    given(posted, deleted).when({ type: 'DeleteComment' }).then(comments.CommentNotFound);
    given(posted, deleted).when({ type: 'EditComment', body: 'back' }).then(comments.CommentNotFound);
  });

  it('answers someone else\'s note and no note alike: not found', () => {
    given(posted).when({ type: 'EditComment', body: 'mine now' }, 'bob').then(comments.CommentNotFound);
    given(posted).when({ type: 'DeleteComment' }, 'admin').then(comments.CommentNotFound);
    given().when({ type: 'EditComment', body: 'x' }).then(comments.CommentNotFound);
  });

  it('a note of a deleted namesake is not the new account\'s', () => {
    given(posted).when({ type: 'EditComment', body: 'mine now' }, 'alice', '2026-03-01T00:00:00.000Z').then(comments.CommentNotFound);
    given(posted).when({ type: 'DeleteComment' }, 'alice', '2026-03-01T00:00:00.000Z').then(comments.CommentNotFound);
  });
});
