import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { refreshLibraries } from './libraries.ts';
import { SYNC_ALL_TASK, SYNC_LIBRARY_TASK } from './sync-library.task.ts';

const NOT_CONFIGURED = { 503: 'The media server is not configured' };

export const libraryCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/mediaserver/admin/libraries/refresh',
    tag: 'mediaserver',
    summary: "Re-read the server's identity and library sections into the mirror",
    access: 'admin',
    response: z.object({
      server_id: z.string(),
      friendly_name: z.string().nullable(),
      libraries: z.array(z.object({ section_id: z.string(), type: z.string(), title: z.string() })),
    }),
    errors: { ...NOT_CONFIGURED, 502: 'The media server failed' },
    handler: async ({ ctx, user }) => {
      const { serverId, identity, sections } = await refreshLibraries(ctx, user.username);
      return { server_id: serverId, friendly_name: identity.friendlyName ?? null, libraries: sections.map((s) => ({ section_id: s.key, type: s.type, title: s.title })) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/admin/libraries/{section_id}/sync',
    tag: 'mediaserver',
    summary: 'Sync one library section into the mirror and the canonical layer, as a task',
    description: '`quick=true` (music only) syncs artists and albums fully but fetches tracks only for new or changed albums.',
    access: 'admin',
    params: z.object({ section_id: z.string().min(1).max(64) }),
    query: z.object({ quick: queryBool(false) }),
    response: TaskStartedResponse,
    errors: NOT_CONFIGURED,
    handler: async ({ ctx, user, params, query }) => {
      mediaserverClients(ctx).server();
      const { task_id } = await ctx.tasks.start(SYNC_LIBRARY_TASK, { section_id: params.section_id, quick: query.quick }, user.username);
      return { task_id, name: SYNC_LIBRARY_TASK, status: 'running' as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/admin/sync-all',
    tag: 'mediaserver',
    summary: 'Sync every library section, as one task; `quick` is forwarded to each',
    access: 'admin',
    query: z.object({ quick: queryBool(false) }),
    response: TaskStartedResponse,
    errors: NOT_CONFIGURED,
    handler: async ({ ctx, user, query }) => {
      mediaserverClients(ctx).server();
      const { task_id } = await ctx.tasks.start(SYNC_ALL_TASK, { quick: query.quick }, user.username);
      return { task_id, name: SYNC_ALL_TASK, status: 'running' as const };
    },
  }),
];
