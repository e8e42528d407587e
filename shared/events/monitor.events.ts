import { z } from 'zod';

/**
 * What the media server's own webhooks and the monitoring tool's webhook agent delivered, one
 * stream `monitorevent-<id>` per delivery. A delivery carrying its own id is recorded under a
 * stream named from that id, so a repeated delivery finds its stream taken and records nothing.
 * `raw` keeps the fields as they came, secrets removed (see command/monitor/raw-fields.ts).
 */
export const MONITOR_SOURCES = ['mediaserver', 'monitor'] as const;
export const MonitorSource = z.enum(MONITOR_SOURCES);
export type MonitorSource = z.infer<typeof MonitorSource>;

export const MonitorEventFacts = z.object({
  event: z.string(),
  category: z.string(),
  media_type: z.string().nullable(),
  user: z.string().nullable(),
  title: z.string().nullable(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  server: z.string().nullable(),
  player: z.string().nullable(),
});
export type MonitorEventFacts = z.infer<typeof MonitorEventFacts>;

export const MonitorEventRecorded = z.object({
  monitor_event_id: z.string(),
  source: MonitorSource,
  /** The sender's own id of the delivery, when it has one: what makes a repeat a duplicate. */
  delivery_id: z.string().nullable(),
  ...MonitorEventFacts.shape,
  raw: z.record(z.string(), z.unknown()),
  at: z.string(),
});

export const monitorEventSchemas = { MonitorEventRecorded } as const;

export type MonitorEvent = { type: 'MonitorEventRecorded'; data: z.infer<typeof MonitorEventRecorded> };
