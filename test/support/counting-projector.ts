import { sql } from 'kysely';
import type { DatabaseHandle } from '../../infra/db/create-db.ts';
import type { EventStore } from '../../infra/eventstore/event-store.ts';
import type { Projector } from '../../infra/projections/projector.ts';

/** Counts how many times each event was applied: a double apply shows as times = 2. */
export function countingProjector(options: { version?: number; failOnce?: number } = {}): Projector & { failures: number } {
  let remainingFailures = options.failOnce ?? 0;
  const projector = {
    name: 'counted',
    version: options.version ?? 1,
    handles: ['TaskProgressed'] as Projector['handles'],
    tables: ['counted'] as unknown as Projector['tables'],
    failures: 0,
    async apply(trx: Parameters<Projector['apply']>[0], events: Parameters<Projector['apply']>[1]) {
      for (const [i, event] of events.entries()) {
        // A crash in the middle of a batch: the rows written before it must roll back with it.
        if (remainingFailures > 0 && i === Math.floor(events.length / 2)) {
          remainingFailures -= 1;
          projector.failures += 1;
          throw new Error('projector crashed mid-batch');
        }
        await sql`insert into counted (event_id, times) values (${event.id}, 1)
                  on conflict (event_id) do update set times = counted.times + 1`.execute(trx);
      }
    },
  };
  return projector;
}

export const progress = (taskId: string, n: number) => ({ type: 'TaskProgressed', data: { task_id: taskId, progress: { n }, at: new Date().toISOString() } });

export async function appendProgress(store: EventStore, count: number) {
  let last;
  for (let i = 0; i < count; i += 50) {
    const events = Array.from({ length: Math.min(50, count - i) }, (_, j) => progress('t', i + j));
    last = await store.append(`task-${crypto.randomUUID()}`, events, 'no_stream');
  }
  return last!.position;
}

export async function counted(database: DatabaseHandle) {
  const { rows } = await sql<{ n: number; max: number | null }>`select count(*)::int as n, max(times) as max from counted`.execute(database.db);
  return rows[0]!;
}

