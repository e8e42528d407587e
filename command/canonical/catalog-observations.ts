import type { Facts } from '../../shared/events/canonical.events.ts';
import type { CatalogAlbum, CatalogAlbumRef, CatalogAlbumWithTracks, CatalogArtist, CatalogTrack } from '../../infra/upstreams/catalog/schemas.ts';
import type { Observation } from './observation.ts';
import { releaseTypes, yearOf } from '../../infra/upstreams/catalog/deezer.ts';

export { releaseTypes, yearOf };

/**
 * Catalog payloads as reconciler observations: pure, no I/O. The catalog's external id is its
 * numeric id as a string; a track also carries it as `catalog_id`, the field the client plays
 * previews and matches album tracklists by.
 */
export const catalogExternalId = (id: number | string) => String(id);

type Named = Facts & { name: string };

/** Drops absent facts, so that an observation records only what the payload said. */
function compact(facts: Named): Named {
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))) as Named;
}

/** The largest image, skipping the placeholder URLs the API builds around an empty image hash. */
function largestImage(...urls: (string | undefined)[]): string | undefined {
  return urls.find((url) => url && !/\/images\/[a-z]+\/\//.test(url));
}

export function artistObservation(artist: CatalogArtist): Observation {
  return {
    source: 'catalog',
    kind: 'artist',
    external_id: catalogExternalId(artist.id),
    facts: compact({ name: artist.name, cover_url: largestImage(artist.picture_xl, artist.picture_big, artist.picture_medium) }),
  };
}

/** An album from its own payload or as a track embeds it; `artist` is the album's main artist. */
export function albumObservation(album: CatalogAlbum | CatalogAlbumRef, artist: CatalogArtist): Observation {
  const full: Partial<CatalogAlbum> = album;
  return {
    source: 'catalog',
    kind: 'album',
    external_id: catalogExternalId(album.id),
    facts: compact({
      name: album.title,
      upc: full.upc,
      year: yearOf(album.release_date),
      cover_url: largestImage(album.cover_xl, album.cover_big, album.cover_medium),
      genres: full.genres?.data.map((g) => g.name),
      duration_ms: full.duration === undefined ? undefined : full.duration * 1000,
      ...releaseTypes(full.record_type),
    }),
    artist: artistObservation(artist),
  };
}

/**
 * A track; a tracklist row has no album of its own, so the caller passes the album it came from,
 * and its artist is a bare `{id, name}`: `artists` offers fuller payloads of the same ids, so that
 * observing the track does not strip the artist's picture.
 */
export function trackObservation(track: CatalogTrack, album?: Observation, artists: ReadonlyMap<number, CatalogArtist> = new Map()): Observation {
  const on = album ?? (track.album ? albumObservation(track.album, track.artist) : undefined);
  return {
    source: 'catalog',
    kind: 'track',
    external_id: catalogExternalId(track.id),
    facts: compact({
      name: track.title,
      isrc: track.isrc,
      duration_ms: track.duration === undefined ? undefined : track.duration * 1000,
      preview_url: track.preview ?? undefined,
      disc: track.disk_number,
      track_number: track.track_position,
      catalog_id: catalogExternalId(track.id),
      year: yearOf(track.release_date) ?? (on?.facts.year as number | undefined),
      cover_url: on?.facts.cover_url,
    }),
    artist: artistObservation(fullest(track.artist, artists.get(track.artist.id))),
    ...(on ? { album: on } : {}),
  };
}

/** An album and every track of its tracklist, each track pointing at the album. */
export function albumWithTracksObservations(payload: CatalogAlbumWithTracks): { album: Observation; tracks: Observation[]; artists: Map<number, CatalogArtist> } {
  const artists = new Map<number, CatalogArtist>();
  for (const artist of [payload.album.artist, ...(payload.album.contributors ?? [])]) artists.set(artist.id, fullest(artist, artists.get(artist.id)));
  const album = albumObservation(payload.album, artists.get(payload.album.artist.id)!);
  return { album, tracks: payload.tracks.map((track) => trackObservation(track, album, artists)), artists };
}

/** Of two payloads of one artist, the one that says more (list rows carry no pictures). */
function fullest(artist: CatalogArtist, other: CatalogArtist | undefined): CatalogArtist {
  if (!other) return artist;
  const size = (a: CatalogArtist) => Object.values(a).filter((v) => v !== undefined && v !== '').length;
  return size(other) > size(artist) ? other : artist;
}
