import { z } from 'zod';

/**
 * What the scrobbler answers, and its normalization. Almost every scalar is a string; text nodes
 * with attributes use `#text`; a single-item list may arrive collapsed into an object (older
 * answers), and an empty history may carry its totals without `@attr`.
 */
const text = z.union([z.string(), z.number()]).transform(String);
const TextNode = z.union([text, z.object({ '#text': text.optional(), name: text.optional(), mbid: text.optional() }).passthrough()]);

/** The error envelope: `{error: <int>, message, links?}`. */
export const ErrorEnvelope = z.object({ error: z.coerce.number().int(), message: z.string().default('') });

export const RecentTrack = z
  .object({
    '@attr': z.object({ nowplaying: text.optional() }).passthrough().optional(),
    artist: TextNode,
    album: TextNode.optional(),
    name: text,
    mbid: text.optional(),
    date: z.object({ uts: text }).passthrough().optional(),
  })
  .passthrough();
type RecentTrack = z.infer<typeof RecentTrack>;

const Totals = z.object({ page: text.optional(), perPage: text.optional(), totalPages: text.optional(), total: text.optional(), user: text.optional() }).passthrough();

export const RecentTracksAnswer = z.object({
  recenttracks: Totals.extend({
    '@attr': Totals.optional(),
    track: z.union([z.array(RecentTrack), RecentTrack]).optional(),
  }),
});

export const SessionAnswer = z.object({
  session: z.object({ name: text, key: text, subscriber: z.union([z.string(), z.number()]).optional() }),
});

/** One finished scrobble, normalized. */
export interface ScrobbleRow {
  uts: number;
  artist: string;
  album: string | null;
  track: string;
  artist_mbid: string | null;
  album_mbid: string | null;
  track_mbid: string | null;
}

export interface RecentTracksPage {
  user: string | null;
  page: number;
  perPage: number;
  totalPages: number;
  total: number;
  /** Finished scrobbles only: the now-playing row has no timestamp and is not a scrobble. */
  scrobbles: ScrobbleRow[];
  nowPlaying: { artist: string; track: string } | null;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value);
const int = (value: string | undefined) => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};

function nodeText(node: z.infer<typeof TextNode> | undefined): string | null {
  if (node === undefined) return null;
  if (typeof node === 'string') return nonEmpty(node);
  return nonEmpty(node['#text'] ?? node.name);
}

function nodeMbid(node: z.infer<typeof TextNode> | undefined): string | null {
  return node !== undefined && typeof node !== 'string' ? nonEmpty(node.mbid) : null;
}

function isNowPlaying(track: RecentTrack): boolean {
  return track['@attr']?.nowplaying === 'true' || track.date === undefined;
}

function toRow(track: RecentTrack): ScrobbleRow {
  return {
    uts: int(track.date?.uts),
    artist: nodeText(track.artist) ?? '',
    album: nodeText(track.album),
    track: track.name,
    artist_mbid: nodeMbid(track.artist),
    album_mbid: nodeMbid(track.album),
    track_mbid: nonEmpty(track.mbid),
  };
}

export function normalizeRecentTracks(answer: z.infer<typeof RecentTracksAnswer>): RecentTracksPage {
  const body = answer.recenttracks;
  const totals = body['@attr'] ?? body;
  const tracks = body.track === undefined ? [] : Array.isArray(body.track) ? body.track : [body.track];
  const playing = tracks.find(isNowPlaying);
  return {
    user: totals.user ?? null,
    page: int(totals.page),
    perPage: int(totals.perPage),
    totalPages: int(totals.totalPages),
    total: int(totals.total),
    scrobbles: tracks.filter((t) => !isNowPlaying(t)).map(toRow),
    nowPlaying: playing ? { artist: nodeText(playing.artist) ?? '', track: playing.name } : null,
  };
}

const Image = z.array(z.object({ size: z.string().optional(), '#text': z.string().optional() }).passthrough()).optional();

export const AlbumInfoAnswer = z.object({
  album: z.object({ name: text, artist: text, mbid: text.optional(), image: Image }).passthrough(),
});

export const TrackInfoAnswer = z.object({
  track: z
    .object({
      name: text,
      mbid: text.optional(),
      duration: text.optional(),
      artist: z.object({ name: text, mbid: text.optional() }).passthrough(),
      album: z.object({ title: text, mbid: text.optional(), image: Image }).passthrough().optional(),
    })
    .passthrough(),
});

/** What album.getInfo and track.getInfo tell the canonical layer. */
export interface ItemInfo {
  artist: string;
  artist_mbid: string | null;
  name: string;
  mbid: string | null;
  album: string | null;
  album_mbid: string | null;
  cover_url: string | null;
  duration_ms: number | null;
}

/** The largest image: the scrobbler lists them small to extralarge (or mega). */
function largestImage(images: z.infer<typeof Image>): string | null {
  const urls = (images ?? []).map((i) => i['#text']).filter((u): u is string => Boolean(u && u.trim()));
  return urls.at(-1) ?? null;
}

export function normalizeAlbumInfo(answer: z.infer<typeof AlbumInfoAnswer>): ItemInfo {
  const a = answer.album;
  return { artist: a.artist, artist_mbid: null, name: a.name, mbid: nonEmpty(a.mbid), album: null, album_mbid: null, cover_url: largestImage(a.image), duration_ms: null };
}

export function normalizeTrackInfo(answer: z.infer<typeof TrackInfoAnswer>): ItemInfo {
  const t = answer.track;
  const duration = int(t.duration);
  return {
    artist: t.artist.name,
    artist_mbid: nonEmpty(t.artist.mbid),
    name: t.name,
    mbid: nonEmpty(t.mbid),
    album: nonEmpty(t.album?.title),
    album_mbid: nonEmpty(t.album?.mbid),
    cover_url: largestImage(t.album?.image),
    // track.getInfo reports milliseconds (as a string); 0 means unknown.
    duration_ms: duration > 0 ? duration : null,
  };
}
