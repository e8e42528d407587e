import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { RadioSession, RadioSessionDetail, findSession, openSessionIds, recentSessions } from '../../projectors/radio/radio-sessions.reads.ts';
import { NotFound } from '../../shared/errors.ts';

export const radioQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/radio/sessions/active',
    tag: 'radio',
    summary: "The caller's active session, or null",
    access: 'user',
    response: RadioSessionDetail.nullable(),
    handler: async ({ ctx, user }) => {
      const [active] = await openSessionIds(ctx.db, user.username);
      return active ? ((await findSession(ctx.db, user.username, active)) ?? null) : null;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/radio/sessions/recent',
    tag: 'radio',
    summary: "The caller's sessions, active and ended, newest first",
    description: 'Each with its current (last picked) track, without the full track list.',
    access: 'user',
    query: z.object({ limit: queryInt(20, { min: 1, max: 200 }) }),
    response: z.array(RadioSession),
    handler: ({ ctx, user, query }) => recentSessions(ctx.db, user.username, query.limit),
  }),
  defineRoute({
    method: 'get',
    path: '/radio/sessions/{session_id}',
    tag: 'radio',
    summary: 'One of the caller\'s sessions, with every track it picked and why',
    description: "Another user's session is a 404.",
    access: 'user',
    params: z.object({ session_id: z.string().min(1).max(64) }),
    response: RadioSessionDetail,
    errors: { 404: "No such session of the caller's" },
    handler: async ({ ctx, user, params }) => {
      const found = await findSession(ctx.db, user.username, params.session_id);
      if (!found) throw new NotFound('Radio session not found');
      return found;
    },
  }),
];
