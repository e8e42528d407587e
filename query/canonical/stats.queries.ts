import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { SOURCES } from '../../shared/events/canonical.events.ts';

const KindCounts = z.object({
  /** Every entity ever registered, merged-away ones included. */
  total: z.number().int(),
  live: z.number().int(),
  merged: z.number().int(),
  /** Live entities the mediaserver holds. */
  playable: z.number().int(),
  /** Live entities with refs from two sources or more. */
  multi_source: z.number().int(),
});

export const CanonicalStats = z.object({
  /** Live entities of each kind. */
  artists: z.number().int(),
  albums: z.number().int(),
  tracks: z.number().int(),
  by_kind: z.object({ artists: KindCounts, albums: KindCounts, tracks: KindCounts }),
  total_refs: z.number().int(),
  refs_per_source: z.record(z.string(), z.number().int()),
  refs_per_kind: z.object({ artists: z.number().int(), albums: z.number().int(), tracks: z.number().int() }),
}).meta({ id: 'CanonicalStats' });
export type CanonicalStats = z.infer<typeof CanonicalStats>;

const PLURAL = { artist: 'artists', album: 'albums', track: 'tracks' } as const;

export async function canonicalStats(db: Kysely<Database>): Promise<CanonicalStats> {
  const kinds = await sql<{ kind: keyof typeof PLURAL; total: string; live: string; merged: string; playable: string; multi_source: string }>`
    select kind,
      count(*) as total,
      count(*) filter (where not tombstoned) as live,
      count(*) filter (where merged_into is not null) as merged,
      count(*) filter (where not tombstoned and (sources->>'mediaserver') = 'true') as playable,
      count(*) filter (where not tombstoned and source_count >= 2) as multi_source
    from canonical_docs group by kind`.execute(db);
  const refs = await db.selectFrom('external_refs').select((eb) => ['kind', 'source', eb.fn.countAll<number>().as('n')]).groupBy(['kind', 'source']).execute();
  const zero = { total: 0, live: 0, merged: 0, playable: 0, multi_source: 0 };
  const stats: CanonicalStats = {
    artists: 0,
    albums: 0,
    tracks: 0,
    by_kind: { artists: { ...zero }, albums: { ...zero }, tracks: { ...zero } },
    total_refs: 0,
    refs_per_source: Object.fromEntries(SOURCES.map((s) => [s, 0])),
    refs_per_kind: { artists: 0, albums: 0, tracks: 0 },
  };
  for (const row of kinds.rows) {
    const { kind, ...counts } = row;
    if (!(kind in PLURAL)) continue;
    const numbers = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])) as typeof zero;
    stats.by_kind[PLURAL[kind]] = numbers;
    stats[PLURAL[kind]] = numbers.live;
  }
  for (const row of refs) {
    const n = Number(row.n);
    stats.total_refs += n;
    stats.refs_per_source[row.source] = (stats.refs_per_source[row.source] ?? 0) + n;
    const plural = PLURAL[row.kind as keyof typeof PLURAL];
    if (plural) stats.refs_per_kind[plural] += n;
  }
  return stats;
}
