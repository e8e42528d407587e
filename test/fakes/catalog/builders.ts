import { albumRef, artistRef, type Json } from './store.ts';

/**
 * Payloads in the recorded shapes for entities a test invents (`artist.27.json`,
 * `album.302127.json`, `track.3135556.json`); `extra` overrides or adds fields.
 */
const CDN = 'https://cdn-images.dzcdn.net/images';

export function artistPayload(id: number, name: string, extra: Json = {}): Json {
  const image = (size: number) => `${CDN}/artist/${id.toString(16).padStart(32, '0')}/${size}x${size}-000000-80-0-0.jpg`;
  return {
    id,
    name,
    link: `https://www.deezer.com/artist/${id}`,
    picture: `https://api.deezer.com/artist/${id}/image`,
    picture_small: image(56),
    picture_medium: image(250),
    picture_big: image(500),
    picture_xl: image(1000),
    nb_album: 1,
    nb_fan: 0,
    radio: true,
    tracklist: `https://api.deezer.com/artist/${id}/top?limit=50`,
    type: 'artist',
    ...extra,
  };
}

export function albumPayload(id: number, title: string, artist: Json, extra: Json = {}): Json {
  const cover = (size: number) => `${CDN}/cover/${id.toString(16).padStart(32, '0')}/${size}x${size}-000000-80-0-0.jpg`;
  return {
    id,
    title,
    upc: String(id).padStart(12, '0'),
    link: `https://www.deezer.com/album/${id}`,
    cover: `https://api.deezer.com/album/${id}/image`,
    cover_small: cover(56),
    cover_medium: cover(250),
    cover_big: cover(500),
    cover_xl: cover(1000),
    genre_id: 132,
    genres: { data: [{ id: 132, name: 'Pop', picture: 'https://api.deezer.com/genre/132/image', type: 'genre' }] },
    label: 'Independent',
    nb_tracks: 0,
    duration: 0,
    release_date: '2020-01-01',
    record_type: 'album',
    available: true,
    tracklist: `https://api.deezer.com/album/${id}/tracks`,
    explicit_lyrics: false,
    contributors: [{ ...artist, role: 'Main' }],
    artist,
    type: 'album',
    ...extra,
  };
}

/** A full `/track/{id}` payload; `position` is `[disc, track]`. */
export function trackPayload(id: number, title: string, artist: Json, album: Json, position: [number, number] = [1, 1], extra: Json = {}): Json {
  return {
    id,
    readable: true,
    title,
    title_short: title,
    title_version: '',
    isrc: `TEST${String(id).padStart(8, '0')}`,
    link: `https://www.deezer.com/track/${id}`,
    duration: 200,
    track_position: position[1],
    disk_number: position[0],
    rank: 1000,
    release_date: album.release_date,
    explicit_lyrics: false,
    preview: `https://cdnt-preview.dzcdn.net/api/1/1/${id}.mp3`,
    bpm: 0,
    gain: -10,
    available_countries: ['FR'],
    contributors: [{ ...artist, role: 'Main' }],
    artist,
    album: albumRef(album),
    type: 'track',
    ...extra,
  };
}

export { artistRef };
