import type { FakeLibrary } from '../test/fakes/mediaserver/server.ts';
import { type History, listHistory } from '../test/fakes/scrobbler/history.ts';

/** What the demo's media server holds: a few artists, their albums and tracks (titles only; the fake makes the rest). */
const ALBUMS = [
  { artist: 'Daft Punk', album: 'Discovery', year: 2001, tracks: ['One More Time', 'Aerodynamic', 'Digital Love', 'Harder, Better, Faster, Stronger'] },
  { artist: 'Ada Waveform', album: 'Sine of the Times', year: 2019, tracks: ['Carrier', 'Phase Shift', 'Nyquist Lullaby'] },
  { artist: 'Ada Waveform', album: 'Square Roots', year: 2022, tracks: ['Duty Cycle', 'Harmonics'] },
  { artist: 'The Loopback Quartet', album: '127.0.0.1', year: 2016, tracks: ['Localhost', 'Port Zero', 'Keep-Alive'] },
] as const;

/**
 * Ten seconds of 16-bit stereo PCM at 44.1 kHz: the fake serves a part as a WAV of its stated size,
 * so a size and duration that agree make a file every browser plays to the end.
 */
const TRACK_MS = 10_000;
const TRACK_BYTES = 44 + (TRACK_MS / 1000) * 44_100 * 4;

export const SAMPLE_ALBUM_COUNT = ALBUMS.length;

/** Puts the sample albums on the fake server, each with a cover (the fake draws one per item). */
export function stockLibrary(library: FakeLibrary): void {
  const artists = new Map<string, string>();
  for (const { artist, album, year, tracks } of ALBUMS) {
    const artistKey = artists.get(artist) ?? library.addArtist(artist);
    artists.set(artist, artistKey);
    const albumKey = library.addAlbum(artistKey, album, { year });
    library.update(albumKey, { thumb: `/library/metadata/${albumKey}/thumb/${year}` });
    tracks.forEach((title, i) =>
      library.addTrack(albumKey, { title, index: i + 1, codec: 'pcm', container: 'wav', bitDepth: 16, duration: TRACK_MS, size: TRACK_BYTES, bitrate: 1411 }),
    );
  }
}

/**
 * A listening history over the last three weeks, played from the sample albums: one scrobble every
 * five hours, ending an hour ago, with the order mixed so that the dashboard's tops differ.
 */
export function sampleHistory(nowSeconds = Math.floor(Date.now() / 1000)): History {
  const plays = ALBUMS.flatMap(({ artist, album, tracks }) => tracks.map((track) => ({ artist, album, track })));
  const rows = Array.from({ length: 100 }, (_, i) => ({ uts: nowSeconds - 3600 - i * 5 * 3600, ...plays[(i * 7 + (i % 3)) % plays.length]! }));
  return listHistory(rows);
}
