import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { entityByRef } from '../../query/canonical/canonical.queries.ts';
import { AlbumCollectionRow, type CollectionStatus } from '../../query/me/album-collection.queries.ts';
import { FavoriteRow } from '../../query/me/favorites.queries.ts';
import { scrobblerArtistId } from '../../shared/canonical/external-ids.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { Removed, addAlbumAnswer, addFavoriteAnswer, removeAlbumAnswer, removeFavoriteAnswer } from '../me/me-answers.ts';
import { type ScrobblerName, entityFromScrobblerName } from './resolve-scrobbler.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const Name = z.string().trim().min(1).max(500);
const ArtistBody = z.object({ artist: Name });
const AlbumBody = z.object({ artist: Name, album: Name });
const TrackBody = z.object({ artist: Name, track: Name });
const TargetParams = z.object({ target_id: z.string().min(1).max(1100) });
const TARGET_NOTE = '`target_id` is the canonical id (any id of its merge chain) or the scrobbler id: the lowercased name for an artist, `<artist>::<name>` for an album or track (URL-encoded).';
const ADD_ERRORS = { 404: 'The scrobbler knows no such album', 502: 'The scrobbler failed' };

const nameOf = (kind: Kind, body: { artist: string; album?: string; track?: string }): ScrobblerName => ({ artist: body.artist, name: kind === 'album' ? body.album : kind === 'track' ? body.track : undefined });

async function resolveName(ctx: AppContext, kind: Kind, named: ScrobblerName, actor: string): Promise<string> {
  const id = await entityFromScrobblerName(ctx, kind, named, actor);
  if (!id) throw new NotFound(`The scrobbler knows no such ${kind}`);
  return id;
}

/** A canonical id the read model knows wins; otherwise the scrobbler ref's owner; otherwise as given (404 downstream when unknown). */
async function targetOf(ctx: AppContext, kind: Kind, target: string): Promise<string> {
  const doc = await ctx.db.selectFrom('canonical_docs').select('id').where('kind', '=', kind).where('id', '=', target).executeTakeFirst();
  if (doc) return doc.id;
  return (await entityByRef(ctx.db, kind, 'scrobbler', kind === 'artist' ? scrobblerArtistId(target) : target)) ?? target;
}

function favoriteRoutes(kind: Kind) {
  const path = `/scrobbler/me/favorites/${PLURAL[kind]}`;
  return [
    defineRoute({
      method: 'post',
      path,
      tag: 'scrobbler',
      summary: `Add a ${kind} to the caller's favorites by its scrobbler name`,
      description: `The name resolves through the canonical layer (the scrobbler ref, else fetched from the scrobbler and reconciled; an artist is minted from its name). The favorite is the one of \`/me/favorites/${PLURAL[kind]}\`. Adding twice changes nothing.`,
      access: 'user',
      body: kind === 'artist' ? ArtistBody : kind === 'album' ? AlbumBody : TrackBody,
      response: FavoriteRow,
      errors: ADD_ERRORS,
      handler: async ({ ctx, body, user }) => addFavoriteAnswer(ctx, user, kind, await resolveName(ctx, kind, nameOf(kind, body), user.username)),
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{target_id}`,
      tag: 'scrobbler',
      summary: `Remove a ${kind} from the caller's favorites`,
      description: `${TARGET_NOTE} Removing what is not there answers \`removed: false\`.`,
      access: 'user',
      params: TargetParams,
      response: Removed,
      errors: { 404: `Unknown ${kind}` },
      handler: async ({ ctx, params, user }) => removeFavoriteAnswer(ctx, user, kind, await targetOf(ctx, kind, params.target_id)),
    }),
  ];
}

function albumListRoutes(list: 'wishlist' | 'owned', status: CollectionStatus) {
  const path = `/scrobbler/me/albums/${list}`;
  return [
    defineRoute({
      method: 'post',
      path,
      tag: 'scrobbler',
      summary: list === 'owned' ? 'Mark an album as owned by its scrobbler name; from the wishlist it moves, keeping `wishlisted_at`' : 'Add an album to the wishlist by its scrobbler name',
      description: `The name resolves through the canonical layer as for favorites; the list is the one of \`/me/albums/${list}\`.`,
      access: 'user',
      body: AlbumBody,
      response: AlbumCollectionRow,
      errors: ADD_ERRORS,
      handler: async ({ ctx, body, user }) => addAlbumAnswer(ctx, user, status, await resolveName(ctx, 'album', nameOf('album', body), user.username)),
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{target_id}`,
      tag: 'scrobbler',
      summary: `Remove an album from the ${list === 'owned' ? 'owned list' : 'wishlist'}`,
      description: `${TARGET_NOTE} Removing what is not there answers \`removed: false\`.`,
      access: 'user',
      params: TargetParams,
      response: Removed,
      errors: { 404: 'Unknown album' },
      handler: async ({ ctx, params, user }) => removeAlbumAnswer(ctx, user, status, await targetOf(ctx, 'album', params.target_id)),
    }),
  ];
}

export const personalByNameRoutes = [
  ...favoriteRoutes('artist'),
  ...favoriteRoutes('album'),
  ...favoriteRoutes('track'),
  ...albumListRoutes('wishlist', 'wishlisted'),
  ...albumListRoutes('owned', 'owned'),
];
