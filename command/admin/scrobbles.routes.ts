import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Position } from '../../infra/eventstore/event-store.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { NotFound } from '../../shared/errors.ts';
import { invalidIdsByUser } from '../../query/admin/invalid-scrobbles.queries.ts';
import { KindFilter } from '../../query/admin/invalid-scrobbles.routes.ts';
import { findScrobble } from '../../query/scrobbler/scrobbles.queries.ts';
import { onScrobbles } from '../scrobbler/scrobble-log.ts';
import { userSince } from '../scrobbler/scrobbler-link.ts';

/** Ids per event: one purge of a large bucket is several events, each a bounded size. */
const CHUNK = 1000;

async function deleteFor(ctx: AppContext, userKey: string, ids: string[], reason: 'admin_delete' | 'invalid_purge', actor: string) {
  let deleted = 0;
  let last: Position | undefined;
  const since = await userSince(ctx, userKey);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const handled = await onScrobbles(ctx, userKey, { type: 'DeleteScrobbles', username: userKey, scrobbleIds: ids.slice(i, i + CHUNK), reason, meta: { now: new Date().toISOString(), actor, userSince: since } });
    const event = handled.events[0];
    if (event?.type === 'ScrobblesDeleted') deleted += event.data.scrobble_ids.length;
    last = handled.result?.position ?? last;
  }
  return { deleted, position: last };
}

export const adminScrobblesRoutes = [
  defineRoute({
    method: 'delete',
    path: '/admin/scrobbles/{scrobble_id}',
    tag: 'admin',
    summary: 'Delete one scrobble from its owner’s mirror (a later import does not bring it back)',
    access: 'admin',
    params: z.object({ scrobble_id: z.string().min(1).max(64) }),
    response: z.object({ scrobble_id: z.string(), deleted: z.number().int() }),
    errors: { 404: 'Unknown scrobble' },
    handler: async ({ ctx, user, params }) => {
      const scrobble = await findScrobble(ctx.db, params.scrobble_id);
      if (!scrobble) throw new NotFound('Scrobble not found');
      const { deleted, position } = await deleteFor(ctx, scrobble.username_key, [params.scrobble_id], 'admin_delete', user.username);
      await ctx.settle(position);
      return { scrobble_id: params.scrobble_id, deleted };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/admin/scrobbles/invalid/purge',
    tag: 'admin',
    summary: 'Delete every invalid scrobble of a bucket (or `all`)',
    access: 'admin',
    body: z.object({ kind: KindFilter }),
    response: z.object({ kind: KindFilter, deleted: z.number().int() }),
    handler: async ({ ctx, user, body }) => {
      let deleted = 0;
      let position: Position | undefined;
      for (const [userKey, ids] of await invalidIdsByUser(ctx.db, body.kind)) {
        const done = await deleteFor(ctx, userKey, ids, 'invalid_purge', user.username);
        deleted += done.deleted;
        position = done.position ?? position;
      }
      await ctx.settle(position);
      return { kind: body.kind, deleted };
    },
  }),
];
