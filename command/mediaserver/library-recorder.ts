import type { AppContext } from '../../infra/context.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import type { AppendResult, EventMetadata } from '../../infra/eventstore/event-store.ts';
import type { MediaserverLibraryEvent, MirrorItem } from '../../shared/events/mediaserver-library.events.ts';
import { mediaserverSectionStream } from '../../shared/streams.ts';

const ITEMS_PER_EVENT = 200;
const KEYS_PER_EVENT = 1000;

/**
 * Appends what a sync saw of one section, in batches. These streams record observations, not
 * decisions: nothing is decided from their state, so appends go at any revision (a second sync
 * running at the same time only adds later sightings).
 */
export function sectionRecorder(ctx: AppContext, serverId: string, sectionId: string, metadata: EventMetadata) {
  const stream = mediaserverSectionStream(serverId, sectionId);
  let buffer: MirrorItem[] = [];
  let last: AppendResult | undefined;

  async function append(events: MediaserverLibraryEvent[]): Promise<void> {
    if (events.length === 0) return;
    last = await ctx.store.append(stream, events.map((e) => toNewEvent(e, metadata)), 'any');
  }

  async function flush(): Promise<void> {
    const items = buffer;
    buffer = [];
    await append(items.length === 0 ? [] : [{ type: 'MediaserverItemsSynced', data: { server_id: serverId, section_id: sectionId, items, at: new Date().toISOString() } }]);
  }

  return {
    async seen(item: MirrorItem): Promise<void> {
      buffer.push(item);
      if (buffer.length >= ITEMS_PER_EVENT) await flush();
    },
    flush,
    async removed(ratingKeys: string[]): Promise<void> {
      await flush();
      const events: MediaserverLibraryEvent[] = [];
      for (let i = 0; i < ratingKeys.length; i += KEYS_PER_EVENT) {
        events.push({ type: 'MediaserverItemsRemoved', data: { server_id: serverId, section_id: sectionId, rating_keys: ratingKeys.slice(i, i + KEYS_PER_EVENT), at: new Date().toISOString() } });
      }
      await append(events);
    },
    async finished(quick: boolean, counts: Record<string, number>): Promise<AppendResult | undefined> {
      await flush();
      await append([{ type: 'MediaserverSectionSynced', data: { server_id: serverId, section_id: sectionId, quick, counts, at: new Date().toISOString() } }]);
      return last;
    },
  };
}

export type SectionRecorder = ReturnType<typeof sectionRecorder>;
