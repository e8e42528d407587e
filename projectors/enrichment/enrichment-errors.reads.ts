import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';

export interface ErrorFilters {
  source?: string | undefined;
  kind?: string | undefined;
  limit: number;
}

/** The open error rows, newest first, with the count of rows per source (whatever the filters). */
export async function listErrors(db: Kysely<Database>, f: ErrorFilters) {
  let rows = db.selectFrom('enrichment_errors').selectAll().where('merged_away', '=', false);
  if (f.source) rows = rows.where('source', '=', f.source);
  if (f.kind) rows = rows.where('kind', '=', f.kind);
  const [items, counts] = await Promise.all([
    rows.orderBy('last_seen', 'desc').orderBy('source').orderBy('canonical_id').limit(f.limit).execute(),
    db.selectFrom('enrichment_errors').select(['source', sql<number>`count(*)::int`.as('n')]).where('merged_away', '=', false).groupBy('source').execute(),
  ]);
  return {
    items: items.map((r) => ({
      key: `${r.source}:${r.kind}:${r.canonical_id}`,
      source: r.source,
      kind: r.kind,
      canonical_id: r.canonical_id,
      error: r.error,
      attempts: r.attempts,
      first_seen: r.first_seen.toISOString(),
      last_seen: r.last_seen.toISOString(),
    })),
    counts: Object.fromEntries(counts.map((c) => [c.source, Number(c.n)])),
  };
}

/** How many rows a source has open, for a drain's coverage. */
export async function errorCount(db: Kysely<Database>, source: string, kind?: string): Promise<number> {
  let q = db.selectFrom('enrichment_errors').select(sql<number>`count(*)::int`.as('n')).where('source', '=', source).where('merged_away', '=', false);
  if (kind) q = q.where('kind', '=', kind);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
