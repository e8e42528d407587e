import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { importFavorites } from './import-favorites.ts';

export const streamerImportFavoritesRoutes = [
  defineRoute({
    method: 'post',
    path: '/streamer/me/import-favorites',
    tag: 'streamer',
    summary: 'Import the linked account’s liked songs (saved tracks, as last synced) into the caller’s track favorites',
    description:
      'Idempotent. `candidates` counts the mirrored saved tracks (0 when no sync has run or no account is linked), `imported` the favorites added, `already_favorited` those that were, `unresolved` those with no canonical track.',
    access: 'user',
    response: z.object({ candidates: z.number().int(), imported: z.number().int(), already_favorited: z.number().int(), unresolved: z.number().int() }),
    errors: { 503: 'The streamer is not configured' },
    handler: ({ ctx, user }) => importFavorites(ctx, user),
  }),
];
