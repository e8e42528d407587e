import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { linkedAccount } from '../../projectors/streamer/links.reads.ts';
import { latestTaskStartedBy } from '../../projectors/tasks/task-history.reads.ts';
import { STREAMER_SYNC_TASK, StreamerLinkView } from '../../shared/streamer.ts';

export const streamerLinkQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/streamer/me',
    tag: 'streamer',
    summary: 'The caller’s streamer link (identity, last sync, state) or `{link: null}`',
    description: 'Answers `{link: null}` also when the streamer is not configured. `state` is `needs_relink` once the streamer refused the stored authorization.',
    access: 'user',
    response: z.object({ link: StreamerLinkView.nullable() }),
    handler: async ({ ctx, user }) => {
      const row = await linkedAccount(ctx.db, user.username);
      if (!row) return { link: null };
      const linkedAt = row.linked_at.toISOString();
      const lastSync = await latestTaskStartedBy(ctx.db, STREAMER_SYNC_TASK, user.username, linkedAt, 'completed');
      return {
        link: {
          account_id: row.account_id,
          display_name: row.display_name,
          linked_at: linkedAt,
          last_sync_at: lastSync?.finished_at ?? null,
          state: row.state === 'needs_relink' ? ('needs_relink' as const) : ('linked' as const),
          state_reason: row.state_reason,
        },
      };
    },
  }),
];
