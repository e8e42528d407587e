import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';

const Int = z.number().int();
const UPSTREAMS = ['mediaserver', 'scrobbler'] as const;
/** Stale users listed by name, longest idle first; `count` says how many there are in all. */
const LISTED = 100;

export const AccountCounts = z.object({
  users: z.object({ total: Int, by_role: z.object({ viewer: Int, staff: Int, admin: Int }) }),
  linked_accounts: z.record(z.enum(UPSTREAMS), Int).describe('users linked to each upstream'),
  stale_connected_users: z.object({
    stale_days: Int,
    count: Int,
    users: z.array(z.object({ username: z.string(), upstream: z.enum(UPSTREAMS), linked_at: z.string(), last_sync_at: z.string().nullable() })),
  }),
});

/**
 * Users by role, links per upstream, and the connected users gone stale: linked, with no sync or
 * refresh in `staleDays` (a link made within the window is not stale yet). Per-user rows: a
 * household's worth, whatever the size of the log.
 */
export async function accountCounts(db: Kysely<Database>, staleDays: number, now: Date): Promise<z.infer<typeof AccountCounts>> {
  const cutoff = new Date(now.getTime() - staleDays * 86_400_000);
  const activity = sql<Date>`coalesce(last_sync_at, linked_at)`;
  const [roles, links, stale] = await Promise.all([
    db.selectFrom('users').select(['role', sql<number>`count(*)::int`.as('n')]).where('deleted', '=', false).groupBy('role').execute(),
    db.selectFrom('upstream_connections').select(['upstream', sql<number>`count(*)::int`.as('n')]).groupBy('upstream').execute(),
    db
      .selectFrom('upstream_connections')
      .select(['username', 'upstream', 'linked_at', 'last_sync_at', sql<number>`(count(*) over ())::int`.as('stale')])
      .where(activity, '<', cutoff)
      .orderBy(activity)
      .orderBy('username')
      .orderBy('upstream')
      .limit(LISTED)
      .execute(),
  ]);
  const by_role = { viewer: 0, staff: 0, admin: 0 };
  for (const r of roles) if (r.role in by_role) by_role[r.role as keyof typeof by_role] = r.n;
  const linked_accounts = Object.fromEntries(UPSTREAMS.map((u) => [u, links.find((l) => l.upstream === u)?.n ?? 0])) as Record<(typeof UPSTREAMS)[number], number>;
  return {
    users: { total: by_role.viewer + by_role.staff + by_role.admin, by_role },
    linked_accounts,
    stale_connected_users: {
      stale_days: staleDays,
      count: stale[0]?.stale ?? 0,
      users: stale.map((r) => ({
        username: r.username,
        upstream: r.upstream as (typeof UPSTREAMS)[number],
        linked_at: r.linked_at.toISOString(),
        last_sync_at: r.last_sync_at?.toISOString() ?? null,
      })),
    },
  };
}
