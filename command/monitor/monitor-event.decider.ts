import type { MonitorEvent, MonitorEventFacts, MonitorSource } from '../../shared/events/monitor.events.ts';
import { assertNever } from '../../shared/never.ts';

/** One delivery of the monitor intake, stream `monitorevent-<id>`: recorded once, whatever repeats it. */
export interface MonitorDeliveryState {
  recorded: boolean;
}

export const initialState = (): MonitorDeliveryState => ({ recorded: false });

export function evolve(_state: MonitorDeliveryState, event: MonitorEvent): MonitorDeliveryState {
  switch (event.type) {
    case 'MonitorEventRecorded':
      return { recorded: true };
    default:
      return assertNever(event.type);
  }
}

interface Meta {
  monitorEventId: string;
  now: string;
}

export interface RecordMonitorEvent {
  type: 'RecordMonitorEvent';
  source: MonitorSource;
  deliveryId: string | null;
  facts: MonitorEventFacts;
  raw: Record<string, unknown>;
  meta: Meta;
}

/** A delivery already recorded decides nothing: its sender retried, and it counts once. */
export function decide(state: MonitorDeliveryState, command: RecordMonitorEvent): MonitorEvent[] {
  switch (command.type) {
    case 'RecordMonitorEvent': {
      if (state.recorded) return [];
      const { monitorEventId, now } = command.meta;
      const data = { monitor_event_id: monitorEventId, source: command.source, delivery_id: command.deliveryId, ...command.facts, raw: command.raw, at: now };
      return [{ type: 'MonitorEventRecorded', data }];
    }
    default:
      return assertNever(command.type);
  }
}
