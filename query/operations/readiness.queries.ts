import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { pendingMigrations } from '../../infra/db/migrations/index.ts';
import { type Position, encodePosition } from '../../infra/eventstore/event-store.ts';
import { readCheckpoints } from '../../infra/projections/checkpoints.ts';
import type { ProjectorStatus } from '../../infra/projections/status.ts';
import { messageOf } from '../../shared/errors.ts';

const StalledOn = z.object({
  since: z.string(),
  event_position: z.string(),
  event_id: z.string(),
  type: z.string(),
  stream: z.string().optional().describe('admins only: a stream name may name a user'),
});

export const ProjectorReadiness = z.object({
  name: z.string(),
  version: z.number().int(),
  state: z.enum(['live', 'rebuilding', 'retrying', 'stalled']),
  position: z.string().describe('the last event applied (opaque)'),
  lag: z.number().int().nullable().describe('log positions behind the head: about the events appended since (bytes of log on EventStoreDB)'),
  stalled_on: StalledOn.nullable(),
  error: z.string().optional().describe('admins only: why it is retrying or stalled'),
}).meta({ id: 'ProjectorReadiness' });

export const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  reasons: z.array(z.string()),
  database: z.enum(['reachable', 'unreachable']),
  event_store: z.enum(['reachable', 'unreachable']),
  pending_migrations: z.array(z.string()),
  head: z.string().nullable(),
  projectors: z.array(ProjectorReadiness),
}).meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof Readiness>;

/**
 * Whether this process can serve: the database answers with every migration applied, and no
 * projector is stalled. A few cheap reads (migration names, the head of the log, checkpoints when
 * this process does not project); never a scan of the log. Details that may name a user (a
 * stream, an error text) are for admins; the log has them too.
 */
export async function readiness(ctx: AppContext, options: { details: boolean }): Promise<Readiness> {
  const reasons: string[] = [];
  const unreachable = (what: string) => (error: unknown) => {
    reasons.push(`${what} unreachable: ${messageOf(error)}`);
    return undefined;
  };
  const pending = await pendingMigrations(ctx.db).catch(unreachable('database'));
  const head = await ctx.store.headPosition().catch(unreachable('event store'));
  if (pending?.length) reasons.push(`migrations not applied: ${pending.join(', ')}`);
  const statuses = ctx.projections?.status() ?? (pending ? await storedStatuses(ctx.db) : []);
  for (const s of statuses) {
    if (s.stall) reasons.push(`projector ${s.name} stalled at ${encodePosition(s.position)} on ${s.stall.type} ${s.stall.eventId}`);
  }
  return {
    status: reasons.length === 0 ? 'ready' : 'not_ready',
    reasons,
    database: pending ? 'reachable' : 'unreachable',
    event_store: head ? 'reachable' : 'unreachable',
    pending_migrations: pending ?? [],
    head: head ? encodePosition(head) : null,
    projectors: statuses.map((s) => projectorReadiness(s, head ?? undefined, options.details)),
  };
}

function projectorReadiness(s: ProjectorStatus, head: Position | undefined, details: boolean): z.infer<typeof ProjectorReadiness> {
  const error = s.stall?.error ?? s.failure?.error;
  const stalledOn = s.stall && {
    since: s.stall.since.toISOString(),
    event_position: encodePosition(s.stall.eventPosition),
    event_id: s.stall.eventId,
    type: s.stall.type,
    ...(details ? { stream: s.stall.stream } : {}),
  };
  return {
    name: s.name,
    version: s.version,
    state: s.state,
    position: encodePosition(s.position),
    lag: head ? Math.max(0, Number(head.prepare - s.position.prepare)) : null,
    stalled_on: stalledOn ?? null,
    ...(details && error ? { error } : {}),
  };
}

/** A process without the projector role reports what the projectors stored. */
async function storedStatuses(db: Kysely<Database>): Promise<ProjectorStatus[]> {
  const stored = await readCheckpoints(db);
  return [...stored.values()].map((c) => ({ name: c.name, version: c.version, state: c.state, position: c.position, ...(c.stall ? { stall: c.stall } : {}) }));
}
