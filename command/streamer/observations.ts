import type { AlbumObject, TrackObject } from '../../infra/upstreams/streamer/schemas.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';
import type { MirrorTrack } from '../../shared/events/streamer.events.ts';
import type { Observation } from '../canonical/observation.ts';

/**
 * Streamer payloads as reconciler observations: pure, no I/O. The external id is the API's own id.
 * Each ref is observed with the same facts whichever endpoint showed it (a track in the saved
 * tracks, a playlist or the recent plays; an album embedded in a track or saved), so that a
 * re-sync of an unchanged account observes nothing new: artists by name only, albums with the UPC
 * the saved albums gave (`upcs`), tracks without the rotating preview URL.
 */
type Named = Facts & { name: string };

function compact(facts: Named): Named {
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Named;
}

const yearOf = (date: string | null | undefined) => {
  const year = date ? Number.parseInt(date.slice(0, 4), 10) : Number.NaN;
  return Number.isInteger(year) && year > 0 ? year : undefined;
};

export function artistObservation(artist: { id: string | null; name: string }): Observation | undefined {
  return artist.id ? { source: 'streamer', kind: 'artist', external_id: artist.id, facts: { name: artist.name } } : undefined;
}

export function albumObservation(album: AlbumObject, upcs: ReadonlyMap<string, string>): Observation | undefined {
  if (!album.id) return undefined;
  const artist = album.artists[0] ? artistObservation(album.artists[0]) : undefined;
  return {
    source: 'streamer',
    kind: 'album',
    external_id: album.id,
    facts: compact({ name: album.name, upc: upcs.get(album.id), year: yearOf(album.release_date), cover_url: album.images[0]?.url }),
    ...(artist ? { artist } : {}),
  };
}

export function trackObservation(track: TrackObject & { id: string }, upcs: ReadonlyMap<string, string>): Observation {
  const artist = track.artists[0] ? artistObservation(track.artists[0]) : undefined;
  const album = track.album ? albumObservation(track.album, upcs) : undefined;
  return {
    source: 'streamer',
    kind: 'track',
    external_id: track.id,
    facts: compact({
      name: track.name,
      isrc: track.external_ids?.isrc?.toUpperCase(),
      duration_ms: track.duration_ms ?? undefined,
      disc: track.disc_number ?? undefined,
      track_number: track.track_number ?? undefined,
    }),
    ...(artist ? { artist } : {}),
    ...(album ? { album } : {}),
  };
}

/** A track as the mirror keeps it. */
export function mirrorTrack(track: TrackObject & { id: string }, canonicalTrackId: string | null): MirrorTrack {
  return {
    track_id: track.id,
    name: track.name,
    artist_name: track.artists.map((a) => a.name).join(', ') || null,
    album_name: track.album?.name ?? null,
    isrc: track.external_ids?.isrc?.toUpperCase() ?? null,
    duration_ms: track.duration_ms ?? null,
    canonical_track_id: canonicalTrackId,
  };
}

/** Only tracks with an id reach the canonical layer (a local file or an episode does not). */
export const isTrack = (track: TrackObject | null): track is TrackObject & { id: string } => Boolean(track && track.id && track.type === 'track');
