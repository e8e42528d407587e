import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { entityByRef } from '../../projectors/canonical/canonical-docs.reads.ts';
import { scrobblerArtistId } from '../../shared/canonical/external-ids.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { personalListWriteRoutes } from '../me/personal-lists.ts';
import { type ScrobblerName, entityFromScrobblerName } from './resolve-scrobbler.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const Name = z.string().trim().min(1).max(500);
const ArtistBody = z.object({ artist: Name });
const AlbumBody = z.object({ artist: Name, album: Name });
const TrackBody = z.object({ artist: Name, track: Name });
const NameBody = z.union([ArtistBody, AlbumBody, TrackBody]);
const TARGET_NOTE = '`target_id` is the canonical id (any id of its merge chain) or the scrobbler id: the lowercased name for an artist, `<artist>::<name>` for an album or track (URL-encoded).';

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

/** The personal lists of `/me`, by scrobbler name: the same store, whichever way an entry was added. */
export const personalByNameRoutes = personalListWriteRoutes({
  prefix: '/scrobbler/me',
  tag: 'scrobbler',
  by: ' by its scrobbler name',
  addBody: (kind): typeof NameBody => (kind === 'artist' ? ArtistBody : kind === 'album' ? AlbumBody : TrackBody) as unknown as typeof NameBody,
  addDescription: (kind, list) =>
    list
      ? `The name resolves through the canonical layer as for favorites; the list is the one of \`/me/albums/${list}\`.`
      : `The name resolves through the canonical layer (the scrobbler ref, else fetched from the scrobbler and reconciled; an artist is minted from its name). The favorite is the one of \`/me/favorites/${PLURAL[kind]}\`. Adding twice changes nothing.`,
  addErrors: { 404: 'The scrobbler knows no such album', 502: 'The scrobbler failed' },
  addTarget: (ctx, user, kind, body) => resolveName(ctx, kind, nameOf(kind, body), user.username),
  param: 'target_id',
  removeParams: z.object({ target_id: z.string().min(1).max(1100) }),
  removeDescription: () => `${TARGET_NOTE} Removing what is not there answers \`removed: false\`.`,
  removeTarget: (ctx, kind, params) => targetOf(ctx, kind, params.target_id),
});
