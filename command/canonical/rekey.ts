import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../infra/context.ts';
import { Kind } from '../../shared/events/canonical.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { canonicalCommands } from './canonical-commands.ts';
import type { Rekeyer } from './migrate-rekeyers.ts';

export interface RekeyOutcome {
  rekeyed: number;
  duplicates_removed: number;
  unresolvable: number;
  unresolvable_deleted: number;
}

/** Where an id stands now, by the log (not a read model that may lag or be rebuilding); null when the log never saw it. */
export function finalIdResolver(ctx: AppContext) {
  const commands = canonicalCommands(ctx, null);
  const cache = new Map<string, Promise<string | null>>();
  return (kind: Kind, id: string): Promise<string | null> => {
    const key = `${kind}:${id}`;
    let found = cache.get(key);
    if (!found) {
      found = commands.finalId(kind, id).catch((error) => {
        if (error instanceof NotFound) return null;
        throw error;
      });
      cache.set(key, found);
    }
    return found;
  };
}

type Resolve = ReturnType<typeof finalIdResolver>;
const IDS_PER_TRANSACTION = 100;

/**
 * Moves every row of one table off merged-away ids onto the end of their merge chain. Candidates
 * come from the read model (ids that are not a live entity of their kind); the log decides.
 * Idempotent: a second run finds nothing to move.
 */
export async function rekeyTable(ctx: AppContext, rekeyer: Rekeyer, resolve: Resolve, checkpoint: () => void): Promise<RekeyOutcome> {
  const outcome: RekeyOutcome = { rekeyed: 0, duplicates_removed: 0, unresolvable: 0, unresolvable_deleted: 0 };
  const db = ctx.db as unknown as Kysely<any>;
  for (const column of rekeyer.columns) {
    const stale = await staleIds(db, rekeyer.table, column);
    for (let i = 0; i < stale.length; i += IDS_PER_TRANSACTION) {
      checkpoint();
      const moves: { id: string; to: string | null }[] = [];
      for (const { id, kind } of stale.slice(i, i + IDS_PER_TRANSACTION)) {
        const to = await resolve(kind, id);
        if (to !== id) moves.push({ id, to });
      }
      await db.transaction().execute(async (trx) => {
        for (const move of moves) await applyMove(trx, rekeyer, column.column, move, outcome);
      });
    }
  }
  return outcome;
}

async function staleIds(db: Kysely<any>, table: string, column: Rekeyer['columns'][number]): Promise<{ id: string; kind: Kind }[]> {
  const col = sql.ref(`t.${column.column}`);
  const kindOf: RawBuilder<unknown> = typeof column.kind === 'string' ? sql.lit(column.kind) : sql.ref(`t.${column.kind.column}`);
  const rows = await sql<{ id: string; kind: string }>`
    select distinct ${col} as id, ${kindOf} as kind
    from ${sql.table(table)} as t left join canonical_docs d on d.id = ${col}
    where ${col} is not null and (d.id is null or d.tombstoned or d.kind <> ${kindOf})`.execute(db);
  return rows.rows.map((r) => {
    const kind = Kind.safeParse(r.kind);
    // A kind column with other values is a misdeclared re-keyer: deleting its rows as unresolvable would lose data.
    if (!kind.success) throw new Error(`${table}: kind ${String(r.kind)} of ${r.id} is not artist, album or track`);
    return { id: r.id, kind: kind.data };
  });
}

async function applyMove(trx: Kysely<any>, rekeyer: Rekeyer, column: string, move: { id: string; to: string | null }, outcome: RekeyOutcome): Promise<void> {
  const table = sql.table(rekeyer.table);
  const col = sql.ref(column);
  const affected = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0n);
  if (move.to === null) {
    if (rekeyer.unresolvable === 'keep') {
      const { rows } = await sql<{ n: string }>`select count(*) as n from ${table} where ${col} = ${move.id}`.execute(trx);
      outcome.unresolvable += Number(rows[0]?.n ?? 0);
      return;
    }
    const result =
      rekeyer.unresolvable === 'delete'
        ? await sql`delete from ${table} where ${col} = ${move.id}`.execute(trx)
        : await sql`update ${table} set ${col} = null where ${col} = ${move.id}`.execute(trx);
    outcome.unresolvable += affected(result);
    if (rekeyer.unresolvable === 'delete') outcome.unresolvable_deleted += affected(result);
    return;
  }
  for (const key of (rekeyer.unique ?? []).filter((k) => k.includes(column))) {
    const same = key.filter((c) => c !== column).map((c) => sql`t2.${sql.ref(c)} = t.${sql.ref(c)}`);
    const rest = same.length > 0 ? sql` and ${sql.join(same, sql` and `)}` : sql``;
    const removed = await sql`
      delete from ${table} as t where t.${col} = ${move.id}
      and exists (select 1 from ${table} as t2 where t2.${col} = ${move.to}${rest})`.execute(trx);
    outcome.duplicates_removed += affected(removed);
  }
  outcome.rekeyed += affected(await sql`update ${table} set ${col} = ${move.to} where ${col} = ${move.id}`.execute(trx));
}
