import type { EventStore, Position, RecordedEvent } from '../../infra/eventstore/event-store.ts';
import { type LogPoint, atOrBefore, encodeCursor, isAt } from '../../infra/eventstore/log-point.ts';

/** How many events one request reads at most: a page of a rare type may come back short, with a cursor to go on from. */
export const SCAN_CAP = 20_000;
const CHUNK = 1000;

export interface AuditFilter {
  stream_prefix?: string;
  type?: string;
  from?: LogPoint;
  to?: LogPoint;
  after?: Position;
  limit: number;
}

/**
 * One page of the log in log order: events after the cursor that pass the filters, read in chunks
 * up to the scan cap. `next` is the position of the last event read, so the next page starts where
 * this one stopped whatever was appended meanwhile; `has_more` is false once the log (or `to`) is done.
 */
export async function auditPage(store: EventStore, filter: AuditFilter) {
  const events: RecordedEvent[] = [];
  let cursor = filter.after;
  let scanned = 0;
  let hasMore = true;
  const beyond = (e: RecordedEvent) => filter.to !== undefined && !atOrBefore(filter.to)(e);
  const wanted = (e: RecordedEvent) =>
    (!filter.stream_prefix || e.streamId.startsWith(filter.stream_prefix)) &&
    (!filter.type || e.type === filter.type) &&
    (!filter.from || !atOrBefore(filter.from)(e) || isAt(filter.from, e));
  scan: while (events.length < filter.limit && scanned < SCAN_CAP) {
    const chunk = await store.readAll({ after: cursor, maxCount: Math.min(CHUNK, SCAN_CAP - scanned) });
    if (chunk.length === 0) {
      hasMore = false;
      break;
    }
    for (const e of chunk) {
      if (beyond(e)) {
        hasMore = false;
        break scan;
      }
      scanned++;
      cursor = e.position;
      if (wanted(e)) events.push(e);
      if (events.length === filter.limit) break scan;
    }
  }
  return {
    events: events.map((e) => ({
      cursor: encodeCursor(e.position),
      stream_id: e.streamId,
      revision: e.revision,
      type: e.type,
      recorded_at: e.createdAt.toISOString(),
      data: e.data as Record<string, unknown>,
      metadata: e.metadata as Record<string, unknown>,
    })),
    next: cursor ? encodeCursor(cursor) : null,
    has_more: hasMore,
  };
}
