import { fixtureJson } from '../harness.ts';

/**
 * What the fake catalog knows: artists, albums and full track payloads in the shapes of the recorded
 * answers (`test/fixtures/upstream/deezer/`). Album tracklists are derived from the tracks whose
 * `album.id` points at the album, so one track added is visible from every endpoint.
 */
export type Json = Record<string, any>;

export interface CatalogState {
  artists: Map<number, Json>;
  albums: Map<number, Json>;
  tracks: Map<number, Json>;
  related: Map<number, number[]>;
}

export function emptyState(): CatalogState {
  return { artists: new Map(), albums: new Map(), tracks: new Map(), related: new Map() };
}

const ALBUM_REF_KEYS = ['id', 'title', 'link', 'cover', 'cover_small', 'cover_medium', 'cover_big', 'cover_xl', 'md5_image', 'release_date', 'tracklist', 'type'];
const TRACK_ROW_DROPS = ['share', 'release_date', 'bpm', 'gain', 'available_countries', 'contributors', 'album'];

/** The album as a track embeds it. */
export function albumRef(album: Json): Json {
  return Object.fromEntries(ALBUM_REF_KEYS.filter((k) => album[k] !== undefined).map((k) => [k, album[k]]));
}

/** The artist as list rows embed it. */
export function artistRef(artist: Json): Json {
  return { id: artist.id, name: artist.name, tracklist: artist.tracklist ?? `https://api.deezer.com/artist/${artist.id}/top?limit=50`, type: 'artist' };
}

/** A row of `/album/{id}/tracks`: positions and ISRC, no album, a short artist. */
export function tracklistRow(track: Json): Json {
  const row = Object.fromEntries(Object.entries(track).filter(([k]) => !TRACK_ROW_DROPS.includes(k)));
  return { ...row, artist: artistRef(track.artist) };
}

/** A track as the album endpoint embeds it: no ISRC and no positions either. */
export function embeddedTrack(track: Json): Json {
  const { isrc: _isrc, track_position: _position, disk_number: _disk, ...rest } = tracklistRow(track);
  return rest;
}

export function tracksOf(state: CatalogState, albumId: number): Json[] {
  return [...state.tracks.values()]
    .filter((t) => t.album?.id === albumId)
    .sort((a, b) => (a.disk_number ?? 1) - (b.disk_number ?? 1) || (a.track_position ?? 0) - (b.track_position ?? 0));
}

export function addArtist(state: CatalogState, artist: Json): void {
  state.artists.set(artist.id, artist);
}

/** An album and, optionally, its tracks (full payloads or tracklist rows: the album is filled in). */
export function addAlbum(state: CatalogState, album: Json, tracks: Json[] = []): void {
  const { tracks: _embedded, ...stored } = album;
  state.albums.set(album.id, stored);
  if (!state.artists.has(album.artist.id)) addArtist(state, album.artist);
  for (const track of tracks) addTrack(state, { ...track, album: track.album ?? albumRef(album) });
}

/** A track; a second payload for the same id adds to the first (a full track over a tracklist row). */
export function addTrack(state: CatalogState, track: Json): void {
  state.tracks.set(track.id, { ...state.tracks.get(track.id), ...track });
  if (!state.artists.has(track.artist.id)) addArtist(state, track.artist);
}

/** Every recorded payload: Daft Punk's Discovery (5 of its tracks), Die With A Smile and their artists. */
export function loadFixtures(state: CatalogState): void {
  const file = (name: string) => fixtureJson<Json>('deezer', name);
  addArtist(state, file('artist.27.json'));
  addAlbum(state, file('album.302127.json'), file('album.302127.tracks.json').data);
  addTrack(state, file('track.3135556.json'));
  addAlbum(state, file('album.629506181.json'));
  addTrack(state, file('track.2947516331.json'));
  const related = file('artist.27.related.json').data as Json[];
  for (const artist of related) addArtist(state, artist);
  state.related.set(27, related.map((a) => a.id));
}
