import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { SessionUser } from '../../shared/users.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { CommentEvent } from '../../shared/events/me.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { commentStream } from '../../shared/streams.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { callerSince } from './account-since.ts';
import * as comments from './comments.decider.ts';
import type { CommentCommand, CommentState } from './comments.decider.ts';

/** The caller's notes: filed under the end of the entity's merge chain, edited and deleted by their author only. */
export function commentCommands(ctx: AppContext, user: SessionUser) {
  async function onComment(commentId: string, command: WithoutMeta<CommentCommand>) {
    const meta = { commentId, username: user.username, userSince: await callerSince(ctx, user), now: new Date().toISOString() };
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
      await onComment(commentId, { type: 'PostComment', kind, canonicalId, body });
      return { commentId };
    },

    /**
     * An unchanged body appends nothing; the answer then waits for the head of the log instead, as a
     * concurrent edit may be why the body is unchanged.
     */
    async edit(commentId: string, body: string): Promise<void> {
      const handled = await onComment(commentId, { type: 'EditComment', body });
      if (!handled.result) await ctx.readModels.catchUp(await ctx.store.headPosition());
    },

    async delete(commentId: string): Promise<void> {
      await onComment(commentId, { type: 'DeleteComment' });
    },
  };
}
