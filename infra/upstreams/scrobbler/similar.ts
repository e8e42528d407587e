import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { liveRead } from './live-read.ts';
import { TTL } from './proxy-cache.ts';

/** A list of one item may arrive collapsed into an object, and an empty one absent. */
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));
const match = z.union([z.string(), z.number()]).optional().transform((m) => Math.min(1, Math.max(0, Number(m ?? 0) || 0)));
const Image = z.array(z.looseObject({ '#text': z.string().optional() })).optional();

const SimilarArtists = z.looseObject({
  similarartists: z.looseObject({ artist: list(z.looseObject({ name: z.string(), mbid: z.string().optional(), match, image: Image })) }),
});
export type SimilarArtist = z.infer<typeof SimilarArtists>['similarartists']['artist'][number];

const SimilarTracks = z.looseObject({
  similartracks: z.looseObject({
    track: list(z.looseObject({ name: z.string(), match, artist: z.union([z.string(), z.looseObject({ name: z.string() })]).transform((a) => (typeof a === 'string' ? a : a.name)) })),
  }),
});
export type SimilarTrack = z.infer<typeof SimilarTracks>['similartracks']['track'][number];

/** The scrobbler's similar artists (cached like its other catalog reads), `match` clamped to 0..1. */
export async function similarArtists(ctx: Pick<AppContext, 'db' | 'config'>, artist: string, limit: number): Promise<SimilarArtist[]> {
  const answer = await liveRead(ctx, { method: 'artist.getSimilar', params: { artist, limit: String(limit) }, ttlMs: TTL.catalog });
  return SimilarArtists.parse(answer).similarartists.artist;
}

/** The scrobbler's similar tracks of one track (cached), `match` clamped to 0..1. */
export async function similarTracks(ctx: Pick<AppContext, 'db' | 'config'>, artist: string, track: string, limit: number): Promise<SimilarTrack[]> {
  const answer = await liveRead(ctx, { method: 'track.getSimilar', params: { artist, track, limit: String(limit) }, ttlMs: TTL.catalog });
  return SimilarTracks.parse(answer).similartracks.track;
}
