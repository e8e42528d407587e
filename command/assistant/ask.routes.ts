import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { AlbumCollectionRow } from '../../projectors/me/album-collection.reads.ts';
import { EntityRef, assistantAnswer } from '../../shared/assistant.ts';
import { adminAsk } from './admin-ask.ts';
import { WishlistBody, wishlistByExactId } from './admin-wishlist.ts';
import { conversationCommands } from './conversations.ts';
import { albumAnswer } from '../me/me-answers.ts';

const ConversationId = z.string().min(1).max(64);

export const askCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/ask',
    tag: 'assistant',
    summary: 'Ask the assistant a question about the library',
    description:
      'Starts a conversation when `conversation_id` is absent, else continues the caller\'s own. `entity_ref` (`artist:<id>`, `album:<id>`, `track:<id>`) puts that entity\'s doc, refs and event history in the context, so the answer can say where a fact came from; a follow-up without one keeps the conversation\'s last. ' +
      'Always 200 with `state`: `ok`, `not_configured` (no model key), or `failed` with its `reason`; a failed answer is not stored.',
    access: 'admin',
    body: z.object({
      question: z.string().trim().min(1, 'ask a question').max(4_000),
      conversation_id: ConversationId.nullish().transform((v) => v ?? undefined),
      entity_ref: EntityRef.nullish().transform((v) => v ?? undefined),
    }),
    response: assistantAnswer(
      z.object({ state: z.literal('ok'), conversation_id: z.string(), turn: z.number().int(), answer: z.string(), entity_ref: z.string().nullable() }),
    ),
    errors: { 404: "No such conversation of the caller's, or no such entity" },
    handler: ({ ctx, user, body }) => adminAsk(ctx, user, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/admin/ask/conversations/{conversation_id}',
    tag: 'assistant',
    summary: 'Delete one of the caller\'s conversations',
    description: "Another admin's conversation is a 404. The conversation's history stays in the event log.",
    access: 'admin',
    params: z.object({ conversation_id: ConversationId }),
    response: z.object({ conversation_id: z.string(), deleted: z.boolean() }),
    errors: { 404: "No such conversation of the caller's" },
    handler: async ({ ctx, user, params }) => {
      await conversationCommands(ctx, user).delete(params.conversation_id);
      return { conversation_id: params.conversation_id, deleted: true };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/admin/ask/wishlist',
    tag: 'assistant',
    summary: "Put an album on the caller's wishlist by exact external id",
    description:
      'Resolves by exact id only, never by name: `catalog_id` first (the canonical album is seeded from the catalog when missing), then `mbid` against the canonical layer. ' +
      'The album goes on the caller\'s own wishlist exactly as `POST /me/albums/wishlist` puts it (an owned album stays owned). The answer says how it was resolved.',
    access: 'admin',
    body: WishlistBody,
    response: z.object({ resolved_by: z.enum(['catalog_id', 'mbid']), seeded: z.boolean(), album: AlbumCollectionRow }),
    errors: { 404: 'No album under that catalog id, and no canonical album with that MBID', 502: 'The catalog failed' },
    handler: ({ ctx, user, body }) => wishlistByExactId(ctx, user, body),
    answer: async ({ ctx, user }, done) => ({ resolved_by: done.resolvedBy, seeded: done.seeded, album: await albumAnswer(ctx, user, 'wishlisted', done.canonicalId) }),
  }),
];
