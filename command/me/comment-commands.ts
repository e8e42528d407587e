import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { SessionUser } from '../../infra/http/auth.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { CommentEvent } from '../../shared/events/me.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { commentStream } from '../../shared/streams.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { accountSince } from './account-since.ts';
import * as comments from './comments.decider.ts';
import type { CommentCommand, CommentState } from './comments.decider.ts';

/** The caller's notes: filed under the end of the entity's merge chain, edited and deleted by their author only. */
export function commentCommands(ctx: AppContext, user: SessionUser) {
  async function onComment(commentId: string, command: WithoutMeta<CommentCommand>) {
    const meta = { commentId, username: user.username, userSince: await accountSince(ctx, user), now: new Date().toISOString() };
    return handleCommand<CommentState, CommentCommand, CommentEvent>(ctx.store, commentStream(commentId), comments, { ...command, meta } as CommentCommand, {
      actor: user.username,
    });
  }

  /**
   * The end of the entity's merge chain. Ids are opaque to the interface and a note names no more
   * than kind and id, so a note on an id the canonical layer does not know is kept under that id.
   */
  async function filedUnder(kind: Kind, id: string): Promise<string> {
    try {
      return await canonicalCommands(ctx, user.username).finalId(kind, id);
    } catch (error) {
      if (error instanceof NotFound) return id;
      throw error;
    }
  }

  return {
    async post(kind: Kind, id: string, body: string) {
      const canonicalId = await filedUnder(kind, id);
      const commentId = newId();
      const handled = await onComment(commentId, { type: 'PostComment', kind, canonicalId, body });
      return { commentId, position: handled.result?.position };
    },

    /** The position to wait for; an unchanged body waits for the head of the log (a concurrent edit may be the reason). */
    async edit(commentId: string, body: string) {
      return (await onComment(commentId, { type: 'EditComment', body })).result?.position ?? ctx.store.headPosition();
    },

    async delete(commentId: string) {
      return (await onComment(commentId, { type: 'DeleteComment' })).result?.position;
    },
  };
}
