import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { CommentKind } from '../../shared/canonical/kind-name.ts';
import { CommentRow, findComment } from '../../projectors/me/comments.reads.ts';
import { NotFound } from '../../shared/errors.ts';
import { commentCommands } from './comment-commands.ts';

/** Empty (or only blanks) and over 10,000 characters are validation failures. */
const CommentBody = z.object({
  body: z
    .string()
    .max(10_000)
    .refine((s) => s.trim().length > 0, 'a note cannot be empty'),
});
const CommentParams = z.object({ comment_id: z.string().min(1).max(64) });

async function answer(ctx: AppContext, commentId: string) {
  return (await findComment(ctx.db, commentId)) ?? notFound();
}

function notFound(): never {
  throw new NotFound('Comment not found');
}

export const commentWriteRoutes = [
  defineRoute({
    method: 'post',
    path: '/me/comments/{kind}/{canonical_id}',
    tag: 'me',
    summary: 'Write a note on an artist, album or track',
    description: 'The note is filed under the end of the entity\'s merge chain; an id the canonical layer does not know is kept as given.',
    access: 'user',
    params: z.object({ kind: CommentKind, canonical_id: z.string().min(1).max(64) }),
    body: CommentBody,
    response: CommentRow,
    handler: async ({ ctx, params, body, user }) => (await commentCommands(ctx, user).post(params.kind, params.canonical_id, body.body)).commentId,
    answer: ({ ctx }, commentId) => answer(ctx, commentId),
  }),
  defineRoute({
    method: 'patch',
    path: '/me/comments/{comment_id}',
    tag: 'me',
    summary: 'Edit one of the caller\'s notes',
    description: 'Author only: someone else\'s note is a 404, for admins too. The previous text stays in the log.',
    access: 'user',
    params: CommentParams,
    body: CommentBody,
    response: CommentRow,
    errors: { 404: 'No such note of the caller\'s' },
    handler: async ({ ctx, params, body, user }) => {
      await commentCommands(ctx, user).edit(params.comment_id, body.body);
    },
    answer: ({ ctx, params }) => answer(ctx, params.comment_id),
  }),
  defineRoute({
    method: 'delete',
    path: '/me/comments/{comment_id}',
    tag: 'me',
    summary: 'Delete one of the caller\'s notes',
    description: 'Author only: someone else\'s note is a 404, for admins too. The note\'s history stays in the log.',
    access: 'user',
    params: CommentParams,
    response: z.object({ comment_id: z.string(), deleted: z.boolean() }),
    errors: { 404: 'No such note of the caller\'s' },
    handler: async ({ ctx, params, user }) => {
      await commentCommands(ctx, user).delete(params.comment_id);
      return { comment_id: params.comment_id, deleted: true };
    },
  }),
];
