import type { Item, Media } from '../../infra/upstreams/mediaserver/schemas.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';
import type { MirrorItem, MirrorKind, MirrorMedia } from '../../shared/events/mediaserver-library.events.ts';
import { mediaserverExternalId } from '../../shared/canonical/external-ids.ts';

/** Codecs that keep every bit of the source. */
const LOSSLESS = new Set(['flac', 'alac', 'wav', 'wave', 'aiff', 'aif', 'pcm', 'ape', 'wavpack', 'wv', 'tta', 'dsd', 'dsf', 'dff', 'truehd', 'mlp']);
const KINDS: readonly string[] = ['artist', 'album', 'track', 'movie', 'show', 'season', 'episode'];
/** The server's stream type for audio. */
const AUDIO_STREAM = 2;

export const isLossless = (codec: string | null | undefined) => Boolean(codec && LOSSLESS.has(codec.toLowerCase()));

/** The first media entry's quality: codec, container, and the bit depth its audio stream carries. */
export function mediaOf(media: Media | undefined): MirrorMedia | null {
  if (!media) return null;
  const part = media.Part[0];
  const audio = part?.Stream.find((s) => s.streamType === AUDIO_STREAM) ?? part?.Stream[0];
  const codec = (media.audioCodec ?? audio?.codec ?? null)?.toLowerCase() ?? null;
  return {
    codec,
    container: media.container ?? part?.container ?? null,
    bit_depth: audio?.bitDepth ?? null,
    sampling_rate: audio?.samplingRate ?? null,
    bitrate: media.bitrate ?? null,
    lossless: isLossless(codec),
    size: part?.size ?? null,
    part_id: part?.id ?? null,
    part_key: part?.key ?? null,
  };
}

/** An item as the mirror keeps it; `canonical_id` is filled in once reconciled. */
export function mirrorItemOf(item: Item, canonicalId: string | null = null): MirrorItem {
  const kind = (KINDS.includes(item.type) ? item.type : 'track') as MirrorKind;
  return {
    rating_key: item.ratingKey,
    kind,
    title: item.title,
    parent_rating_key: item.parentRatingKey ?? null,
    grandparent_rating_key: item.grandparentRatingKey ?? null,
    parent_title: item.parentTitle ?? null,
    grandparent_title: item.grandparentTitle ?? null,
    index: item.index ?? null,
    disc: kind === 'track' ? (item.parentIndex ?? null) : null,
    year: item.year ?? null,
    duration_ms: item.duration ?? null,
    thumb: item.thumb ?? null,
    genres: item.Genre.map((g) => g.tag),
    added_at: item.addedAt ?? null,
    updated_at: item.updatedAt ?? null,
    view_count: item.viewCount ?? null,
    last_viewed_at: item.lastViewedAt ?? null,
    user_rating: item.userRating ?? null,
    media: kind === 'track' ? mediaOf(item.Media[0]) : null,
    canonical_id: canonicalId,
  };
}

export const externalIdOf = (serverId: string, item: { ratingKey: string } | { rating_key: string }) =>
  mediaserverExternalId(serverId, 'ratingKey' in item ? item.ratingKey : item.rating_key);

/** The facts the canonical layer takes from an item; parents are given as canonical ids. */
export function factsOf(item: Item, parents: { artistId?: string; artistName?: string; albumId?: string; albumTitle?: string } = {}): Facts & { name: string } {
  const facts: Facts & { name: string } = { name: item.title };
  if (item.year) facts.year = item.year;
  if (item.Genre.length > 0) facts.genres = item.Genre.map((g) => g.tag);
  if (parents.artistId) facts.artist_id = parents.artistId;
  const artistName = parents.artistName ?? (item.type === 'album' ? item.parentTitle : item.grandparentTitle);
  if (item.type !== 'artist' && artistName) facts.artist_name = artistName;
  if (item.type === 'track') {
    if (parents.albumId) facts.album_id = parents.albumId;
    const albumTitle = parents.albumTitle ?? item.parentTitle;
    if (albumTitle) facts.album_title = albumTitle;
    if (item.index !== undefined) facts.track_number = item.index;
    facts.disc = item.parentIndex ?? 1;
    if (item.duration) facts.duration_ms = item.duration;
    const media = mediaOf(item.Media[0]);
    if (media) facts.audio_quality = { codec: media.codec, bit_depth: media.bit_depth, lossless: media.lossless };
  }
  return facts;
}
