import { z } from 'zod';
import { scrobblerArtistId, scrobblerItemId } from '../../../shared/canonical/external-ids.ts';

export type PickerKind = 'artist' | 'album' | 'track';

export interface PickerRow {
  external_id: string;
  title: string;
  subtitle: string | null;
  thumbnail: string | null;
}

/** The scrobbler answers its grey star placeholder where it has no picture; a picker shows none. */
const PLACEHOLDER = '2a96cbd8b46e442fc41c2b86b821562f';
const SIZES = ['extralarge', 'large', 'medium', 'small'];

const Image = z.object({ size: z.string().optional(), '#text': z.string().optional() });
const Match = z.object({
  name: z.string(),
  artist: z.union([z.string(), z.object({ name: z.string() })]).optional(),
  listeners: z.union([z.string(), z.number()]).optional(),
  image: z.array(Image).optional(),
});
/** Old answers collapse a one-row list into the row itself, and an empty one into a string. */
const Rows = z.union([z.array(Match), Match.transform((m) => [m]), z.string().transform(() => [])]);

export const SEARCH_METHOD: Record<PickerKind, { method: string; param: string; matches: string }> = {
  artist: { method: 'artist.search', param: 'artist', matches: 'artistmatches' },
  album: { method: 'album.search', param: 'album', matches: 'albummatches' },
  track: { method: 'track.search', param: 'track', matches: 'trackmatches' },
};

/** The scrobbler pages by number: the page holding `offset` (`offset // limit + 1`). */
export const upstreamPage = (offset: number, limit: number) => Math.floor(offset / limit) + 1;

/** Search matches as picker rows, with the ids the service gives scrobbler refs. */
export function pickerRows(kind: PickerKind, answer: unknown): PickerRow[] {
  const { matches } = SEARCH_METHOD[kind];
  const container = (answer as { results?: Record<string, unknown> } | null)?.results?.[matches];
  const list = Rows.safeParse((container as Record<string, unknown> | undefined)?.[kind] ?? []);
  if (!list.success) return [];
  return list.data.map((m) => rowOf(kind, m));
}

function rowOf(kind: PickerKind, m: z.infer<typeof Match>): PickerRow {
  const thumbnail = pictureOf(m.image ?? []);
  if (kind === 'artist') {
    const listeners = Number(m.listeners);
    return { external_id: scrobblerArtistId(m.name), title: m.name, subtitle: Number.isFinite(listeners) && m.listeners !== undefined ? `${listeners.toLocaleString('en-US')} listeners` : null, thumbnail };
  }
  const artist = typeof m.artist === 'string' ? m.artist : (m.artist?.name ?? '');
  return { external_id: scrobblerItemId(artist, m.name), title: m.name, subtitle: artist || null, thumbnail };
}

function pictureOf(images: z.infer<typeof Image>[]): string | null {
  for (const size of SIZES) {
    const url = images.find((i) => i.size === size)?.['#text'];
    if (url && !url.includes(PLACEHOLDER)) return url;
  }
  return null;
}
