import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { MonitorEvent, MonitorEventFacts, MonitorSource } from '../../shared/events/monitor.events.ts';
import { hashedId, newId } from '../../shared/ids.ts';
import { monitorEventStream } from '../../shared/streams.ts';
import * as delivery from './monitor-event.decider.ts';
import type { MonitorDeliveryState, RecordMonitorEvent } from './monitor-event.decider.ts';

export interface Delivery {
  source: MonitorSource;
  /** The sender's own id of this delivery, when it sends one. */
  deliveryId: string | null;
  facts: MonitorEventFacts;
  raw: Record<string, unknown>;
}

/**
 * Records one delivery. With its own id, the stream is named from (source, id) and appended at
 * "no stream": of two concurrent or repeated deliveries exactly one records, the other finds the
 * stream taken, reloads it, and decides nothing. Without one, every delivery is new.
 */
export async function recordDelivery(ctx: AppContext, d: Delivery): Promise<{ monitor_event_id: string; duplicate: boolean }> {
  const monitorEventId = d.deliveryId === null ? newId() : hashedId(d.source, d.deliveryId);
  const command: RecordMonitorEvent = {
    type: 'RecordMonitorEvent',
    source: d.source,
    deliveryId: d.deliveryId,
    facts: d.facts,
    raw: d.raw,
    meta: { monitorEventId, now: new Date().toISOString() },
  };
  const handled = await handleCommand<MonitorDeliveryState, RecordMonitorEvent, MonitorEvent>(ctx.store, monitorEventStream(monitorEventId), delivery, command, {
    actor: `${d.source} webhook`,
  });
  return { monitor_event_id: monitorEventId, duplicate: handled.result === undefined };
}
