import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { assistantAnswer } from '../../shared/assistant.ts';
import { Seed, seedFromText } from './seed-from-text.ts';

export const seedFromTextRoutes = [
  defineRoute({
    method: 'get',
    path: '/radio/seed-from-text',
    tag: 'assistant',
    summary: 'A radio seed from a request in plain words',
    description:
      'Always 200. `ok` carries a `seed` (`seed_kind`, `seed_id`, `label`) ready for `POST /radio/sessions`: artists and albums resolve against folded canonical names (the id is the canonical id), ' +
      'moods and genres must exist in the playable library (the id is the name). `failed` with `reason: no_match` when nothing matches; `not_configured` when no model key is set.',
    access: 'user',
    query: z.object({ q: z.string().trim().min(1, 'say what to play').max(500) }),
    response: assistantAnswer(z.object({ state: z.literal('ok'), seed: Seed })),
    handler: ({ ctx, query }) => seedFromText(ctx, query.q),
  }),
];
