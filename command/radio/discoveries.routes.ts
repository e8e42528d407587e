import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { discoveryCommands } from './discovery-commands.ts';

export const discoveryCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/radio/discoveries/{discovery_id}/dismiss',
    tag: 'radio',
    summary: 'Dismiss a discovery: it leaves the list and the summary',
    description: "Dismissing twice changes nothing; another user's discovery is a 404.",
    access: 'user',
    params: z.object({ discovery_id: z.string().min(1).max(64) }),
    response: z.object({ discovery_id: z.string(), dismissed: z.literal(true) }),
    errors: { 404: "No such discovery of the caller's" },
    handler: async ({ ctx, user, params }) => {
      await discoveryCommands(ctx, user.username).dismiss(user.username, params.discovery_id);
      return { discovery_id: params.discovery_id, dismissed: true as const };
    },
  }),
];
