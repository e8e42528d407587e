import type { Observation } from '../../command/canonical/observation.ts';

const GENRES = ['rock', 'jazz', 'electronic', 'ambient', 'hip hop', 'folk', 'classical', 'soul'];

/**
 * `count` track observations (each carrying its artist and album) as three sources would report a
 * library: every song once from the mediaserver (ISRC, UPC), then 2 in 5 of them again from the
 * catalog (matched by ISRC and UPC) or the scrobbler (matched by name key only). About 100 songs
 * an artist and 10 an album.
 */
export function syntheticObservations(count: number): Observation[] {
  const songs = Math.max(1, Math.ceil(count * 0.6));
  const out: Observation[] = [];
  for (let s = 0; s < songs && out.length < count; s++) out.push(mediaserverTrack(s));
  for (let n = 0; out.length < count; n++) {
    const s = (n * 7919) % songs;
    out.push(n % 2 === 0 ? catalogTrack(s) : scrobblerTrack(s));
  }
  return out;
}

const artistOf = (s: number) => Math.floor(s / 100);
const albumOf = (s: number) => Math.floor(s / 10);
const names = (s: number) => ({ artist: `Bench Artist ${artistOf(s)}`, album: `Bench Album ${albumOf(s)}`, song: `Bench Song ${s}` });

function mediaserverTrack(s: number): Observation {
  const n = names(s);
  const artist: Observation = { source: 'mediaserver', kind: 'artist', external_id: `mediaserver::bench::a${artistOf(s)}`, facts: { name: n.artist } };
  const album: Observation = {
    source: 'mediaserver', kind: 'album', external_id: `mediaserver::bench::b${albumOf(s)}`, artist,
    facts: { name: n.album, upc: `UPC${albumOf(s)}`, year: 1960 + (albumOf(s) % 60), genres: [GENRES[albumOf(s) % GENRES.length]!] },
  };
  return {
    source: 'mediaserver', kind: 'track', external_id: `mediaserver::bench::t${s}`, artist, album,
    facts: { name: n.song, isrc: `ISRC${s}`, disc: 1, track_number: (s % 10) + 1, duration_ms: 180_000 + s },
  };
}

function catalogTrack(s: number): Observation {
  const n = names(s);
  const artist: Observation = { source: 'catalog', kind: 'artist', external_id: `ca${artistOf(s)}`, facts: { name: n.artist } };
  const album: Observation = { source: 'catalog', kind: 'album', external_id: `cb${albumOf(s)}`, artist, facts: { name: n.album, upc: `UPC${albumOf(s)}` } };
  return { source: 'catalog', kind: 'track', external_id: `ct${s}`, artist, album, facts: { name: n.song, isrc: `ISRC${s}`, preview_url: `https://preview.example/${s}.mp3` } };
}

function scrobblerTrack(s: number): Observation {
  const n = names(s);
  const key = n.artist.toLowerCase();
  const artist: Observation = { source: 'scrobbler', kind: 'artist', external_id: key, facts: { name: n.artist } };
  const album: Observation = { source: 'scrobbler', kind: 'album', external_id: `${key}::${n.album}`, artist, facts: { name: n.album } };
  return { source: 'scrobbler', kind: 'track', external_id: `${key}::${n.song}`, artist, album, facts: { name: n.song } };
}
