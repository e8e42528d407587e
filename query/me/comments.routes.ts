import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';
import { CommentKind, KindName, kindOf } from '../../shared/canonical/kind-name.ts';
import { CommentRow, MyCommentRow, countVisible, myComments, thread } from '../../projectors/me/comments.reads.ts';

export const commentQueryRoutes = [
  defineRoute({
    method: 'post',
    path: '/me/comments/counts',
    tag: 'me',
    summary: 'How many notes the caller can see on each item',
    description: 'Answers a map `"<kind>::<canonical_id>"` → count, keyed as asked; admins count everyone\'s notes, others their own.',
    access: 'user',
    body: z.object({ items: z.array(z.object({ kind: KindName, canonical_id: z.string().min(1).max(64) })).max(1000) }),
    response: z.record(z.string(), z.number().int()),
    handler: async ({ ctx, body, user }) => {
      const counts = await countVisible(ctx.db, user, body.items.map((i) => ({ kind: kindOf(i.kind), canonical_id: i.canonical_id })));
      // Keyed by the kind as the client spelled it, so it finds its own keys.
      return Object.fromEntries(body.items.map((i) => [`${i.kind}::${i.canonical_id}`, counts.get(`${kindOf(i.kind)}::${i.canonical_id}`) ?? 0]));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/me/comments',
    tag: 'me',
    summary: "The caller's notes, newest first, each with an item summary (title, subtitle, cover)",
    access: 'user',
    response: z.array(MyCommentRow),
    handler: ({ ctx, user }) => myComments(ctx.db, user.username),
  }),
  defineRoute({
    method: 'get',
    path: '/me/comments/{kind}/{canonical_id}',
    tag: 'me',
    summary: 'The notes on an entity, oldest first',
    description: 'Admins see every user\'s notes, others only their own. Any id of the merge chain finds the notes of all of it.',
    access: 'user',
    params: z.object({ kind: CommentKind, canonical_id: z.string().min(1).max(64) }),
    response: z.array(CommentRow),
    handler: async ({ ctx, params, user }) => {
      const row = await findLiveRow(ctx.db, params.kind, params.canonical_id);
      return thread(ctx.db, user, params.kind, row?.id ?? params.canonical_id);
    },
  }),
];
