import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { NotFound } from '../../shared/errors.ts';
import { invalidIdsByUser } from '../../projectors/scrobbler/invalid-scrobbles.reads.ts';
import { InvalidKindFilter as KindFilter } from '../../shared/scrobbles/invalid.ts';
import { findScrobble } from '../../projectors/scrobbler/scrobbles.reads.ts';
import { onScrobbles } from '../scrobbler/scrobble-log.ts';
import { accountSinceOrEarliest } from '../../projectors/auth/users.reads.ts';

/** Ids per event: one purge of a large bucket is several events, each a bounded size. */
const CHUNK = 1000;

/** Deletes scrobbles of one owner: how many were live. */
async function deleteFor(ctx: AppContext, userKey: string, ids: string[], reason: 'admin_delete' | 'invalid_purge', actor: string): Promise<number> {
  let deleted = 0;
  const since = await accountSinceOrEarliest(ctx.db, userKey);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const handled = await onScrobbles(ctx, userKey, { type: 'DeleteScrobbles', username: userKey, scrobbleIds: ids.slice(i, i + CHUNK), reason, meta: { now: new Date().toISOString(), actor, userSince: since } });
    const event = handled.events[0];
    if (event?.type === 'ScrobblesDeleted') deleted += event.data.scrobble_ids.length;
  }
  return deleted;
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
      const deleted = await deleteFor(ctx, scrobble.username_key, [params.scrobble_id], 'admin_delete', user.username);
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
      for (const [userKey, ids] of await invalidIdsByUser(ctx.db, body.kind)) deleted += await deleteFor(ctx, userKey, ids, 'invalid_purge', user.username);
      return { kind: body.kind, deleted };
    },
  }),
];
