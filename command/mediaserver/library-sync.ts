import type { AppContext } from '../../infra/context.ts';
import type { ServerClient } from '../../infra/upstreams/mediaserver/server.ts';
import type { Item, Section } from '../../infra/upstreams/mediaserver/schemas.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { MirrorItem } from '../../shared/events/mediaserver-library.events.ts';
import type { Observation } from '../canonical/observation.ts';
import { reconcileMany } from '../canonical/reconciler.ts';
import { externalIdOf, factsOf, mirrorItemOf } from './library-observations.ts';
import { type SectionRecorder, sectionRecorder } from './library-recorder.ts';

export interface SyncRun {
  actor: string | null;
  taskId: string;
  checkpoint(): void;
  progress(progress: Record<string, unknown>): void;
}

interface Known {
  kind: string;
  parent: string | null;
  updatedAt: number | null;
  deleted: boolean;
}

/** Tracks reconciled per batch. */
const TRACK_BATCH = 500;

/** What each section type holds, in the order a sync walks it. */
const WALKED: Record<string, ('movie' | 'show' | 'season' | 'episode')[]> = { movie: ['movie'], show: ['show', 'season', 'episode'] };

/**
 * Syncs one section into the mirror, and for music into the canonical layer: every artist and
 * album, and the tracks of every album (of new or changed albums only when `quick`). Whatever the
 * mirror holds that the server no longer lists is marked deleted.
 */
export async function syncSection(ctx: AppContext, server: ServerClient, serverId: string, section: Section, quick: boolean, run: SyncRun) {
  const known = await knownItems(ctx, serverId, section.key);
  const recorder = sectionRecorder(ctx, serverId, section.key, { actor: run.actor, correlation_id: run.taskId });
  const seen = new Set<string>();
  const counts: Record<string, number> = { artists: 0, albums: 0, tracks: 0, albums_fetched: 0, albums_skipped: 0, other: 0 };
  const progress = (phase: string) => run.progress({ section_id: section.key, phase, ...counts });

  if (section.type === 'artist') {
    const music = musicSync(ctx, serverId, run.actor, (item) => record(recorder, seen, item));
    for await (const page of server.sectionItems(section.key, 'artist')) {
      run.checkpoint();
      await music.artists(page);
      counts.artists! += page.length;
      progress('artists');
    }
    for await (const page of server.sectionItems(section.key, 'album')) {
      run.checkpoint();
      for (const { album, albumId, artist } of await music.albums(page)) {
        counts.albums! += 1;
        const before = known.byKey.get(album.ratingKey);
        const changed = !before || before.deleted || before.updatedAt !== (album.updatedAt ?? null);
        if (quick && !changed) {
          keepTracksOf(known, album.ratingKey, seen);
          counts.albums_skipped! += 1;
          continue;
        }
        run.checkpoint();
        counts.albums_fetched! += 1;
        counts.tracks! += await music.tracks(await server.children(album.ratingKey), { albumId, albumTitle: album.title, artist });
      }
      progress('albums');
    }
    counts.tracks! += await music.flush();
  } else {
    for (const type of WALKED[section.type] ?? []) {
      for await (const page of server.sectionItems(section.key, type)) {
        run.checkpoint();
        for (const item of page) await record(recorder, seen, mirrorItemOf(item));
        counts.other! += page.length;
      }
    }
  }

  const gone = [...known.byKey].filter(([key, k]) => !k.deleted && !seen.has(key)).map(([key]) => key);
  await recorder.removed(gone);
  counts.removed = gone.length;
  await recorder.finished(quick, counts);
  return { server_id: serverId, section_id: section.key, section_type: section.type, quick, ...counts };
}

type ArtistRef = { id: string; name: string } | undefined;

/**
 * Music items reach the canonical layer a page at a time: artists and albums page by page, tracks
 * gathered across albums until a batch is full. Each is mirrored with its canonical id.
 */
