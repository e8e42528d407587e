import type { AppContext } from '../../infra/context.ts';
import { cachedCatalog } from '../../infra/upstreams/catalog/cache.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import type { CatalogAlbumWithTracks } from '../../infra/upstreams/catalog/schemas.ts';
import { NotFound, UpstreamNotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { assertNever } from '../../shared/never.ts';
import { canonicalCommands } from './canonical-commands.ts';
import { albumWithTracksObservations, artistObservation, catalogExternalId, trackObservation } from './catalog-observations.ts';
import type { Observation } from './observation.ts';
import { reconcile } from './reconciler.ts';

const inFlight = new WeakMap<AppContext, Map<string, Promise<string>>>();

/**
 * The canonical id of the catalog's artist, album or track: the entity that owns the catalog ref
 * (following merges), or a new one reconciled from the catalog's payload (an album brings its
 * tracks and artist; a track its artist and its whole album). NotFound when the catalog has nothing under
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

type Catalog = ReturnType<typeof cachedCatalog>;

async function reconcileFromCatalog(ctx: AppContext, kind: Kind, externalId: string, actor: string | null): Promise<string> {
  const catalog = cachedCatalog(ctx.db, catalogClient(ctx.config));
  switch (kind) {
    case 'artist':
      return reconcile(ctx, artistObservation(await catalog.artist(externalId)), actor);
    case 'album':
      return reconcileAlbum(ctx, await catalog.albumWithTracks(externalId), actor);
    case 'track':
      return reconcileTrack(ctx, catalog, externalId, actor);
    default:
      return assertNever(kind);
  }
}

/** The album, its artist and every track of its tracklist (the one already reconciled skipped). */
async function reconcileAlbum(ctx: AppContext, payload: CatalogAlbumWithTracks, actor: string | null, skip?: string): Promise<string> {
  const { album, tracks } = albumWithTracksObservations(payload);
  const artistId = await reconcile(ctx, album.artist!, actor);
  const albumId = await reconcile(ctx, album, actor);
  const placed = { artistId, albumId, artist: album.artist!, album };
  for (const track of tracks) if (track.external_id !== skip) await reconcile(ctx, onAlbum(track, placed), actor);
  return albumId;
}

interface Placed {
  artistId: string;
  albumId: string;
  artist: Observation;
  album: Observation;
}

/**
 * A tracklist row by the album's own artist names its artist and album by canonical id, instead of
 * nesting observations the reconciler would walk again for every track; a guest artist's row keeps
 * its nested artist.
 */
export function onAlbum(track: Observation, placed: Placed): Observation {
  if (track.artist?.external_id !== placed.artist.external_id || track.album !== placed.album) return track;
  const { artist: _artist, album: _album, ...rest } = track;
  const facts = { ...track.facts, artist_id: placed.artistId, artist_name: placed.artist.facts.name, album_id: placed.albumId, album_title: placed.album.facts.name };
  return { ...rest, facts };
}

/**
 * A track comes with its whole album, so that the album is never a thin copy of what the track
 * embeds (no UPC, no genres, one track) that a later resolve would find and stop at.
 */
async function reconcileTrack(ctx: AppContext, catalog: Catalog, externalId: string, actor: string | null): Promise<string> {
  const track = await catalog.track(externalId);
  if (!track.album) return reconcile(ctx, trackObservation(track), actor);
  const full = await albumOf(catalog, String(track.album.id));
  if (!full) return reconcile(ctx, trackObservation(track), actor);
  const { album, artists } = albumWithTracksObservations(full);
  const id = await reconcile(ctx, trackObservation(track, album, artists), actor);
  await reconcileAlbum(ctx, full, actor, externalId);
  return id;
}

/** The track's album in full, or undefined when the catalog no longer has it. */
async function albumOf(catalog: Catalog, albumId: string) {
  try {
    return await catalog.albumWithTracks(albumId);
  } catch (error) {
    if (error instanceof UpstreamNotFound) return undefined;
    throw error;
  }
}
