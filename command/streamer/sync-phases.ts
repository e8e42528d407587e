import type { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { StreamerApi } from '../../infra/upstreams/streamer/api.ts';
import { FollowedArtists, Play, PlaylistItem, PlaylistObject, SavedAlbum, SavedTrack, paging } from '../../infra/upstreams/streamer/schemas.ts';
import { type MirrorState, isoTime } from '../../projectors/streamer/mirror.reads.ts';
import { stableJson } from '../../shared/canonical/doc-facts.ts';
import type { PlaylistEntry, PlaylistMeta } from '../../shared/events/streamer.events.ts';
import { reconcileMany } from '../canonical/reconciler.ts';
import type { MirrorRecorder } from './mirror-recorder.ts';
import { albumObservation, artistObservation, isTrack, mirrorTrack, trackObservation } from './observations.ts';

export const PHASES = ['saved_tracks', 'saved_albums', 'followed_artists', 'playlists', 'recently_played'] as const;
export type Phase = (typeof PHASES)[number];

/** The first page of each phase, at the largest page the API serves. */
export const FIRST_PAGE: Record<Phase, string> = {
  saved_tracks: 'me/tracks?limit=50',
  saved_albums: 'me/albums?limit=50',
  followed_artists: 'me/following?type=artist&limit=50',
  playlists: 'me/playlists?limit=50',
  recently_played: 'me/player/recently-played?limit=50',
};

export interface PhaseRun {
  ctx: AppContext;
  api: StreamerApi;
  accountId: string;
  actor: string | null;
  known: MirrorState;
  recorder: MirrorRecorder;
  /** UPCs of saved albums, so that an album embedded in a track is observed as its saved form is. */
  upcs: Map<string, string>;
  counts: Record<string, number>;
  checkpoint(): void;
}

export interface PhaseWalker {
  /** Mirrors one page; answers the link of the next, or null at the end. */
  page(link: string, seen: Set<string>): Promise<string | null>;
  /** After a walk from the first page: what the account no longer lists. */
  finish(seen: Set<string>): Promise<void>;
}

const PlaylistPage = paging(PlaylistItem);
type PlaylistPage = z.infer<typeof PlaylistPage>;

const same = (before: unknown, now: unknown) => before !== undefined && stableJson(before) === stableJson(now);
const gone = (known: Map<string, unknown>, seen: Set<string>) => [...known.keys()].filter((id) => !seen.has(id));
const bump = (run: PhaseRun, key: string, n: number) => void (run.counts[key] = (run.counts[key] ?? 0) + n);

/**
 * The rows with their canonical ids. A row the mirror already holds exactly as seen keeps the id it
 * was reconciled to (merges are followed where it is read): its observation would be the same as
 * last time. Only new or changed rows are reconciled, in one batch (`observe` gets their indexes).
 */
async function withCanonical<R extends object, C extends string>(
  rows: R[],
  idOf: (row: R) => string,
  column: C,
  known: ReadonlyMap<string, object>,
  observe: (indexes: number[]) => Promise<string[]>,
): Promise<(R & Record<C, string | null>)[]> {
  const ids = rows.map((row) => {
    const before = known.get(idOf(row)) as Record<string, unknown> | undefined;
    const held = before?.[column];
    return typeof held === 'string' && same({ ...before, [column]: null }, { ...row, [column]: null }) ? held : null;
  });
  const missing = ids.flatMap((id, n) => (id === null ? [n] : []));
  const fresh = missing.length > 0 ? await observe(missing) : [];
  missing.forEach((n, k) => (ids[n] = fresh[k] ?? null));
  return rows.map((row, n) => ({ ...row, [column]: ids[n] }) as R & Record<C, string | null>);
}

export function phaseWalkers(run: PhaseRun): Record<Phase, PhaseWalker> {
  const { ctx, api, known, recorder, upcs } = run;
  const reconcileTracks = (tracks: Parameters<typeof trackObservation>[0][]) => reconcileMany(ctx, tracks.map((t) => trackObservation(t, upcs)), run.actor);

  return {
    saved_tracks: {
      async page(link, seen) {
        const page = await api.get(link, paging(SavedTrack));
        const items = page.items.flatMap((i) => (isTrack(i.track) ? [{ track: i.track, added_at: i.added_at }] : []));
        const seenRows = items.map((i) => ({ ...mirrorTrack(i.track, null), added_at: isoTime(i.added_at) }));
        const rows = await withCanonical(seenRows, (r) => r.track_id, 'canonical_track_id', known.savedTracks, (at) => reconcileTracks(at.map((n) => items[n]!.track)));
        for (const row of rows) seen.add(row.track_id);
        await recorder.tracksSaved(rows.filter((r) => !same(known.savedTracks.get(r.track_id), r)));
        bump(run, 'saved_tracks', rows.length);
        return page.next;
      },
      finish: (seen) => recorder.tracksUnsaved(gone(known.savedTracks, seen)),
    },
    saved_albums: {
      async page(link, seen) {
        const page = await api.get(link, paging(SavedAlbum));
        const items = page.items.filter((i) => i.album.id);
        for (const { album } of items) if (album.external_ids?.upc) upcs.set(album.id!, album.external_ids.upc);
        const seenRows = items.map(({ album, added_at }) => ({
          album_id: album.id!,
          name: album.name,
          artist_name: album.artists.map((a) => a.name).join(', ') || null,
          upc: album.external_ids?.upc ?? null,
          added_at: isoTime(added_at),
          canonical_album_id: null,
        }));
        const observe = (at: number[]) => reconcileMany(ctx, at.map((n) => albumObservation(items[n]!.album, upcs)!), run.actor);
        const rows = await withCanonical(seenRows, (r) => r.album_id, 'canonical_album_id', known.savedAlbums, observe);
        for (const row of rows) seen.add(row.album_id);
        await recorder.albumsSaved(rows.filter((r) => !same(known.savedAlbums.get(r.album_id), r)));
        bump(run, 'saved_albums', rows.length);
        return page.next;
      },
      finish: (seen) => recorder.albumsUnsaved(gone(known.savedAlbums, seen)),
    },
    followed_artists: {
      async page(link, seen) {
        const { artists: page } = await api.get(link, FollowedArtists);
        const seenRows = page.items.map((a) => ({ artist_id: a.id, name: a.name, canonical_artist_id: null }));
        const observe = (at: number[]) => reconcileMany(ctx, at.map((n) => artistObservation(page.items[n]!)!), run.actor);
        const rows = await withCanonical(seenRows, (r) => r.artist_id, 'canonical_artist_id', known.followedArtists, observe);
        for (const row of rows) seen.add(row.artist_id);
        await recorder.artistsFollowed(rows.filter((r) => !same(known.followedArtists.get(r.artist_id), r)));
        bump(run, 'followed_artists', rows.length);
        return page.next;
      },
      finish: (seen) => recorder.artistsUnfollowed(gone(known.followedArtists, seen)),
    },
    playlists: {
      async page(link, seen) {
        const page = await api.get(link, paging(PlaylistObject));
        for (const playlist of page.items) {
          const meta = playlistMeta(playlist, run.accountId);
          seen.add(meta.playlist_id);
          bump(run, 'playlists', 1);
          // An unchanged snapshot has unchanged items: no need to read them again.
          if (same(known.playlists.get(meta.playlist_id), meta)) continue;
          const items = await playlistEntries(run, meta.playlist_id, reconcileTracks);
          await recorder.playlistMirrored({ playlist: meta, items });
          bump(run, 'playlist_items', items.length);
        }
        return page.next;
      },
      finish: (seen) => recorder.playlistsDropped(gone(known.playlists, seen)),
    },
    recently_played: {
      async page(link) {
        const page = await api.get(link, paging(Play));
        const since = known.lastPlayedAt;
        const fresh = page.items.filter((p) => isTrack(p.track) && (!since || isoTime(p.played_at) > since));
        const ids = await reconcileTracks(fresh.map((p) => p.track as Parameters<typeof trackObservation>[0]));
        await recorder.playsRecorded(fresh.map((p, n) => ({ ...mirrorTrack(p.track as Parameters<typeof trackObservation>[0], ids[n] ?? null), played_at: isoTime(p.played_at) })));
        bump(run, 'recently_played', fresh.length);
        // Older pages hold only plays the mirror has once a page reaches them.
        return fresh.length < page.items.length ? null : page.next;
      },
      finish: async () => undefined,
    },
  };
}

function playlistMeta(p: PlaylistObject, accountId: string): PlaylistMeta {
  return {
    playlist_id: p.id,
    name: p.name,
    description: p.description || null,
    owner_id: p.owner.id,
    owner_name: p.owner.display_name ?? null,
    owned: p.owner.id === accountId,
    public: p.public,
    collaborative: p.collaborative,
    snapshot_id: p.snapshot_id,
    image_url: p.images?.[0]?.url ?? null,
    tracks_total: p.tracks.total,
  };
}

/** Every item of a playlist, reconciled page by page; a cancel stops between pages. */
async function playlistEntries(run: PhaseRun, playlistId: string, reconcileTracks: (t: Parameters<typeof trackObservation>[0][]) => Promise<string[]>): Promise<PlaylistEntry[]> {
  const entries: PlaylistEntry[] = [];
  for (let link: string | null = `playlists/${encodeURIComponent(playlistId)}/tracks?limit=100`; link; ) {
    run.checkpoint();
    const page: PlaylistPage = await run.api.get(link, PlaylistPage);
    const tracks = page.items.flatMap((i) => (isTrack(i.track) && !i.is_local ? [i.track] : []));
    const ids = new Map((await reconcileTracks(tracks)).map((id, n) => [tracks[n]!.id, id]));
    for (const item of page.items) {
      const added_at = item.added_at ? isoTime(item.added_at) : null;
      if (isTrack(item.track) && !item.is_local) entries.push({ ...mirrorTrack(item.track, ids.get(item.track.id) ?? null), added_at, is_local: false });
      else if (item.track) entries.push({ ...mirrorTrack({ ...item.track, id: item.track.id ?? '' }, null), track_id: item.track.id, added_at, is_local: item.is_local });
    }
    link = page.next;
  }
  return entries;
}
