import type { AppContext } from '../../infra/context.ts';
import { scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import type { ItemInfo } from '../../infra/upstreams/scrobbler/schemas.ts';
import { scrobblerArtistId, scrobblerItemId } from '../../shared/canonical/external-ids.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { entityByRef } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { Observation } from '../canonical/observation.ts';
import { reconcile } from '../canonical/reconciler.ts';

/** `<artist>::<name>`, split at the first separator; undefined when the shape is not there. */
export function splitScrobblerItemId(externalId: string): { artist: string; name: string } | undefined {
  const at = externalId.indexOf('::');
  if (at <= 0 || at + 2 >= externalId.length) return undefined;
  return { artist: externalId.slice(0, at), name: externalId.slice(at + 2) };
}

const mbid = (value: string | null | undefined) => (value ? { mbid: value } : {});

/**
 * Brings a scrobbler album or track the canonical layer does not know yet into it: its facts are
 * fetched (getInfo, names as given: no autocorrection, so the ref keeps the shape asked for) and
 * reconciled under its artist. Undefined when the scrobbler knows no such album. Without a
 * configured scrobbler the id's own names are the only facts.
 */
export async function reconcileFromScrobbler(ctx: AppContext, kind: 'album' | 'track', externalId: string, actor: string): Promise<string | undefined> {
  const parts = splitScrobblerItemId(externalId);
  if (!parts) return undefined;
  const client = scrobblerClient(ctx.config);
  let info: ItemInfo | null = null;
  if (client.configured) {
    try {
      info = kind === 'album' ? await client.albumInfo(parts.artist, parts.name) : await client.trackInfo(parts.artist, parts.name);
    } catch (error) {
      if (error instanceof UpstreamNotFound) return undefined;
      throw error;
    }
  }
  const artist: Observation = { source: 'scrobbler', kind: 'artist', external_id: scrobblerArtistId(parts.artist), facts: { name: parts.artist, ...mbid(info?.artist_mbid) } };
  const cover = info?.cover_url ? { cover_url: info.cover_url } : {};
  if (kind === 'album') {
    return reconcile(ctx, { source: 'scrobbler', kind, external_id: externalId, facts: { name: parts.name, ...mbid(info?.mbid), ...cover }, artist }, actor);
  }
  const album: Observation | undefined = info?.album
    ? { source: 'scrobbler', kind: 'album', external_id: scrobblerItemId(parts.artist, info.album), facts: { name: info.album, ...mbid(info.album_mbid), ...cover }, artist }
    : undefined;
  const duration = info?.duration_ms ? { duration_ms: info.duration_ms } : {};
  return reconcile(ctx, { source: 'scrobbler', kind, external_id: externalId, facts: { name: parts.name, ...mbid(info?.mbid), ...duration }, artist, album }, actor);
}

/** What a by-name request names: an artist, or an album or track under its artist. */
export interface ScrobblerName {
  artist: string;
  name?: string;
}

/**
 * The canonical entity a scrobbler name stands for: the owner of its scrobbler ref when known;
 * otherwise an artist is minted from its name (its name is its id, nothing to fetch) and an album
 * or track is fetched from the scrobbler and reconciled (a name key joins it to the entity other
 * sources already brought). Undefined when the scrobbler knows no such album.
 */
export async function entityFromScrobblerName(ctx: AppContext, kind: Kind, named: ScrobblerName, actor: string): Promise<string | undefined> {
  const externalId = kind === 'artist' ? scrobblerArtistId(named.artist) : scrobblerItemId(named.artist, named.name ?? '');
  const known = await entityByRef(ctx.db, kind, 'scrobbler', externalId);
  if (known) return known;
  if (kind === 'artist') return reconcile(ctx, { source: 'scrobbler', kind, external_id: externalId, facts: { name: named.artist } }, actor);
  return reconcileFromScrobbler(ctx, kind, externalId, actor);
}
