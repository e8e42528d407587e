import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type MirrorItemRow, toRow } from './library.queries.ts';

export interface ListScope {
  serverId: string;
  sectionId: string;
  kind: string;
  includeDeleted: boolean;
}

/** Rows read per query while streaming a whole list: memory stays at one chunk whatever the section's size. */
const CHUNK_ROWS = 1000;
const LAST = 2_147_483_647;

/**
 * The list order, as expressions without nulls so that a row-value comparison can resume after
 * any row (keyset): tracks by album, disc (1 when the server gives none), position (unnumbered
 * last); everything else by folded title. The rating key breaks ties. The indexes of migration
 * 0015-library-list-order are on these very expressions.
 */
function orderOf(kind: string): RawBuilder<unknown>[] {
  if (kind === 'track') return [sql`coalesce(parent_rating_key, '')`, sql`coalesce(disc, 1)`, sql`coalesce(item_index, ${sql.lit(LAST)})`, sql`rating_key`];
  return [sql`title_folded`, sql`rating_key`];
}

function scoped(db: Kysely<Database>, scope: ListScope) {
  let query = db.selectFrom('mediaserver_items').where('server_id', '=', scope.serverId).where('section_id', '=', scope.sectionId).where('kind', '=', scope.kind);
  if (!scope.includeDeleted) query = query.where('deleted', '=', false);
  return query;
}

export async function countItems(db: Kysely<Database>, scope: ListScope): Promise<number> {
  const row = await scoped(db, scope).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the list (`page` is 1-based). */
export async function listPage(db: Kysely<Database>, scope: ListScope, page: number, pageSize: number): Promise<MirrorItemRow[]> {
  let query = scoped(db, scope).selectAll();
  for (const expression of orderOf(scope.kind)) query = query.orderBy(expression as Expression<unknown>);
  return (await query.limit(pageSize).offset((page - 1) * pageSize).execute()).map(toRow);
}

/**
 * The whole list in chunks, each read by its own short query that resumes after the previous
 * chunk's last sort key: no transaction is held while the client reads (on the embedded database
 * that would hold up every other request), and no chunk costs more than the one before.
 */
export async function* walkItems(db: Kysely<Database>, scope: ListScope, chunkRows = CHUNK_ROWS): AsyncGenerator<MirrorItemRow[]> {
  const order = orderOf(scope.kind);
  const keys = order.map((_, i) => `sort_${i}`);
  let after: unknown[] | undefined;
  for (;;) {
    let query = scoped(db, scope)
      .selectAll()
      .select(order.map((expression, i) => expression.as(keys[i]!)));
    if (after) query = query.where(sql<boolean>`(${sql.join(order)}) > (${sql.join(after)})`);
    for (const expression of order) query = query.orderBy(expression as Expression<unknown>);
    const rows = await query.limit(chunkRows).execute();
    if (rows.length > 0) yield rows.map(toRow);
    if (rows.length < chunkRows) return;
    const last = rows.at(-1) as Record<string, unknown>;
    after = keys.map((key) => last[key]);
  }
}