function musicSync(ctx: AppContext, serverId: string, actor: string | null, mirror: (item: MirrorItem) => Promise<void>) {
  const artists = new Map<string, { id: string; name: string }>();
  let tracks: { track: Item; parents: Parameters<typeof factsOf>[1] }[] = [];
  const observation = (kind: Kind, item: Item, parents: Parameters<typeof factsOf>[1] = {}): Observation => ({
    source: 'mediaserver',
    kind,
    external_id: externalIdOf(serverId, item),
    facts: factsOf(item, parents),
  });

  async function flush(): Promise<number> {
    const batch = tracks;
    tracks = [];
    const ids = await reconcileMany(ctx, batch.map((t) => observation('track', t.track, t.parents)), actor);
    for (const [i, t] of batch.entries()) await mirror(mirrorItemOf(t.track, ids[i]));
    return batch.length;
  }

  return {
    async artists(page: Item[]): Promise<void> {
      const ids = await reconcileMany(ctx, page.map((a) => observation('artist', a)), actor);
      for (const [i, artist] of page.entries()) {
        artists.set(artist.ratingKey, { id: ids[i]!, name: artist.title });
        await mirror(mirrorItemOf(artist, ids[i]));
      }
    },
    async albums(page: Item[]): Promise<{ album: Item; albumId: string; artist: ArtistRef }[]> {
      const artistOf = (album: Item) => (album.parentRatingKey ? artists.get(album.parentRatingKey) : undefined);
      const ids = await reconcileMany(ctx, page.map((album) => observation('album', album, { artistId: artistOf(album)?.id, artistName: artistOf(album)?.name })), actor);
      const out = page.map((album, i) => ({ album, albumId: ids[i]!, artist: artistOf(album) }));
      for (const { album, albumId } of out) await mirror(mirrorItemOf(album, albumId));
      return out;
    },
    /** Queues an album's tracks; answers how many were reconciled by a batch this filled. */
    async tracks(albumTracks: Item[], album: { albumId: string; albumTitle: string; artist: ArtistRef }): Promise<number> {
      for (const track of albumTracks) {
        const artist = (track.grandparentRatingKey && artists.get(track.grandparentRatingKey)) || album.artist;
        tracks.push({ track, parents: { artistId: artist?.id, artistName: artist?.name, albumId: album.albumId, albumTitle: album.albumTitle } });
      }
      return tracks.length >= TRACK_BATCH ? flush() : 0;
    },
    flush,
  };
}

async function record(recorder: SectionRecorder, seen: Set<string>, item: MirrorItem): Promise<void> {
  seen.add(item.rating_key);
  await recorder.seen(item);
}

/** An unchanged album skipped by a quick sync keeps the live tracks the mirror has for it. */
function keepTracksOf(known: KnownItems, albumKey: string, seen: Set<string>): void {
  for (const key of known.liveTracksOf.get(albumKey) ?? []) seen.add(key);
}

interface KnownItems {
  byKey: Map<string, Known>;
  liveTracksOf: Map<string, string[]>;
}

async function knownItems(ctx: AppContext, serverId: string, sectionId: string): Promise<KnownItems> {
  const rows = await ctx.db
    .selectFrom('mediaserver_items')
    .select(['rating_key', 'kind', 'parent_rating_key', 'server_updated_at', 'deleted'])
    .where('server_id', '=', serverId)
    .where('section_id', '=', sectionId)
    .execute();
  const byKey = new Map(rows.map((r) => [r.rating_key, { kind: r.kind, parent: r.parent_rating_key, updatedAt: r.server_updated_at, deleted: r.deleted }]));
  const liveTracksOf = new Map<string, string[]>();
  for (const r of rows) {
    if (r.kind !== 'track' || r.deleted || !r.parent_rating_key) continue;
    const list = liveTracksOf.get(r.parent_rating_key) ?? [];
    list.push(r.rating_key);
    liveTracksOf.set(r.parent_rating_key, list);
  }
  return { byKey, liveTracksOf };
}
