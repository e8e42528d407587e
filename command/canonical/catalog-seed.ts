import type { AppContext } from '../../infra/context.ts';
import { cachedCatalog } from '../../infra/upstreams/catalog/cache.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { NotFound, UpstreamNotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { assertNever } from '../../shared/never.ts';
import { canonicalCommands } from './canonical-commands.ts';
import { albumWithTracksObservations, artistObservation, catalogExternalId, trackObservation } from './catalog-observations.ts';
import { reconcile } from './reconciler.ts';

const inFlight = new WeakMap<AppContext, Map<string, Promise<string>>>();

/**
 * The canonical id of the catalog's artist, album or track: the entity that owns the catalog ref
 * (following merges), or a new one reconciled from the catalog's payload (an album brings its
 * tracks and artist; a track its album and artist). NotFound when the catalog has nothing under
 * that id; UpstreamError (502) when the catalog failed.
 */
export function seedFromCatalog(ctx: AppContext, kind: Kind, catalogId: string | number, actor: string | null = null): Promise<string> {
  const externalId = catalogExternalId(catalogId).trim();
  const running = inFlight.get(ctx) ?? new Map<string, Promise<string>>();
  inFlight.set(ctx, running);
  const key = `${kind}:${externalId}`;
  // Two requests for one entity share one fetch and one reconcile.
  let seeding = running.get(key);
  if (!seeding) {
    seeding = seed(ctx, kind, externalId, actor).finally(() => running.delete(key));
    running.set(key, seeding);
  }
  return seeding;
}

async function seed(ctx: AppContext, kind: Kind, externalId: string, actor: string | null): Promise<string> {
  // The catalog's ids are integers: anything else cannot be there, and is not worth a request.
  if (!/^\d+$/.test(externalId)) throw new NotFound(`The catalog has no ${kind} ${externalId}`);
  const commands = canonicalCommands(ctx, actor);
  const owner = await commands.owner(kind, { source: 'catalog', external_id: externalId });
  if (owner) return commands.finalId(kind, owner);
  try {
    return await reconcileFromCatalog(ctx, kind, externalId, actor);
  } catch (error) {
    if (error instanceof UpstreamNotFound) throw new NotFound(`The catalog has no ${kind} ${externalId}`);
    throw error;
  }
}

async function reconcileFromCatalog(ctx: AppContext, kind: Kind, externalId: string, actor: string | null): Promise<string> {
  const catalog = cachedCatalog(ctx.db, catalogClient(ctx.config));
  switch (kind) {
    case 'artist':
      return reconcile(ctx, artistObservation(await catalog.artist(externalId)), actor);
    case 'track':
      return reconcile(ctx, trackObservation(await catalog.track(externalId)), actor);
    case 'album': {
      const { album, tracks } = albumWithTracksObservations(await catalog.albumWithTracks(externalId));
      const albumId = await reconcile(ctx, album, actor);
      for (const track of tracks) await reconcile(ctx, track, actor);
      return albumId;
    }
    default:
      return assertNever(kind);
  }
}
