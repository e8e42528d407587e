/**
 * A user's listening history as the fake serves it, newest first. Generated histories compute
 * each scrobble from its index, so a million scrobbles cost no memory and page N costs as much as
 * page 1.
 */
export interface FakeScrobble {
  uts: number;
  artist: string;
  artist_mbid: string;
  album: string;
  album_mbid: string;
  track: string;
  track_mbid: string;
}

export interface History {
  readonly count: number;
  /** Index 0 is the newest scrobble. */
  at(index: number): FakeScrobble;
  /** Indexes [start, end) of the scrobbles with from <= uts <= to. */
  window(from?: number, to?: number): { start: number; end: number };
}

/** A small explicit history (tests that need particular rows: duplicates, impossible timestamps). */
export function listHistory(rows: (Partial<FakeScrobble> & Pick<FakeScrobble, 'uts' | 'artist' | 'track'>)[]): History {
  const sorted = rows
    .map((r) => ({ artist_mbid: '', album: '', album_mbid: '', track_mbid: '', ...r }))
    .sort((a, b) => b.uts - a.uts);
  return {
    count: sorted.length,
    at: (i) => sorted[i]!,
    window(from = -Infinity, to = Infinity) {
      const start = sorted.findIndex((r) => r.uts <= to);
      if (start < 0) return { start: sorted.length, end: sorted.length };
      let end = start;
      while (end < sorted.length && sorted[end]!.uts >= from) end++;
      return { start, end };
    },
  };
}

export interface GeneratedOptions {
  count: number;
  /** uts of scrobble 0; the others go back `stepSeconds` each. */
  newestUts?: number;
  stepSeconds?: number;
  artists?: number;
  albumsPerArtist?: number;
  tracksPerAlbum?: number;
}

/** Cheap, well-mixed integer hash (so that neighbouring scrobbles play different tracks). */
function mix(n: number): number {
  let x = (n + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const mbid = (kind: number, ...n: number[]) => {
  const hex = n.map((v) => v.toString(16).padStart(4, '0')).join('').padEnd(12, '0').slice(0, 12);
  return `0000000${kind}-0000-4000-8000-${hex}`;
};

export function generatedHistory(options: GeneratedOptions): History {
  const { count, newestUts = 1_700_000_000, stepSeconds = 180, artists = 200, albumsPerArtist = 3, tracksPerAlbum = 8 } = options;
  const perArtist = albumsPerArtist * tracksPerAlbum;
  return {
    count,
    at(i) {
      const uts = newestUts - i * stepSeconds;
      // Content follows the timestamp, not the index: a longer history with a later newest scrobble
      // holds the same older scrobbles (new ones "arrive").
      const pick = mix(Math.floor(uts / stepSeconds)) % (artists * perArtist);
      const a = Math.floor(pick / perArtist);
      const b = Math.floor((pick % perArtist) / tracksPerAlbum);
      const t = pick % tracksPerAlbum;
      return {
        uts,
        artist: `Artist ${a}`,
        // Every third artist has no mbid, as on the real service.
        artist_mbid: a % 3 === 0 ? '' : mbid(1, a),
        album: `Album ${a}.${b}`,
        album_mbid: mbid(2, a, b),
        track: `Track ${a}.${b}.${t}`,
        track_mbid: t % 2 === 0 ? mbid(3, a, b, t) : '',
      };
    },
    window(from = -Infinity, to = Infinity) {
      const start = Math.max(0, Math.ceil((newestUts - to) / stepSeconds));
      const end = Math.min(count, Math.floor((newestUts - from) / stepSeconds) + 1);
      return { start: Math.min(start, count), end: Math.max(Math.min(start, count), end) };
    },
  };
}
