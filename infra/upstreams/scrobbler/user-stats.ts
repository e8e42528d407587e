import { z } from 'zod';

export type StatsKind = 'artist' | 'album' | 'track';

/** The counts of one getInfo answer asked with `username`: the user's plays beside everyone's. */
export interface UserStats {
  kind: StatsKind;
  artist: string;
  name: string | null;
  user_playcount: number;
  user_loved: boolean | null;
  playcount: number | null;
  listeners: number | null;
  url: string | null;
}

/** Scalars arrive as strings or numbers depending on the method (track.getInfo strings, album.getInfo numbers). */
const count = z.union([z.string(), z.number()]).optional().transform((v) => {
  const n = Number(v);
  return v === undefined || v === '' || !Number.isFinite(n) ? null : n;
});
const Counts = z.object({ listeners: count, playcount: count, userplaycount: count, userloved: count });
const Named = z.object({ name: z.string().optional(), url: z.string().optional() });

const ArtistAnswer = z.object({ artist: Named.extend({ stats: Counts.partial().optional() }) });
const ItemAnswer = (key: 'album' | 'track') => z.object({ [key]: Named.merge(Counts) });

/** Reads the counts out of artist/album/track.getInfo; undefined when the answer has no such object. */
export function userStatsOf(kind: StatsKind, answer: unknown, asked: { artist: string; name?: string }): UserStats | undefined {
  const base = { kind, artist: asked.artist, name: asked.name ?? null };
  if (kind === 'artist') {
    const parsed = ArtistAnswer.safeParse(answer);
    if (!parsed.success) return undefined;
    const stats = parsed.data.artist.stats ?? {};
    return { ...base, user_playcount: stats.userplaycount ?? 0, user_loved: null, playcount: stats.playcount ?? null, listeners: stats.listeners ?? null, url: parsed.data.artist.url ?? null };
  }
  const parsed = ItemAnswer(kind).safeParse(answer);
  if (!parsed.success) return undefined;
  const item = (parsed.data as Record<string, z.infer<typeof Counts> & z.infer<typeof Named>>)[kind]!;
  return {
    ...base,
    user_playcount: item.userplaycount ?? 0,
    user_loved: kind === 'track' ? item.userloved === 1 : null,
    playcount: item.playcount,
    listeners: item.listeners,
    url: item.url ?? null,
  };
}

/** What a caller without a scrobbler link sees: no plays, nothing asked upstream. */
export function emptyUserStats(kind: StatsKind, asked: { artist: string; name?: string }): UserStats {
  return { kind, artist: asked.artist, name: asked.name ?? null, user_playcount: 0, user_loved: kind === 'track' ? false : null, playcount: null, listeners: null, url: null };
}

export const UserStatsSchema = z.object({
  kind: z.enum(['artist', 'album', 'track']),
  artist: z.string(),
  name: z.string().nullable(),
  user_playcount: z.number(),
  user_loved: z.boolean().nullable(),
  playcount: z.number().nullable(),
  listeners: z.number().nullable(),
  url: z.string().nullable(),
});
