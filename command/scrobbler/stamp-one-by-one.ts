import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import type { ScrobbleRow } from '../../infra/upstreams/scrobbler/schemas.ts';
import { scrobblerArtistId, scrobblerItemId } from '../../shared/canonical/external-ids.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { entityByRef } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { Observation } from '../canonical/observation.ts';
import { reconcile } from '../canonical/reconciler.ts';
import { type CanonicalIds, NO_IDS } from './canonical-ids.ts';

/**
 * The fallback of the page stamper: each artist, album and track reconciled on its own, so that
 * one that fails (logged) leaves the scrobble without that id instead of failing the whole page.
 * Each is looked up (or reconciled) once per stamper, and a ref the canonical layer already holds
 * is not observed again.
 */
export function oneByOneStamper(ctx: AppContext, actor: string | null) {
  const memo = new Map<string, Promise<string | null>>();

  function idFor(kind: Kind, externalId: string, observation: () => Observation): Promise<string | null> {
    const key = `${kind}\u0000${externalId}`;
    let found = memo.get(key);
    if (!found) {
      found = (async () => {
        const known = await entityByRef(ctx.db, kind, 'scrobbler', externalId);
        if (known) return known;
        try {
          return await reconcile(ctx, observation(), actor);
        } catch (error) {
          // A scrobble is worth keeping without its canonical ids; a manual link can add them later.
          log.warn('scrobbler: could not reconcile', { kind, error: String(error) });
          memo.delete(key);
          return null;
        }
      })();
      memo.set(key, found);
    }
    return found;
  }

  return async function stamp(row: ScrobbleRow): Promise<CanonicalIds> {
    if (row.artist.trim() === '' || row.track.trim() === '') return NO_IDS;
    const artistId = await idFor('artist', scrobblerArtistId(row.artist), () => ({
      source: 'scrobbler',
      kind: 'artist',
      external_id: scrobblerArtistId(row.artist),
      facts: { name: row.artist, ...(row.artist_mbid ? { mbid: row.artist_mbid } : {}) },
    }));
    const owner = artistId ? { artist_id: artistId, artist_name: row.artist } : {};
    const albumId = row.album
      ? await idFor('album', scrobblerItemId(row.artist, row.album), () => ({
          source: 'scrobbler',
          kind: 'album',
          external_id: scrobblerItemId(row.artist, row.album!),
          facts: { name: row.album!, ...owner, ...(row.album_mbid ? { mbid: row.album_mbid } : {}) },
        }))
      : null;
    const trackId = await idFor('track', scrobblerItemId(row.artist, row.track), () => ({
      source: 'scrobbler',
      kind: 'track',
      external_id: scrobblerItemId(row.artist, row.track),
      facts: {
        name: row.track,
        ...owner,
        ...(albumId ? { album_id: albumId, album_title: row.album! } : {}),
        ...(row.track_mbid ? { mbid: row.track_mbid } : {}),
      },
    }));
    return { canonical_artist_id: artistId, canonical_album_id: albumId, canonical_track_id: trackId };
  };
}

