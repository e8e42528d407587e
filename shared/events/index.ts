import type { z } from 'zod';
import { type TaskEvent, taskEventSchemas } from './tasks.events.ts';
import { type UserEvent, userEventSchemas } from './users.events.ts';
import { type CanonicalEvent, canonicalEventSchemas } from './canonical.events.ts';
import { type ScrobbleEvent, scrobbleEventSchemas } from './scrobbles.events.ts';
import { type MeEvent, meEventSchemas } from './me.events.ts';
import { type MediaserverLinkEvent, mediaserverEventSchemas } from './mediaserver.events.ts';
import { type MediaserverLibraryEvent, mediaserverLibraryEventSchemas } from './mediaserver-library.events.ts';
import { type MediaserverPlaylistEvent, mediaserverPlaylistEventSchemas } from './mediaserver-playlists.events.ts';
import { type AssistantEvent, assistantEventSchemas } from './assistant.events.ts';
import { type EnrichmentEvent, enrichmentEventSchemas } from './enrichment.events.ts';
import { type MonitorEvent, monitorEventSchemas } from './monitor.events.ts';
import { type StreamerEvent, streamerEventSchemas } from './streamer.events.ts';
import { type RadioEvent, radioEventSchemas } from './radio.events.ts';

/** Every domain event of the service, discriminated by `type`. */
export type DomainEvent =
  | TaskEvent
  | UserEvent
  | CanonicalEvent
  | ScrobbleEvent
  | MeEvent
  | MediaserverLinkEvent
  | MediaserverLibraryEvent
  | MediaserverPlaylistEvent
  | AssistantEvent
  | EnrichmentEvent
  | MonitorEvent
  | StreamerEvent
  | RadioEvent;
export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** type → schema: events are validated before they are appended. */
export const eventSchemas: Record<DomainEventType, z.ZodType> = {
  ...taskEventSchemas,
  ...userEventSchemas,
  ...canonicalEventSchemas,
  ...scrobbleEventSchemas,
  ...meEventSchemas,
  ...mediaserverEventSchemas,
  ...mediaserverLibraryEventSchemas,
  ...mediaserverPlaylistEventSchemas,
  ...assistantEventSchemas,
  ...enrichmentEventSchemas,
  ...monitorEventSchemas,
  ...streamerEventSchemas,
  ...radioEventSchemas,
};
