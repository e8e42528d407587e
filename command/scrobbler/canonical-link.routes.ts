import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { Forbidden, NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { ScrobbleRecord, findScrobble, toScrobbleRecord } from '../../projectors/scrobbler/scrobbles.reads.ts';
import { onScrobbles } from './scrobble-log.ts';
import { accountSinceOrEarliest } from '../../projectors/auth/users.reads.ts';

const CanonicalId = z.string().min(1).max(64).nullable().optional();

/** A given id must name a canonical entity of its kind; a merged-away one is followed to its target. */
async function liveId(ctx: AppContext, kind: Kind, id: string | null | undefined, current: string | null): Promise<string | null> {
  if (id === undefined) return current;
  if (id === null) return null;
  const doc = await findDoc(ctx.db, kind, id);
  if (!doc) throw new NotFound(`Canonical ${kind} ${id} not found`);
  return doc.id;
}

export const canonicalLinkRoutes = [
  defineRoute({
    method: 'post',
    path: '/scrobbler/me/scrobbles/{scrobble_id}/canonical-link',
    tag: 'scrobbler',
    summary: 'Stamp one of the caller’s scrobbles with canonical ids by hand',
    description: 'An omitted id keeps the current stamp, null clears it. 403 when the scrobble belongs to another user.',
    access: 'user',
    params: z.object({ scrobble_id: z.string().min(1).max(64) }),
    body: z.object({ canonical_artist_id: CanonicalId, canonical_album_id: CanonicalId, canonical_track_id: CanonicalId }),
    response: ScrobbleRecord,
    errors: { 403: 'The scrobble is not the caller’s', 404: 'Unknown scrobble or canonical id' },
    handler: async ({ ctx, user, params, body }) => {
      const scrobble = await findScrobble(ctx.db, params.scrobble_id);
      if (!scrobble) throw new NotFound('Scrobble not found');
      const key = usernameKey(user.username);
      if (scrobble.username_key !== key) throw new Forbidden('This scrobble belongs to another user');
      const canonical = {
        artist: await liveId(ctx, 'artist', body.canonical_artist_id, scrobble.canonical_artist_id),
        album: await liveId(ctx, 'album', body.canonical_album_id, scrobble.canonical_album_id),
        track: await liveId(ctx, 'track', body.canonical_track_id, scrobble.canonical_track_id),
      };
      await onScrobbles(ctx, key, {
        type: 'LinkCanonical',
        username: user.username,
        scrobbleId: params.scrobble_id,
        canonical,
        meta: { now: new Date().toISOString(), actor: user.username, userSince: await accountSinceOrEarliest(ctx.db, user.username) },
      });
    },
    answer: async ({ ctx, params }) => {
      const row = await ctx.db.selectFrom('scrobbles').selectAll().where('scrobble_id', '=', params.scrobble_id).executeTakeFirstOrThrow();
      return toScrobbleRecord(row);
    },
  }),
];
