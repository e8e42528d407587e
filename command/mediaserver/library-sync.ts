import type { AppContext } from '../../infra/context.ts';
import type { ServerClient } from '../../infra/upstreams/mediaserver/server.ts';
import type { Item, Section } from '../../infra/upstreams/mediaserver/schemas.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { reconcile } from '../canonical/reconciler.ts';
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
  const observe = (kind: Kind, item: Item, parents: Parameters<typeof factsOf>[1] = {}) =>
    reconcile(ctx, { source: 'mediaserver', kind, external_id: externalIdOf(serverId, item), facts: factsOf(item, parents) }, run.actor);

  if (section.type === 'artist') {
    const artists = new Map<string, { id: string; name: string }>();
    for await (const page of server.sectionItems(section.key, 'artist')) {
      for (const artist of page) {
        run.checkpoint();
        const id = await observe('artist', artist);
        artists.set(artist.ratingKey, { id, name: artist.title });
        await record(recorder, seen, mirrorItemOf(artist, id));
        counts.artists! += 1;
      }
      run.progress({ section_id: section.key, phase: 'artists', ...counts });
    }
    for await (const page of server.sectionItems(section.key, 'album')) {
      for (const album of page) {
        run.checkpoint();
        const artist = album.parentRatingKey ? artists.get(album.parentRatingKey) : undefined;
        const albumId = await observe('album', album, { artistId: artist?.id, artistName: artist?.name });
        await record(recorder, seen, mirrorItemOf(album, albumId));
        counts.albums! += 1;
        const before = known.byKey.get(album.ratingKey);
        const changed = !before || before.deleted || before.updatedAt !== (album.updatedAt ?? null);
        if (quick && !changed) {
          keepTracksOf(known, album.ratingKey, seen);
          counts.albums_skipped! += 1;
          continue;
        }
        counts.albums_fetched! += 1;
        for (const track of await server.children(album.ratingKey)) {
          const trackArtist = (track.grandparentRatingKey && artists.get(track.grandparentRatingKey)) || artist;
          const id = await observe('track', track, { artistId: trackArtist?.id, artistName: trackArtist?.name, albumId, albumTitle: album.title });
          await record(recorder, seen, mirrorItemOf(track, id));
          counts.tracks! += 1;
        }
        run.progress({ section_id: section.key, phase: 'albums', ...counts });
      }
    }
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
  const last = await recorder.finished(quick, counts);
  await ctx.settle(last?.position);
  return { server_id: serverId, section_id: section.key, section_type: section.type, quick, ...counts };
}

async function record(recorder: SectionRecorder, seen: Set<string>, item: ReturnType<typeof mirrorItemOf>): Promise<void> {
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
