import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { INVALID_KINDS, type InvalidKind } from '../../shared/scrobbles/invalid.ts';
import { offsetOf } from '../../shared/paging.ts';
import { toScrobbleRecord } from './scrobbles.reads.ts';

export type KindFilter = InvalidKind | 'all';

function invalid(db: Kysely<Database>, kind: KindFilter) {
  const rows = db.selectFrom('scrobbles').where('invalid_kind', 'is not', null);
  return kind === 'all' ? rows : rows.where('invalid_kind', '=', kind);
}

/** Invalid scrobbles of every user, by time; the counts cover every bucket whatever the filter. */
export async function listInvalid(db: Kysely<Database>, kind: KindFilter, page: number, limit: number) {
  const [rows, total, counts_by_kind] = await Promise.all([
    invalid(db, kind).selectAll().orderBy('uts', 'desc').orderBy('scrobble_id').limit(limit).offset(offsetOf(page, limit)).execute(),
    invalid(db, kind).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    countInvalidByKind(db),
  ]);
  const items = rows.map((r) => ({ ...toScrobbleRecord(r), username: r.username_key }));
  return { items, total: Number(total.n), page, limit, kind, counts_by_kind };
}

/** Invalid scrobbles per bucket and in all, every bucket present (the partial index of invalid rows answers it). */
export async function countInvalidByKind(db: Kysely<Database>): Promise<Record<InvalidKind | 'all', number>> {
  const counts = await invalid(db, 'all').select(['invalid_kind', sql<number>`count(*)::int`.as('n')]).groupBy('invalid_kind').execute();
  const counts_by_kind = Object.fromEntries(INVALID_KINDS.map((k) => [k, 0])) as Record<InvalidKind | 'all', number>;
  counts_by_kind.all = 0;
  for (const c of counts) {
    counts_by_kind[c.invalid_kind as InvalidKind] = Number(c.n);
    counts_by_kind.all += Number(c.n);
  }
  return counts_by_kind;
}

/** Ids of the invalid scrobbles of a bucket, grouped by owner. */
export async function invalidIdsByUser(db: Kysely<Database>, kind: KindFilter): Promise<Map<string, string[]>> {
  const rows = await invalid(db, kind).select(['username_key', 'scrobble_id']).execute();
  const byUser = new Map<string, string[]>();
  for (const r of rows) byUser.set(r.username_key, [...(byUser.get(r.username_key) ?? []), r.scrobble_id]);
  return byUser;
}
