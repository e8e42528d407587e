import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { discoveryAlbumCoverage } from '../../projectors/radio/radio-discoveries.reads.ts';

const count = z.number().int();

export const discoveryAlbumsQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/radio/discovery-albums/coverage',
    tag: 'radio',
    summary: "How many radio discoveries (every user's) carry an album, and how many need one",
    access: 'admin',
    response: z.object({ total: count, with_album: count, without_album: count, with_album_id: count, by_source: z.object({ scrobbler: count, catalog: count }) }),
    handler: ({ ctx }) => discoveryAlbumCoverage(ctx.db),
  }),
];
