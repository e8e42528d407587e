import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { assistantAnswer } from '../../shared/assistant.ts';
import { LibraryRow } from '../library/library.queries.ts';
import { LibraryQuery, libraryAsk } from './library-ask.ts';
import { GenerateBody, MAX_CANDIDATES, generatePlaylist } from './playlist-generate.ts';

export const libraryAskRoutes = [
  defineRoute({
    method: 'get',
    path: '/library/ask',
    tag: 'assistant',
    summary: 'Turn a request in plain words into a library query',
    description:
      'Always 200. `ok` carries a `query` (`kind`, `sort`, `filter`, `genre`, `q`) checked against the same vocabulary as `GET /library/{kind}`, ready to run as is; `not_configured` when no model key is set; `failed` with its `reason` when the model gave nothing usable.',
    access: 'user',
    query: z.object({ q: z.string().trim().min(1, 'say what to look for').max(500) }),
    response: assistantAnswer(z.object({ state: z.literal('ok'), query: LibraryQuery })),
    handler: ({ ctx, query }) => libraryAsk(ctx, query.q),
  }),
  defineRoute({
    method: 'post',
    path: '/library/playlist/generate',
    tag: 'assistant',
    summary: 'Propose a playlist of playable tracks for a request',
    description:
      `Only proposes: the model picks by index from a numbered list (from 0) of at most ${MAX_CANDIDATES} playable canonical tracks, of \`genre\` when given. ` +
      'Indexes outside the list are dropped, repeats removed, at most `max_tracks` (default 25) kept. States: `ok` (`title`, `tracks`), `no_candidates` (no playable track), `not_configured`, `failed`.',
    access: 'user',
    body: GenerateBody,
    response: assistantAnswer(
      z.object({ state: z.literal('ok'), title: z.string(), tracks: z.array(LibraryRow) }),
      z.object({ state: z.literal('no_candidates') }),
    ),
    handler: ({ ctx, body }) => generatePlaylist(ctx, body),
  }),
];
